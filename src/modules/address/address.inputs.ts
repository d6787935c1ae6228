// The address a create or update sends, with each field's own rules (rules.ts): bounds from the
// spec's Limits table (ADDRESS_LIMITS, which the columns read too), the type codes, and the form
// of the codes, the e-mail and the uuid. Rules across fields or against the reference lists
// (postcode vs postCode, a state of the country, an assigned country code) are address.patch.ts's.
import { Field, InputType } from 'type-graphql';
import { Rule, type FieldRule } from '../../graphql/rules';
import { uuidRule } from '../../core/uuid';
import { ADDRESS_LIMITS as LIMITS, ADDRESS_TYPES } from './address.entity';

/** A uuid, in the body or in the path (parseUuid). */
export const UUID_RULE: FieldRule = uuidRule(LIMITS.uuid);

/** The form of a country code; whether it is assigned is checked against the reference list. */
export const COUNTRY_CODE_RULE: FieldRule = {
  maxLength: LIMITS.countryCode,
  pattern: /^[A-Za-z]{2}$/,
  format: 'an ISO 3166-1 alpha-2 country code',
};

/**
 * The form of a subdivision code (the part after the dash: 1 to 3 letters or digits); whether it exists is checked against the reference
 * list.
 */
export const STATE_CODE_RULE: FieldRule = {
  maxLength: LIMITS.stateCode,
  pattern: /^[A-Za-z0-9]{1,3}$/,
  format: 'an ISO 3166-2 subdivision code',
};

@InputType({
  description:
    'Address fields of a create or update. Omitted fields keep their value, null erases; type, state and country are response fields a client may echo, and are ignored.',
})
export class AddressInput {
  @Field(() => String, {
    nullable: true,
    description: 'Id of the address; required on update and equal to the one in the path; ignored on create.',
  })
  @Rule(UUID_RULE)
  uuid?: string | null;

  @Field(() => String, { nullable: true, description: 'Work, Personal or Other, by its initial; required on create.' })
  @Rule({ maxLength: LIMITS.typeCode, oneOf: Object.keys(ADDRESS_TYPES) })
  typeCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Ignored (derived from typeCode).' }) type?: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the address.' }) @Rule({ maxLength: LIMITS.name }) name?: string | null;

  @Field(() => String, { nullable: true, description: 'Street.' }) @Rule({ maxLength: LIMITS.street }) street?: string | null;

  @Field(() => String, { nullable: true, description: 'City.' }) @Rule({ maxLength: LIMITS.city }) city?: string | null;

  @Field(() => String, { nullable: true, description: 'Suburb.' }) @Rule({ maxLength: LIMITS.suburb }) suburb?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 3166-2 subdivision code without the country prefix, any case; must belong to the country.',
  })
  @Rule(STATE_CODE_RULE)
  stateCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Ignored (derived from stateCode).' }) state?: string | null;

  @Field(() => String, { nullable: true, description: 'Postcode.' }) @Rule({ maxLength: LIMITS.postcode }) postcode?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The same postcode under the spelling of the spec's field table; give one or the other.",
  })
  @Rule({ maxLength: LIMITS.postcode })
  postCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, any case.' })
  @Rule(COUNTRY_CODE_RULE)
  countryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Ignored (derived from countryCode).' }) country?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail address.' })
  @Rule({ maxLength: LIMITS.email, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, format: 'an e-mail address' })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'Phone.' }) @Rule({ maxLength: LIMITS.phone }) phone?: string | null;

  @Field(() => String, { nullable: true, description: 'Fax.' }) @Rule({ maxLength: LIMITS.fax }) fax?: string | null;

  @Field(() => String, { nullable: true, description: 'Mobile.' }) @Rule({ maxLength: LIMITS.mobile }) mobile?: string | null;

  @Field(() => String, { nullable: true, description: 'Department.' }) @Rule({ maxLength: LIMITS.department }) department?: string | null;

  @Field(() => String, { nullable: true, description: 'Division.' }) @Rule({ maxLength: LIMITS.division }) division?: string | null;

  @Field(() => String, { nullable: true, description: 'Job title.' }) @Rule({ maxLength: LIMITS.jobTitle }) jobTitle?: string | null;
}
