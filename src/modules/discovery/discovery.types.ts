// Computed views of discovery: a recommended entity (company variant of the specification), whose
// company fields are the Company type's own (carryCompanyFields), and the criteria of one entity
// with the identifier definitions they reference.
import { Field, getMetadataStorage, Int, ObjectType } from 'type-graphql';
import { Company, companyAtMost } from '../company';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition } from './identifier.entity';
import type { PackedKind } from './discovery.packed';

/** How well a profile meets a company's criteria (matching.ts). */
export const LEVEL = { none: 0, partial: 1, full: 2 } as const;
export type Level = (typeof LEVEL)[keyof typeof LEVEL];

/** A company's own field that the recommended entity shows under another name: a code as its long name (computed by the service). */
const LONG_NAMES: Readonly<Record<string, { name: string; description: string }>> = {
  companyStateCode: { name: 'companyState', description: `Long name of the ISO 3166-2 state. ${companyAtMost('companyState')}` },
  companyCountryCode: { name: 'companyCountry', description: `Long name of the country. ${companyAtMost('companyCountry')}` },
};

/** The company's own fields the recommended entity leaves out: its key (entityId says it as text) and the version 2 fields (below). */
const NOT_CARRIED: ReadonlySet<string> = new Set(['companyId', 'usesCaf', 'cafUrl']);

/**
 * Declares on `target`, in the company's order (company.entity.ts), each of the company's own GraphQL
 * fields but NOT_CARRIED: a code as its long name, any other as the Company type declares it (type,
 * nullability, description; a scalar, under its property's name). Answers the properties of the
 * copies with how each is packed (packedKind), which the statement reads from the company's columns
 * of the same names (discovery.queries.ts), so a field added to the company is in the recommended
 * entity without being named here.
 */
function carryCompanyFields(target: abstract new () => unknown): Readonly<Record<string, PackedKind>> {
  const carried: Record<string, PackedKind> = {};
  for (const field of getMetadataStorage().fields.filter((f) => f.target === Company && !NOT_CARRIED.has(f.name))) {
    const longName = LONG_NAMES[field.name];
    if (longName) {
      Field(() => String, { nullable: true, description: longName.description })(target.prototype, longName.name);
      continue;
    }
    if (field.schemaName !== field.name || field.typeOptions.array)
      throw new Error(`Company.${field.name} is not a scalar field of its property's name: the recommended entity cannot copy it`);
    Field(field.getType, { nullable: field.typeOptions.nullable, description: field.description })(target.prototype, field.name);
    carried[field.name] = packedKind(field.name, field.getType(), field.typeOptions.nullable === true);
  }
  return carried;
}

/**
 * How a carried field is read from the packed text (discovery.packed.ts), by its GraphQL type: a
 * text, nullable or not; an Int or a Boolean only when not nullable.
 */
function packedKind(name: string, type: unknown, nullable: boolean): PackedKind {
  if (type === String) return nullable ? 'text?' : 'text';
  if ((type === Int || type === Number) && !nullable) return 'int';
  if (type === Boolean && !nullable) return 'bool';
  throw new Error(`Company.${name} (${String(type)}${nullable ? ', nullable' : ''}) cannot be packed`);
}

/**
 * A recommended entity's fields before those of version 2: its own, then its company's
 * (carryCompanyFields), which TypeScript does not see: the service copies them from the row by
 * name (discovery.service.ts). Not a type of the schema (no field answers it): RecommendedEntity
 * extends it. Plain values read straight from the object: hundreds of entries a request, each field
 * otherwise wrapped in a resolver call (7% of the service's CPU at 410 companies).
 */
@ObjectType({ simpleResolvers: true })
abstract class RecommendedEntityHead {
  /** Not a field: the company behind the entry, for the `company` resolver. */
  companyId!: number;

  @Field({ description: 'company; event is reserved for future use.' }) entityType!: string;

  @Field({ description: 'The company id as text (an event UUID for events).' }) entityId!: string;

  @Field({
    description:
      'True: the user asked to connect, fully meets a criterion and awaits manual vetting. False: the user may request a connection.',
  })
  entityConnectionPending!: boolean;

  @Field(() => String, { name: 'companyBannerURL', nullable: true, description: 'Unsigned URL of the criteria variant of the banner.' })
  companyBannerURL!: string | null;

  @Field(() => String, { name: 'companyLogoURL', nullable: true, description: 'Unsigned URL of the default logo.' })
  companyLogoURL!: string | null;

  /** The company's long names of its codes (LONG_NAMES), beside the copies of its fields. */
  companyState!: string | null;

  companyCountry!: string | null;
}

/** The company's fields a recommended entity copies from its columns of the same names, in their order, with their packed kinds. */
export const COMPANY_FIELD_KINDS = carryCompanyFields(RecommendedEntityHead);

/** The company's fields a recommended entity copies, in their order. */
export const COMPANY_FIELDS_CARRIED = Object.keys(COMPANY_FIELD_KINDS) as readonly (keyof Company & string)[];

/** A recommended entity: the head's fields, then those of version 2. */
@ObjectType({ description: 'A company (or, in future, an event) recommended to the calling user.', simpleResolvers: true })
export class RecommendedEntity extends RecommendedEntityHead {
  @Field(() => Boolean, {
    name: 'usesCAF',
    nullable: true,
    description: 'Whether the company uses a connection application form. Version 2 only: null under version 1 (REST omits the key).',
  })
  usesCAF!: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: 'URL of the connection application form. Version 2 only (REST omits the key under version 1).',
  })
  cafUrl!: string | null;
}

@ObjectType({
  description: 'The discovery criteria of an entity and every identifier definition they reference, each once.',
  simpleResolvers: true,
})
export class EntityCriteria {
  @Field(() => [DiscoveryCriterion], { description: 'Criteria, in id order.' }) criteria!: DiscoveryCriterion[];

  @Field(() => [IdentifierDefinition], { description: 'Definitions of the identifiers the criteria reference, in id order.' })
  identifierDefinitions!: IdentifierDefinition[];
}
