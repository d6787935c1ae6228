// Turns an AddressInput into the columns to write, with the spec's bounds and DESIGN.md's rules:
// postcode and postCode both accepted, codes stored upper case, stateCode/countryCode from the
// reference lists. Pure checks: they run before any database access, so a malformed request
// is refused the same way whatever the state of the data.
import { fieldTooLong, invalidParameter } from '../../graphql/errors';
import { countryName, listCountries, listStates, normaliseCountryCode, stateName } from '../reference-data/iso';
import { ADDRESS_LIMITS, ADDRESS_TEXT_FIELDS, ADDRESS_TYPES, type AddressField, type AddressTypeCode } from './address.entity';
import type { AddressInput } from './address.inputs';

export type AddressPatch = Partial<Record<AddressField, string | null>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A uuid argument: longer than the spec's 50 is WSFieldLengthException, not a UUID is WSInvalidParameterException. Lower-cased. */
export function parseUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalidParameter(field, `${field} must be a UUID.`);
  if (value.length > ADDRESS_LIMITS.uuid) throw fieldTooLong(field, ADDRESS_LIMITS.uuid);
  if (!UUID.test(value)) throw invalidParameter(field, `${field} must be a UUID.`);
  return value.toLowerCase();
}

function text(value: string | null, field: string, max: number): string | null {
  if (value === null || value === '') return null;
  if (value.length > max) throw fieldTooLong(field, max);
  return value;
}

let knownStates: Set<string> | undefined;

/** True when some country has this subdivision code (a stateCode given without a country). */
function isKnownStateCode(code: string): boolean {
  knownStates ??= new Set(listCountries().flatMap((c) => listStates(c.countryCode).map((s) => s.stateCode)));
  return knownStates.has(code);
}

/** A stored or merged address whose state does not belong to its country is refused. */
export function assertStateInCountry(address: { stateCode?: string | null; countryCode?: string | null }): void {
  if (address.stateCode && address.countryCode && !stateName(address.countryCode, address.stateCode)) {
    throw invalidParameter('stateCode', `stateCode ${address.stateCode} is not a subdivision of ${address.countryCode}.`);
  }
}

/**
 * The fields the input sets (present keys only: omitted keeps, null erases).
 * `create` requires typeCode; `update` requires uuid equal to the path's.
 */
export function parseAddressInput(input: AddressInput, mode: 'create' | 'update', pathUuid?: string): AddressPatch {
  const has = (k: keyof AddressInput) => input[k] !== undefined;
  const patch: AddressPatch = {};

  if (mode === 'update') {
    if (input.uuid == null) throw invalidParameter('uuid', 'uuid is required.');
    if (parseUuid(input.uuid, 'uuid') !== pathUuid) throw invalidParameter('uuid', 'uuid must be the uuid of the path.');
  }

  if (has('typeCode') || mode === 'create') {
    const code = input.typeCode;
    if (code == null || code === '') throw invalidParameter('typeCode', 'typeCode is required: W, P or O.');
    if (code.length > ADDRESS_LIMITS.typeCode) throw fieldTooLong('typeCode', ADDRESS_LIMITS.typeCode);
    if (!(code in ADDRESS_TYPES)) throw invalidParameter('typeCode', 'typeCode must be W, P or O.');
    patch.typeCode = code as AddressTypeCode;
  }

  if (has('postcode') && has('postCode') && input.postcode !== input.postCode) {
    throw invalidParameter('postcode', 'postcode and postCode differ; give one of them.');
  }
  for (const field of ADDRESS_TEXT_FIELDS) {
    if (field === 'postcode') {
      const spelling = has('postcode') ? 'postcode' : has('postCode') ? 'postCode' : null;
      if (spelling) patch.postcode = text(input[spelling] ?? null, spelling, ADDRESS_LIMITS.postcode);
      continue;
    }
    if (has(field)) patch[field] = text(input[field] ?? null, field, ADDRESS_LIMITS[field]);
  }
  if (patch.email && !EMAIL.test(patch.email)) throw invalidParameter('email', 'email must be an e-mail address.');

  if (has('stateCode')) {
    const state = text(input.stateCode ?? null, 'stateCode', ADDRESS_LIMITS.stateCode);
    patch.stateCode = state?.toUpperCase() ?? null;
  }
  if (has('countryCode')) {
    const raw = input.countryCode ?? null;
    if (raw !== null && raw.length > ADDRESS_LIMITS.countryCode) throw fieldTooLong('countryCode', ADDRESS_LIMITS.countryCode);
    const code = normaliseCountryCode(raw);
    if (code === 'invalid' || (code !== null && !countryName(code))) throw invalidParameter('countryCode', 'countryCode must be an ISO 3166-1 alpha-2 country code.');
    patch.countryCode = code;
  }
  if (patch.stateCode) {
    if (patch.countryCode) assertStateInCountry(patch);
    else if (!isKnownStateCode(patch.stateCode)) throw invalidParameter('stateCode', 'stateCode must be an ISO 3166-2 subdivision code.');
  }
  return patch;
}
