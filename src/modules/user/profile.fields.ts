// The writable fields of the profile, as data: the spec's name and the User property it is stored
// in, derived from the update's input and the User type (a field of both is writable). The diff,
// fieldsToNull and the change hooks read this one table, so a field added to the type and the input
// is handled everywhere. Each field's own rules (lengths, codes, forms) are on UpdateUserProfileInput;
// what is left here is what a value's form cannot say: how it is stored (codes upper case) and the
// checks that need a list, the clock or the database (a country or time zone that exists, a real
// day not in the future, an id of a reference table).
import type { User } from './user.entity';
import { invalidParameter } from '../../core/errors';
import { countryName, isValidTimezone } from '../reference-data';
import { fieldsOf } from '../../graphql/graph-fields';
import { COUNTRY_CODE_RULE, DATE_RULE, TIMEZONE_RULE, UpdateUserProfileInput } from './profile.inputs';
import { UserProfile } from './profile.types';

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

/** What a field's value must be beyond its form, and how it is stored, by the spec's name: where a field departs from a plain one. */
const DEPARTURES: Readonly<Record<string, Partial<Pick<ProfileField, 'upperCase' | 'check' | 'ref'>>>> = {
  uTitleId: { ref: 'title' },
  uGenderCode: { ref: 'gender', upperCase: true },
  uCountryCode: { check: 'country', upperCase: true },
  uDateOfBirth: { check: 'past date' },
  uProfessionId: { ref: 'profession' },
  uSpecialtyId: { ref: 'specialty' },
  uConditionId: { ref: 'condition' },
  uTimezoneId: { check: 'timezone' },
};

/**
 * The writable fields, in the input's order: each field of UpdateUserProfileInput that the User type
 * declares (profile.types.ts), stored in the property that field reads, nullable as it is, but the
 * id and the read-only ones. A field added to the type and the input is written without being named here.
 */
export const PROFILE_FIELDS: readonly ProfileField[] = (() => {
  const profile = new Map(
    fieldsOf(UserProfile)
      .filter((f) => f.own)
      .map((f) => [f.name, f]),
  );
  return fieldsOf(UpdateUserProfileInput).flatMap(({ name }) => {
    const field = profile.get(name);
    if (!field || name === 'uId' || READ_ONLY_PROFILE_FIELDS.includes(name)) return [];
    return [{ name, prop: field.property as keyof User & string, nullable: field.nullable, ...DEPARTURES[name] }];
  });
})();

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
