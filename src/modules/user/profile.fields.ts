// The writable fields of the profile, as data: the spec's name, the User property it is stored
// in, and how a value is checked. Validation, the diff, fieldsToNull and the change hooks all
// read this one table, so a field added here is handled everywhere.
import type { User } from './user.entity';
import { fieldTooLong, invalidParameter } from '../../graphql/errors';
import { countryName, isValidTimezone, normaliseCountryCode } from '../reference-data/iso';

export type ProfileFieldKind =
  | { type: 'text'; max: number }
  | { type: 'email'; max: number }
  | { type: 'country' }
  | { type: 'timezone' }
  | { type: 'yn' }
  | { type: 'date' }
  | { type: 'bool' }
  /** An id or code that must exist in a reference table (checked against the database). */
  | { type: 'ref'; table: 'title' | 'gender' | 'profession' | 'specialty' | 'condition' };

export interface ProfileField {
  /** The spec's name, used on the wire and in fieldsToNull. */
  name: string;
  prop: keyof User & string;
  kind: ProfileFieldKind;
  /** False for columns that always hold a value (e-mail, the booleans). */
  nullable: boolean;
}

const text = (name: string, prop: keyof User & string, max: number): ProfileField => ({ name, prop, kind: { type: 'text', max }, nullable: true });
const yn = (name: string, prop: keyof User & string): ProfileField => ({ name, prop, kind: { type: 'yn' }, nullable: true });
const bool = (name: string, prop: keyof User & string): ProfileField => ({ name, prop, kind: { type: 'bool' }, nullable: false });
const ref = (name: string, prop: keyof User & string, table: 'title' | 'gender' | 'profession' | 'specialty' | 'condition'): ProfileField => ({
  name, prop, kind: { type: 'ref', table }, nullable: true,
});

export const PROFILE_FIELDS: readonly ProfileField[] = [
  ref('uTitleId', 'titleId', 'title'),
  ref('uGenderCode', 'genderCode', 'gender'),
  text('uFirstName', 'firstName', 100),
  text('uLastName', 'lastName', 100),
  { name: 'uEmail', prop: 'email', kind: { type: 'email', max: 255 }, nullable: false },
  { name: 'uCountryCode', prop: 'countryCode', kind: { type: 'country' }, nullable: true },
  text('uPrimaryMobile', 'primaryMobile', 30),
  text('uInterests', 'interests', 2000),
  text('uDietaryRequirements', 'dietaryRequirements', 2000),
  text('uTreatmentNotes', 'treatmentNotes', 2000),
  { name: 'uDateOfBirth', prop: 'dateOfBirth', kind: { type: 'date' }, nullable: true },
  text('uPhoto', 'photo', 1024),
  bool('uEnableLocation', 'enableLocation'),
  bool('uEnableNotifications', 'enableNotifications'),
  bool('uAllowAllEmails', 'allowAllEmails'),
  bool('uAllowNewsletterEmail', 'allowNewsletterEmail'),
  ref('uProfessionId', 'professionId', 'profession'),
  ref('uSpecialtyId', 'specialtyId', 'specialty'),
  ref('uConditionId', 'conditionId', 'condition'),
  text('uOtherTitle', 'otherTitle', 100),
  text('uOtherProfession', 'otherProfession', 100),
  text('uOtherSpecialty', 'otherSpecialty', 100),
  text('uSocialNetworkAId', 'socialNetworkAId', 255),
  text('uSocialNetworkBId', 'socialNetworkBId', 255),
  text('uSocialNetworkCId', 'socialNetworkCId', 255),
  text('uSocialNetworkCUrl', 'socialNetworkCUrl', 1024),
  { name: 'uTimezoneId', prop: 'timezoneId', kind: { type: 'timezone' }, nullable: true },
  yn('uServiceTsAndCs', 'serviceTsAndCs'),
  yn('uServiceTrackingConsent', 'serviceTrackingConsent'),
  yn('uCloudStorageConsent', 'cloudStorageConsent'),
  yn('uSearchProviderConsent', 'searchProviderConsent'),
  yn('uSocialNetworkAConsent', 'socialNetworkAConsent'),
];

/** Fields a profile read returns that an update accepts (so a read profile can be sent back) and ignores. */
export const READ_ONLY_PROFILE_FIELDS: readonly string[] = [
  'uTitle', 'uGenderName', 'uCountryName', 'uProfessionName', 'uSpecialtyName', 'uConditionName', 'uTimezoneName', 'uCreationDate',
];

export const PROFILE_FIELD_BY_NAME: ReadonlyMap<string, ProfileField> = new Map(PROFILE_FIELDS.map((f) => [f.name, f]));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD string naming a day that exists (no 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Checks one given (non-null) value and returns it as stored; reference ids are checked later, in one query each. */
export function normaliseProfileValue(field: ProfileField, value: unknown): unknown {
  const { kind, name } = field;
  switch (kind.type) {
    case 'text':
      if (typeof value !== 'string') throw invalidParameter(name);
      if (value.length > kind.max) throw fieldTooLong(name, kind.max);
      return value;
    case 'email':
      if (typeof value !== 'string') throw invalidParameter(name);
      if (value.length > kind.max) throw fieldTooLong(name, kind.max);
      if (!EMAIL.test(value)) throw invalidParameter(name, `${name} must be an e-mail address.`);
      return value;
    case 'country': {
      const code = normaliseCountryCode(value);
      if (code === null || code === 'invalid' || !countryName(code)) throw invalidParameter(name, `${name} must be an ISO 3166-1 alpha-2 country code.`);
      return code;
    }
    case 'timezone':
      if (typeof value !== 'string' || !isValidTimezone(value)) throw invalidParameter(name, `${name} must be an IANA time zone id.`);
      return value;
    case 'yn':
      if (value !== 'Y' && value !== 'N') throw invalidParameter(name, `${name} must be Y or N.`);
      return value;
    case 'date': {
      if (typeof value !== 'string' || !isCalendarDate(value)) throw invalidParameter(name, `${name} must be a date in the form YYYY-MM-DD.`);
      if (value > new Date().toISOString().slice(0, 10)) throw invalidParameter(name, `${name} cannot be in the future.`);
      return value;
    }
    case 'bool':
      if (typeof value !== 'boolean') throw invalidParameter(name);
      return value;
    case 'ref':
      if (kind.table === 'gender') {
        if (typeof value !== 'string' || value.length !== 1) throw invalidParameter(name, `${name} must be a single-letter gender code.`);
        return value.toUpperCase();
      }
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalidParameter(name, `${name} must be a positive id.`);
      return value;
  }
}
