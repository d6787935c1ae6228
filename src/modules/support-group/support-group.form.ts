// The support group form as what to create, checked before anything is read from the database
// or stored. Each field's own rules (required, length, codes: support-group.inputs.ts) have held
// before this runs; here are the rules that are no one field's own: the items of the comma
// lists, the JSON consents, country and state against the reference lists, control characters,
// and the numbered assets, whose errors name the form field (assetName3, assetType3, ...).
import { ServiceError, fieldTooLong, invalidParameter } from '../../core/errors';
import { charLength } from '../../core/text';
import { countryName, stateName } from '../reference-data';
import type { DirectoryOrder, DirectoryType } from '../directory';
import type { DirectoryConsentSpec } from '../directory';
import { ASSET_TYPES, type AssetType } from './support-group.entity';
import type { CreateSupportGroupInput, SupportGroupAssetInput, UploadValue } from './support-group.inputs';
import { SUPPORT_GROUP_LIMITS } from './support-group.limits';

export interface AssetPlan {
  index: number;
  name: string;
  type: AssetType;
  description: string | null;
  internalId: string | null;
  imageFile: UploadValue;
  versionFile: UploadValue;
}

/** An asset item with files but no text: ignored unless one of its files actually arrives. */
export interface FileOnlyAsset {
  index: number;
  imageFile: UploadValue;
  versionFile: UploadValue;
}

export interface SupportGroupNames {
  /** supportGroupPrefix[-countryCode[-stateCode]] */
  prefix: string;
  product: string;
  team: string;
  qrCode: string;
  library: string;
  directory: string;
}

export interface SupportGroupPlan {
  companyId: number;
  supportGroupPrefix: string;
  supportGroupName: string;
  countryCode: string | null;
  stateCode: string | null;
  names: SupportGroupNames;
  /** Distinct regardless of case, in the order given. */
  adminEmails: string[];
  directoryType: DirectoryType;
  directoryOrder: DirectoryOrder;
  fieldIds: number[];
  autoPopulateFromProfile: boolean;
  consents: DirectoryConsentSpec[];
  teamImageFile: UploadValue;
  assets: AssetPlan[];
  fileOnlyAssets: FileOnlyAsset[];
}

// C0 controls and DEL never belong in a name (and PostgreSQL refuses NUL in text).
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const EMAIL = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+$/;

