// Turns an AddressInput, whose fields already passed their own rules (address.inputs.ts), into
// the columns to write, with the rules that need more than one field's value (docs/api/user-profile.md,
// "Addresses"): typeCode required on create, uuid equal to the path's,
// postcode and postCode both accepted, codes stored upper case, stateCode and countryCode from
// the reference lists, the state of the country. No database access: a malformed request is
// refused the same way whatever the state of the data.
import { invalidParameter } from '../../core/errors';
import { parseUuid } from '../../core/uuid';
import { countryName, listCountries, listStates, stateName } from '../reference-data';
import { ADDRESS_TEXT_FIELDS, ADDRESS_TYPES, type AddressField } from './address.entity';
import { COUNTRY_CODE_RULE, STATE_CODE_RULE, UUID_RULE, type AddressInput } from './address.inputs';

export type AddressPatch = Partial<Record<AddressField, string | null>>;

/** A uuid of the path (or of a list of them), under the rule of the body's uuid; answered lower case. */
export const parseAddressUuid = (value: unknown, field: string): string => parseUuid(value, field, UUID_RULE);

const TYPE_CODES = Object.keys(ADDRESS_TYPES);
const typeCodesText = `${TYPE_CODES.slice(0, -1).join(', ')} or ${TYPE_CODES.at(-1)}`;

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
 * The fields the input sets (present keys only: omitted keeps, null or '' erases).
 * `create` requires typeCode; `update` requires uuid equal to the path's (already lower case).
 */
export function toAddressPatch(input: AddressInput, mode: 'create' | 'update', pathUuid?: string): AddressPatch {
  const has = (k: keyof AddressInput) => input[k] !== undefined;
  const value = (k: keyof AddressInput) => input[k] || null;
  const patch: AddressPatch = {};

  if (mode === 'update') {
    if (!input.uuid?.trim()) throw invalidParameter('uuid', 'uuid is required.');
    if (input.uuid.toLowerCase() !== pathUuid) throw invalidParameter('uuid', 'uuid must be the uuid of the path.');
  }

  if (has('typeCode') || mode === 'create') {
    if (!input.typeCode?.trim()) throw invalidParameter('typeCode', `typeCode is required: ${typeCodesText}.`);
    patch.typeCode = input.typeCode;
  }

  // Both spellings may come (a Java client serialises a bean with both): a null one beside a valued
  // one is absent; two values must agree; null alone clears the field.
  const valued = (k: 'postcode' | 'postCode') => input[k] !== undefined && input[k] !== null;
  if (valued('postcode') && valued('postCode') && input.postcode !== input.postCode) {
    throw invalidParameter('postcode', 'postcode and postCode differ; give one of them.');
  }
  for (const field of ADDRESS_TEXT_FIELDS) {
    if (field === 'postcode') {
      const spelling = valued('postcode')
        ? 'postcode'
        : valued('postCode')
          ? 'postCode'
          : has('postcode')
            ? 'postcode'
            : has('postCode')
              ? 'postCode'
              : null;
      if (spelling) patch.postcode = value(spelling);
    } else if (has(field)) patch[field] = value(field);
  }

  if (has('stateCode')) patch.stateCode = value('stateCode')?.toUpperCase() ?? null;
  if (has('countryCode')) {
    const code = value('countryCode')?.toUpperCase() ?? null;
    if (code !== null && !countryName(code)) throw invalidParameter('countryCode', `countryCode must be ${COUNTRY_CODE_RULE.format}.`);
    patch.countryCode = code;
  }
  if (patch.stateCode) {
    if (patch.countryCode) assertStateInCountry(patch);
    else if (!isKnownStateCode(patch.stateCode)) throw invalidParameter('stateCode', `stateCode must be ${STATE_CODE_RULE.format}.`);
  }
  return patch;
}
