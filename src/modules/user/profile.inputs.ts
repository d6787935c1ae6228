// Body of updateUserProfile. Every field a profile read returns is accepted, so the expected
// client flow (read, edit, send back) works: read-only fields (uTitle, uCreationDate, ...)
// are ignored, a null means "no value given" (it never erases: that is what fieldsToNull is
// for), and an omitted field keeps its stored value. Each field's own rules (rules.ts) sit beside
// it, bounds from PROFILE_LIMITS (which the columns read too); what a value's form cannot say (a
// country or time zone that exists, a real day not in the future, an id in its reference table)
// is checked by the service (profile.fields.ts, profile.service.ts).
import { Field, InputType, Int } from 'type-graphql';
import { Rule, type FieldRule } from '../../graphql/rules';
import { PROFILE_LIMITS as LIMITS } from './user.entity';

/**
 * The form of a country code; whether it is assigned is checked against the reference list. The
 * form bounds the length, so 'AUS' is a malformed code (WSInvalidParameterException), not a long one;
 * the same holds for the single-letter gender code and the Y/N codes.
 */
export const COUNTRY_CODE_RULE: FieldRule = { pattern: /^[A-Za-z]{2}$/, format: 'an ISO 3166-1 alpha-2 country code' };

/** The form of an IANA zone id (Area/Location, UTC, Etc/GMT+5); whether the zone exists is checked against the runtime's list. */
export const TIMEZONE_RULE: FieldRule = {
  maxLength: LIMITS.uTimezoneId,
  pattern: /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/,
  format: 'an IANA time zone id',
};

/** YYYY-MM-DD; whether the day exists (no 2023-02-30) is checked by the service. */
export const DATE_RULE = { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, format: 'a date in the form YYYY-MM-DD' } satisfies FieldRule;

const ID: FieldRule = { min: 1 };
const YES_NO: FieldRule = { oneOf: ['Y', 'N'] };

@InputType({ description: 'Profile update (updateUserProfile). Null or omitted fields keep their values; fieldsToNull erases.' })
export class UpdateUserProfileInput {
  @Field(() => Int, { description: 'Id of the updating user; must be the caller.' }) uId!: number;

  @Field(() => [String], { nullable: true, description: 'Names of fields to set to null, e.g. ["uInterests"].' })
  fieldsToNull?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Title id (titles reference list).' }) @Rule(ID) uTitleId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored (the title name comes from uTitleId).' }) uTitle?: string | null;

  @Field(() => String, { nullable: true, description: 'Single-letter gender code (genders reference list).' })
  @Rule({ pattern: /^[A-Za-z]$/, format: 'a single-letter gender code' })
  uGenderCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uGenderName?: string | null;

  @Field(() => String, { nullable: true, description: 'First name.' }) @Rule({ maxLength: LIMITS.uFirstName }) uFirstName?: string | null;

  @Field(() => String, { nullable: true, description: 'Last name.' }) @Rule({ maxLength: LIMITS.uLastName }) uLastName?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail address; must stay unique, case-insensitive.' })
  @Rule({ maxLength: LIMITS.uEmail, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, format: 'an e-mail address' })
  uEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, any case.' })
  @Rule(COUNTRY_CODE_RULE)
  uCountryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uCountryName?: string | null;

  @Field(() => String, { nullable: true, description: 'Primary mobile number.' })
  @Rule({ maxLength: LIMITS.uPrimaryMobile })
  uPrimaryMobile?: string | null;

  @Field(() => String, { nullable: true, description: 'Interests.' }) @Rule({ maxLength: LIMITS.uInterests }) uInterests?: string | null;

  @Field(() => String, { nullable: true, description: 'Dietary requirements.' })
  @Rule({ maxLength: LIMITS.uDietaryRequirements })
  uDietaryRequirements?: string | null;

  @Field(() => String, { nullable: true, description: 'Treatment notes.' })
  @Rule({ maxLength: LIMITS.uTreatmentNotes })
  uTreatmentNotes?: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD, not in the future.' })
  @Rule(DATE_RULE)
  uDateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uCreationDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Photo URL or storage key.' })
  @Rule({ maxLength: LIMITS.uPhoto })
  uPhoto?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether the apps may use the location.' }) uEnableLocation?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether push notifications are on.' }) uEnableNotifications?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether all e-mails are allowed.' }) uAllowAllEmails?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether newsletter e-mails are allowed.' }) uAllowNewsletterEmail?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Profession id (professions reference list).' }) @Rule(ID) uProfessionId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uProfessionName?: string | null;

  @Field(() => Int, { nullable: true, description: 'Specialty id; must belong to the profession when both are given.' })
  @Rule(ID)
  uSpecialtyId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uSpecialtyName?: string | null;

  @Field(() => Int, { nullable: true, description: 'Condition id (conditions reference list).' }) @Rule(ID) uConditionId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uConditionName?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text title.' })
  @Rule({ maxLength: LIMITS.uOtherTitle })
  uOtherTitle?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text profession.' })
  @Rule({ maxLength: LIMITS.uOtherProfession })
  uOtherProfession?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text specialty.' })
  @Rule({ maxLength: LIMITS.uOtherSpecialty })
  uOtherSpecialty?: string | null;

  @Field(() => String, { nullable: true, description: 'Id on social network A.' })
  @Rule({ maxLength: LIMITS.uSocialNetworkAId })
  uSocialNetworkAId?: string | null;

  @Field(() => String, { nullable: true, description: 'Id on social network B.' })
  @Rule({ maxLength: LIMITS.uSocialNetworkBId })
  uSocialNetworkBId?: string | null;

  @Field(() => String, { nullable: true, description: 'Id on social network C.' })
  @Rule({ maxLength: LIMITS.uSocialNetworkCId })
  uSocialNetworkCId?: string | null;

  @Field(() => String, { nullable: true, description: 'Profile URL on social network C.' })
  @Rule({ maxLength: LIMITS.uSocialNetworkCUrl })
  uSocialNetworkCUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone id, e.g. Australia/Sydney.' })
  @Rule(TIMEZONE_RULE)
  uTimezoneId?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' }) uTimezoneName?: string | null;

  @Field(() => String, { nullable: true, description: 'Service terms and conditions accepted.' })
  @Rule(YES_NO)
  uServiceTsAndCs?: string | null;

  @Field(() => String, { nullable: true, description: 'Tracking consent.' }) @Rule(YES_NO) uServiceTrackingConsent?: string | null;

  @Field(() => String, { nullable: true, description: 'Cloud storage consent.' }) @Rule(YES_NO) uCloudStorageConsent?: string | null;

  @Field(() => String, { nullable: true, description: 'Search provider consent.' }) @Rule(YES_NO) uSearchProviderConsent?: string | null;

  @Field(() => String, { nullable: true, description: 'Social network A consent.' }) @Rule(YES_NO) uSocialNetworkAConsent?: string | null;
}