/** Trimmed text; empty counts as absent; control characters (line breaks too, unless multiline) are refused. */
function text(value: string | null | undefined, field: string, multiline = false): string | null {
  // Browsers send form text with CRLF line breaks; stored text uses LF.
  const v = (value ?? '').replace(/\r\n?/g, '\n').trim();
  if (!v) return null;
  if ((multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(v)) throw invalidParameter(field, `${field} contains control characters.`);
  return v;
}

/** Text of a field its rule requires (so present here). */
const given = (value: string, field: string, multiline = false): string => text(value, field, multiline)!;

/** Text of a numbered asset field, within its bound. */
function assetText(value: string | null | undefined, field: string, max: number, multiline = false): string | null {
  const v = text(value, field, multiline);
  if (v !== null && charLength(v) > max) throw fieldTooLong(field, max);
  return v;
}

/** Items of a comma-separated list, trimmed; empty items (a trailing comma) are left out. */
const listItems = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function location(input: CreateSupportGroupInput): { countryCode: string | null; stateCode: string | null } {
  const country = text(input.countryCode, 'countryCode');
  const state = text(input.stateCode, 'stateCode');
  const countryCode = country?.toUpperCase() ?? null;
  if (countryCode && !countryName(countryCode))
    throw invalidParameter('countryCode', 'countryCode must be an ISO 3166-1 alpha-2 code from the countries list.');
  if (!state) return { countryCode, stateCode: null };
  if (!countryCode) throw invalidParameter('stateCode', 'stateCode needs the countryCode it belongs to.');
  const stateCode = state.toUpperCase();
  if (!stateName(countryCode, stateCode))
    throw invalidParameter('stateCode', `stateCode must be a subdivision of ${countryCode} from the states list.`);
  return { countryCode, stateCode };
}

/** The naming rule of docs/api/support-group.md ("Names"): one prefix, one base name, a suffix per kind of record. */
export function supportGroupNames(
  supportGroupPrefix: string,
  supportGroupName: string,
  countryCode: string | null,
  stateCode: string | null,
): SupportGroupNames {
  const prefix = [supportGroupPrefix, countryCode, stateCode].filter(Boolean).join('-');
  const base = `${prefix} ${supportGroupName}`;
  return { prefix, product: base, team: base, qrCode: `${base} QR Code`, library: `${base} Library`, directory: `${base} Directory` };
}

function adminEmails(value: string): string[] {
  const field = 'teamAdminUserEmails';
  // Addresses compare case-insensitively (as users' e-mails are unique); the first spelling is kept.
  const seen = new Map<string, string>();
  for (const email of listItems(value)) {
    if (charLength(email) > SUPPORT_GROUP_LIMITS.email) throw fieldTooLong(field, SUPPORT_GROUP_LIMITS.email);
    if (!EMAIL.test(email)) throw invalidParameter(field, `"${email}" is not an e-mail address.`);
    if (!seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  if (!seen.size) throw invalidParameter(field, `${field} is required.`);
  if (seen.size > SUPPORT_GROUP_LIMITS.adminEmails) {
    throw new ServiceError('WSLimitExceededException', `At most ${SUPPORT_GROUP_LIMITS.adminEmails} team admins.`, { field });
  }
  return [...seen.values()];
}

function fieldIds(value: string): number[] {
  const field = 'directoryFieldIds';
  const ids = new Set<number>();
  for (const item of listItems(value)) {
    if (!/^\d{1,9}$/.test(item)) throw invalidParameter(field, `"${item}" is not a field definition id.`);
    ids.add(Number(item));
  }
  if (!ids.size) throw invalidParameter(field, `${field} is required.`);
  if (ids.size > SUPPORT_GROUP_LIMITS.fieldIds)
    throw new ServiceError('WSLimitExceededException', `At most ${SUPPORT_GROUP_LIMITS.fieldIds} field ids.`, { field });
  return [...ids];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function consents(value: string): DirectoryConsentSpec[] {
  const field = 'directoryConsents';
  const bad = (message: string) => invalidParameter(field, message);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw bad(`${field} is not valid JSON.`);
  }
  if (!Array.isArray(parsed)) throw bad(`${field} must be a JSON array.`);
  if (parsed.length > SUPPORT_GROUP_LIMITS.consents)
    throw new ServiceError('WSLimitExceededException', `At most ${SUPPORT_GROUP_LIMITS.consents} directory consents.`, { field });
  return parsed.map((item, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(item)) throw bad(`${at} must be an object.`);
    if (typeof item.consentType !== 'string' || item.consentType.trim().toUpperCase() !== 'DS') throw bad(`${at}.consentType must be DS.`);
    const str = (key: string, max: number, required: boolean): string | null => {
      const v = item[key];
      if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) {
        if (required) throw bad(`${at}.${key} is required.`);
        return null;
      }
      if (typeof v !== 'string') throw bad(`${at}.${key} must be a string.`);
      if (CONTROL_EXCEPT_LINES.test(v)) throw bad(`${at}.${key} contains control characters.`);
      if (charLength(v.trim()) > max)
        throw new ServiceError('WSFieldLengthException', `${at}.${key} must be at most ${max} characters.`, { field });
      return v.trim();
    };
    const name = str('name', SUPPORT_GROUP_LIMITS.consentName, true)!;
    const desc = str('desc', SUPPORT_GROUP_LIMITS.consentDesc, true)!;
    const optionalDesc = str('optionalDesc', SUPPORT_GROUP_LIMITS.consentDesc, false);
    if (typeof item.required !== 'boolean') throw bad(`${at}.required must be true or false.`);
    return { consentType: 'DS', name, desc, optionalDesc, required: item.required };
  });
}

const present = (upload: UploadValue) => upload !== undefined && upload !== null;

/** The REST field of an item to name when its number is wrong: the first part it has. */
function firstPart(item: SupportGroupAssetInput, index: number): string {
  const parts: [unknown, string][] = [
    [item.name, 'assetName'],
    [item.type, 'assetType'],
    [item.description, 'assetDescription'],
    [item.internalId, 'assetInternalId'],
    [item.imageFile, 'assetImageFile'],
    [item.versionFile, 'assetVersionFile'],
  ];
  return `${(parts.find(([v]) => v !== undefined && v !== null) ?? parts[0])[1]}${index}`;
}

function assets(items: SupportGroupAssetInput[]): { assets: AssetPlan[]; fileOnlyAssets: FileOnlyAsset[] } {
  const planned: AssetPlan[] = [];
  const fileOnly: FileOnlyAsset[] = [];
  const numbers = new Set<number>();
  const internalIds = new Map<string, number>();
  items.forEach((item, position) => {
    const index = item.index ?? position + 1;
    if (!Number.isInteger(index) || index < 1 || index > SUPPORT_GROUP_LIMITS.assets) {
      throw invalidParameter(
        firstPart(item, index),
        `Assets are numbered 1 to ${SUPPORT_GROUP_LIMITS.assets}; ${firstPart(item, index)} is out of range.`,
      );
    }
    if (numbers.has(index)) throw invalidParameter(firstPart(item, index), `Asset ${index} is given twice.`);
    numbers.add(index);
    const name = assetText(item.name, `assetName${index}`, SUPPORT_GROUP_LIMITS.assetName);
    const type = text(item.type, `assetType${index}`);
    const description = assetText(item.description, `assetDescription${index}`, SUPPORT_GROUP_LIMITS.assetDescription, true);
    const internalId = assetText(item.internalId, `assetInternalId${index}`, SUPPORT_GROUP_LIMITS.assetInternalId);
    if (name === null && type === null && description === null && internalId === null) {
      if (present(item.imageFile) || present(item.versionFile))
        fileOnly.push({ index, imageFile: item.imageFile, versionFile: item.versionFile });
      return;
    }
    if (name === null)
      throw invalidParameter(`assetName${index}`, `assetName${index} is required: an asset needs at least a name and a type.`);
    if (type === null)
      throw invalidParameter(`assetType${index}`, `assetType${index} is required: an asset needs at least a name and a type.`);
    const assetType = type.toLowerCase() as AssetType;
    if (!ASSET_TYPES.includes(assetType))
      throw invalidParameter(`assetType${index}`, `assetType${index} must be one of ${ASSET_TYPES.join(', ')}.`);
    if (internalId !== null) {
      const other = internalIds.get(internalId);
      if (other !== undefined)
        throw invalidParameter(`assetInternalId${index}`, `assetInternalId${index} repeats assetInternalId${other}.`);
      internalIds.set(internalId, index);
    }
    planned.push({ index, name, type: assetType, description, internalId, imageFile: item.imageFile, versionFile: item.versionFile });
  });
  planned.sort((a, b) => a.index - b.index);
  return { assets: planned, fileOnlyAssets: fileOnly };
}

/** Checks the rest of the form (no database access) and returns what to create. */
export function parseSupportGroupForm(input: CreateSupportGroupInput): SupportGroupPlan {
  const supportGroupPrefix = given(input.supportGroupPrefix, 'supportGroupPrefix');
  const supportGroupName = given(input.supportGroupName, 'supportGroupName');
  const { countryCode, stateCode } = location(input);
  const emails = adminEmails(given(input.teamAdminUserEmails, 'teamAdminUserEmails'));
  // The rules allowed these codes in any case; the listed spelling is stored.
  const directoryType = given(input.directoryType, 'directoryType').toUpperCase() as DirectoryType;
  const directoryOrder = given(input.directoryOrder, 'directoryOrder').toUpperCase() as DirectoryOrder;
  const ids = fieldIds(given(input.directoryFieldIds, 'directoryFieldIds'));
  const autoPopulateFromProfile = text(input.autoPopulateFromProfile, 'autoPopulateFromProfile')?.toLowerCase() === 'true';
  const directoryConsents = consents(given(input.directoryConsents, 'directoryConsents', true));
  return {
    companyId: input.companyId,
    supportGroupPrefix,
    supportGroupName,
    countryCode,
    stateCode,
    names: supportGroupNames(supportGroupPrefix, supportGroupName, countryCode, stateCode),
    adminEmails: emails,
    directoryType,
    directoryOrder,
    fieldIds: ids,
    autoPopulateFromProfile,
    consents: directoryConsents,
    teamImageFile: input.teamImageFile,
    ...assets(input.assets ?? []),
  };
}
