// Computed views of discovery: a recommended entity (company variant of the specification)
// and the criteria of one entity with the identifier definitions they reference.
import { Field, ObjectType } from 'type-graphql';
import { companyAtMost } from '../company';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition } from './identifier.entity';

// Plain values read straight from the object: hundreds of entries a request, each field
// otherwise wrapped in a resolver call (7% of the service's CPU at 410 companies).
@ObjectType({ description: 'A company (or, in future, an event) recommended to the calling user.', simpleResolvers: true })
export class RecommendedEntity {
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

  @Field({ description: `Name of the company. ${companyAtMost('companyName')}` }) companyName!: string;

  @Field(() => String, { nullable: true, description: `Description. ${companyAtMost('companyDesc')}` }) companyDesc!: string | null;

  @Field(() => String, { nullable: true, description: `Street address. ${companyAtMost('companyAddress')}` })
  companyAddress!: string | null;

  @Field(() => String, { nullable: true, description: `City. ${companyAtMost('companyCity')}` }) companyCity!: string | null;

  @Field(() => String, { nullable: true, description: `Postcode. ${companyAtMost('companyPostcode')}` }) companyPostcode!: string | null;

  @Field(() => String, { nullable: true, description: `Long name of the ISO 3166-2 state. ${companyAtMost('companyState')}` })
  companyState!: string | null;

  @Field(() => String, { nullable: true, description: `Long name of the country. ${companyAtMost('companyCountry')}` })
  companyCountry!: string | null;

  @Field(() => String, { nullable: true, description: `Contact person. ${companyAtMost('companyContactName')}` })
  companyContactName!: string | null;

  @Field(() => String, { nullable: true, description: `Contact e-mail address. ${companyAtMost('companyContactEmail')}` })
  companyContactEmail!: string | null;

  @Field(() => String, { nullable: true, description: `Web site. ${companyAtMost('companyWebsite')}` }) companyWebsite!: string | null;

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
