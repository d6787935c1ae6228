// The writable fields of the profile, as data: the spec's name and the User property it is stored
// in. The diff, fieldsToNull and the change hooks read this one table, so a field added here is
// handled everywhere. Each field's own rules (lengths, codes, forms) are on UpdateUserProfileInput;
// what is left here is what a value's form cannot say: how it is stored (codes upper case) and the
// checks that need a list, the clock or the database (a country or time zone that exists, a real
// day not in the future, an id of a reference table).
import type { User } from './user.entity';
import { invalidParameter } from '../../graphql/errors';
import { countryName, isValidTimezone } from '../reference-data';
import { COUNTRY_CODE_RULE, DATE_RULE, TIMEZONE_RULE } from './profile.inputs';

export type ReferenceTable = 'title' | 'gender' | 'profession' | 'specialty' | 'condition';

export interface ProfileField {
  /** The spec's name, used on the wire and in fieldsToNull. */
  name: string;
  prop: keyof User & string;
  /** False for columns that always hold a value (e-mail, the booleans). */
  nullable: boolean;
  /** Stored upper case (a code accepted in any case). */
  upperCase?: boolean;
  /** What the value must be beyond its form: checked here, against a list or the clock. */
  check?: 'country' | 'timezone' | 'past date';
  /** The reference table the value must name (checked against the database, one query per given field). */
  ref?: ReferenceTable;
}

const field = (name: string, prop: keyof User & string, more: Partial<ProfileField> = {}): ProfileField => ({
  name,
  prop,
  nullable: true,
  ...more,
});
const bool = (name: string, prop: keyof User & string) => field(name, prop, { nullable: false });

export const PROFILE_FIELDS: readonly ProfileField[] = [
  field('uTitleId', 'titleId', { ref: 'title' }),
  field('uGenderCode', 'genderCode', { ref: 'gender', upperCase: true }),
  field('uFirstName', 'firstName'),
  field('uLastName', 'lastName'),
  field('uEmail', 'email', { nullable: false }),
  field('uCountryCode', 'countryCode', { check: 'country', upperCase: true }),
  field('uPrimaryMobile', 'primaryMobile'),
  field('uInterests', 'interests'),
  field('uDietaryRequirements', 'dietaryRequirements'),
  field('uTreatmentNotes', 'treatmentNotes'),
  field('uDateOfBirth', 'dateOfBirth', { check: 'past date' }),
  field('uPhoto', 'photo'),
  bool('uEnableLocation', 'enableLocation'),
  bool('uEnableNotifications', 'enableNotifications'),
  bool('uAllowAllEmails', 'allowAllEmails'),
  bool('uAllowNewsletterEmail', 'allowNewsletterEmail'),
  field('uProfessionId', 'professionId', { ref: 'profession' }),
  field('uSpecialtyId', 'specialtyId', { ref: 'specialty' }),
  field('uConditionId', 'conditionId', { ref: 'condition' }),
  field('uOtherTitle', 'otherTitle'),
  field('uOtherProfession', 'otherProfession'),
  field('uOtherSpecialty', 'otherSpecialty'),
  field('uSocialNetworkAId', 'socialNetworkAId'),
  field('uSocialNetworkBId', 'socialNetworkBId'),
  field('uSocialNetworkCId', 'socialNetworkCId'),
  field('uSocialNetworkCUrl', 'socialNetworkCUrl'),
  field('uTimezoneId', 'timezoneId', { check: 'timezone' }),
  field('uServiceTsAndCs', 'serviceTsAndCs'),
  field('uServiceTrackingConsent', 'serviceTrackingConsent'),
  field('uCloudStorageConsent', 'cloudStorageConsent'),
  field('uSearchProviderConsent', 'searchProviderConsent'),
  field('uSocialNetworkAConsent', 'socialNetworkAConsent'),
];

/** Fields a profile read returns that an update accepts (so a read profile can be sent back) and ignores. */
export const READ_ONLY_PROFILE_FIELDS: readonly string[] = [
  'uTitle',
  'uGenderName',
  'uCountryName',
  'uProfessionName',
  'uSpecialtyName',
  'uConditionName',
  'uTimezoneName',
  'uCreationDate',
];

export const PROFILE_FIELD_BY_NAME: ReadonlyMap<string, ProfileField> = new Map(PROFILE_FIELDS.map((f) => [f.name, f]));

/** A YYYY-MM-DD string naming a day that exists (no 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = DATE_RULE.pattern.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * A given (non-null) value, which passed its field's rules, as stored; reference ids are
 * checked later, in one query each.
 */
export function normaliseProfileValue(field: ProfileField, value: unknown): unknown {
  const { name } = field;
  // Blank text passes the field's rules as "no value"; a column that is never null is never emptied either.
  if (!field.nullable && typeof value === 'string' && value.trim() === '') throw invalidParameter(name, `${name} cannot be empty.`);
  const stored = field.upperCase && typeof value === 'string' ? value.toUpperCase() : value;
  switch (field.check) {
    case 'country':
      if (!countryName(stored as string)) throw invalidParameter(name, `${name} must be ${COUNTRY_CODE_RULE.format}.`);
      break;
    case 'timezone':
      if (!isValidTimezone(stored as string)) throw invalidParameter(name, `${name} must be ${TIMEZONE_RULE.format}.`);
      break;
    case 'past date':
      if (!isCalendarDate(stored as string)) throw invalidParameter(name, `${name} must be ${DATE_RULE.format}.`);
      if ((stored as string) > new Date().toISOString().slice(0, 10)) throw invalidParameter(name, `${name} cannot be in the future.`);
      break;
  }
  return stored;
}
