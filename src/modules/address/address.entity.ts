// The spec's Address resource. User addresses and directory contact addresses share every
// column, so both entities extend AddressColumns (MikroORM maps inherited properties), and
// both are served as the one GraphQL `Address` type. `type`, `state` and `country` are
// derived from the codes by field resolvers (address.resolver.ts).
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { lengthNotes } from '../../graphql/rules';
import { User } from '../user';

export type AddressTypeCode = 'W' | 'P' | 'O';

export const ADDRESS_TYPES: Record<AddressTypeCode, string> = { W: 'Work', P: 'Personal', O: 'Other' };

/** Bounds of the spec's Limits table, in characters: the columns here and the input's rules (address.inputs.ts) read them. */
export const ADDRESS_LIMITS = {
  uuid: 50,
  typeCode: 1,
  name: 255,
  street: 255,
  city: 100,
  suburb: 100,
  stateCode: 6,
  postcode: 20,
  countryCode: 2,
  email: 255,
  phone: 30,
  fax: 30,
  mobile: 30,
  department: 50,
  division: 50,
  jobTitle: 50,
} as const;

/** The columns every address has; the text fields an update may set, in the spec's order. */
export const ADDRESS_TEXT_FIELDS = [
  'name',
  'street',
  'city',
  'suburb',
  'postcode',
  'email',
  'phone',
  'fax',
  'mobile',
  'department',
  'division',
  'jobTitle',
] as const;
export const ADDRESS_FIELDS = [
  'typeCode',
  'name',
  'street',
  'city',
  'suburb',
  'stateCode',
  'postcode',
  'countryCode',
  'email',
  'phone',
  'fax',
  'mobile',
  'department',
  'division',
  'jobTitle',
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** A response field's bound, in the words the input's rules are described in. */
const atMost = lengthNotes(ADDRESS_LIMITS);

@ObjectType('Address', {
  implements: Node,
  simpleResolvers: true,
  description: 'An address of a user profile or of a directory contact record; every field present, null when empty.',
})
export abstract class AddressColumns {
  @Field({ description: 'Unique id of the address (a UUID).' }) @PrimaryKey({ type: 'uuid' }) uuid!: string;

  @Field(() => String, {
    description: `${Object.entries(ADDRESS_TYPES)
      .map(([code, name]) => `${code} (${name})`)
      .join(', ')}.`,
  })
  @Property({ length: ADDRESS_LIMITS.typeCode })
  typeCode!: AddressTypeCode;

  @Field(() => String, { nullable: true, description: `Name of the address. ${atMost('name')}` })
  @Property({ length: ADDRESS_LIMITS.name, nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: `Street. ${atMost('street')}` })
  @Property({ length: ADDRESS_LIMITS.street, nullable: true })
  street?: string | null;

  @Field(() => String, { nullable: true, description: `City. ${atMost('city')}` })
  @Property({ length: ADDRESS_LIMITS.city, nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true, description: `Suburb. ${atMost('suburb')}` })
  @Property({ length: ADDRESS_LIMITS.suburb, nullable: true })
  suburb?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-2 subdivision code without the country prefix (e.g. NSW), upper case.' })
  @Property({ length: ADDRESS_LIMITS.stateCode, nullable: true })
  stateCode?: string | null;

  @Field(() => String, { nullable: true, description: `Postcode. Requests may also spell it postCode. ${atMost('postcode')}` })
  @Property({ length: ADDRESS_LIMITS.postcode, nullable: true })
  postcode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, upper case.' })
  @Property({ length: ADDRESS_LIMITS.countryCode, nullable: true })
  countryCode?: string | null;

  @Field(() => String, { nullable: true, description: `E-mail address. ${atMost('email')}` })
  @Property({ length: ADDRESS_LIMITS.email, nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true, description: `Phone. ${atMost('phone')}` })
  @Property({ length: ADDRESS_LIMITS.phone, nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true, description: `Fax. ${atMost('fax')}` })
  @Property({ length: ADDRESS_LIMITS.fax, nullable: true })
  fax?: string | null;

  @Field(() => String, { nullable: true, description: `Mobile. ${atMost('mobile')}` })
  @Property({ length: ADDRESS_LIMITS.mobile, nullable: true })
  mobile?: string | null;

  @Field(() => String, { nullable: true, description: `Department. ${atMost('department')}` })
  @Property({ length: ADDRESS_LIMITS.department, nullable: true })
  department?: string | null;

  @Field(() => String, { nullable: true, description: `Division. ${atMost('division')}` })
  @Property({ length: ADDRESS_LIMITS.division, nullable: true })
  division?: string | null;

  @Field(() => String, { nullable: true, description: `Job title. ${atMost('jobTitle')}` })
  @Property({ length: ADDRESS_LIMITS.jobTitle, nullable: true })
  jobTitle?: string | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @Property({ defaultRaw: 'now()', onUpdate: () => new Date() }) updatedAt: Date & Opt = new Date();
}

@Entity({ tableName: 'user_address' })
export class UserAddress extends AddressColumns {
  [PrimaryKeyProp]?: 'uuid';

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) @Index() user!: Rel<User>;
}
