// The support group form, checked field by field in the specification's table order before
// anything is read from the database or stored. Every error names the form field at fault
// (assets by their REST names: assetName3, assetType3, ...).
import { ServiceError, fieldTooLong, invalidParameter } from '../../graphql/errors';
import { countryName, stateName } from '../reference-data/iso';
import { DIRECTORY_ORDERS, DIRECTORY_TYPES, type DirectoryOrder, type DirectoryType } from '../directory/directory.entity';
import type { DirectoryConsentSpec } from '../directory/directory.service';
import { ASSET_TYPES, type AssetType } from './support-group.entity';
import type { CreateSupportGroupInput, SupportGroupAssetInput, UploadValue } from './support-group.inputs';

export const SUPPORT_GROUP_LIMITS = {
  prefix: 50,
  name: 150,
  adminEmails: 50,
  email: 255,
  fieldIds: 100,
  consents: 20,
  consentName: 255,
  consentDesc: 4000,
  assets: 10,
  assetName: 255,
  assetDescription: 2000,
  assetInternalId: 100,
} as const;

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
const chars = (s: string) => [...s].length;

interface TextRule {
  max: number;
  required?: boolean;
  multiline?: boolean;
}

/** Trimmed text; empty counts as absent. */
function text(value: unknown, field: string, rule: TextRule): string | null {
  if (value !== undefined && value !== null && typeof value !== 'string') throw invalidParameter(field, `${field} must be text.`);
  // Browsers send form text with CRLF line breaks; stored text uses LF.
  const v = (value ?? '').replace(/\r\n?/g, '\n').trim();
  if (!v) {
    if (rule.required) throw invalidParameter(field, `${field} is required.`);
    return null;
  }
  if ((rule.multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(v)) throw invalidParameter(field, `${field} contains control characters.`);
  if (chars(v) > rule.max) throw fieldTooLong(field, rule.max);
  return v;
}

/** Items of a comma-separated list, trimmed; empty items (a trailing comma) are left out. */
const listItems = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

function location(input: CreateSupportGroupInput): { countryCode: string | null; stateCode: string | null } {
  const country = text(input.countryCode, 'countryCode', { max: 2 });
  const state = text(input.stateCode, 'stateCode', { max: 6 });
  const countryCode = country?.toUpperCase() ?? null;
  if (countryCode && !countryName(countryCode)) throw invalidParameter('countryCode', 'countryCode must be an ISO 3166-1 alpha-2 code from the countries list.');
  if (!state) return { countryCode, stateCode: null };
  if (!countryCode) throw invalidParameter('stateCode', 'stateCode needs the countryCode it belongs to.');
  const stateCode = state.toUpperCase();
  if (!stateName(countryCode, stateCode)) throw invalidParameter('stateCode', `stateCode must be a subdivision of ${countryCode} from the states list.`);
  return { countryCode, stateCode };
}

/** The naming rule of the README: one prefix, one base name, a suffix per kind of record. */
export function supportGroupNames(supportGroupPrefix: string, supportGroupName: string, countryCode: string | null, stateCode: string | null): SupportGroupNames {
  const prefix = [supportGroupPrefix, countryCode, stateCode].filter(Boolean).join('-');
  const base = `${prefix} ${supportGroupName}`;
  return { prefix, product: base, team: base, qrCode: `${base} QR Code`, library: `${base} Library`, directory: `${base} Directory` };
}

function adminEmails(value: string): string[] {
  const field = 'teamAdminUserEmails';
  // Addresses compare case-insensitively (as users' e-mails are unique); the first spelling is kept.
  const seen = new Map<string, string>();
  for (const email of listItems(value)) {
    if (chars(email) > SUPPORT_GROUP_LIMITS.email) throw fieldTooLong(field, SUPPORT_GROUP_LIMITS.email);
    if (!EMAIL.test(email)) throw invalidParameter(field, `"${email}" is not an e-mail address.`);
    if (!seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  if (!seen.size) throw invalidParameter(field, `${field} is required.`);
  if (seen.size > SUPPORT_GROUP_LIMITS.adminEmails) {
    throw new ServiceError('WSLimitExceededException', `At most ${SUPPORT_GROUP_LIMITS.adminEmails} team admins.`, { field });
  }
  return [...seen.values()];
}

function oneOf<T extends string>(value: string, field: string, allowed: readonly T[]): T {
  const v = value.toUpperCase();
  if (!(allowed as readonly string[]).includes(v)) throw invalidParameter(field, `${field} must be one of ${allowed.join(', ')}.`);
  return v as T;
}

function fieldIds(value: string): number[] {
  const field = 'directoryFieldIds';
  const ids = new Set<number>();
  for (const item of listItems(value)) {
    if (!/^\d{1,9}$/.test(item)) throw invalidParameter(field, `"${item}" is not a field definition id.`);
    ids.add(Number(item));
  }
  if (!ids.size) throw invalidParameter(field, `${field} is required.`);
  if (ids.size > SUPPORT_GROUP_LIMITS.fieldIds) throw new ServiceError('WSLimitExceededException', `At most ${SUPPORT_GROUP_LIMITS.fieldIds} field ids.`, { field });
  return [...ids];
}

function booleanText(value: unknown, field: string): boolean {
  const v = text(value, field, { max: 5 })?.toLowerCase() ?? null;
  if (v === null || v === 'false') return false;
  if (v === 'true') return true;
  throw invalidParameter(field, `${field} must be true or false.`);
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
  if (parsed.length > SUPPORT_GROUP_LIMITS.consents) throw new ServiceError('WSLimitExceededException', `At most ${SUPPORT_GROUP_LIMITS.consents} directory consents.`, { field });
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
      if (chars(v.trim()) > max) throw new ServiceError('WSFieldLengthException', `${at}.${key} must be at most ${max} characters.`, { field });
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
    [item.name, 'assetName'], [item.type, 'assetType'], [item.description, 'assetDescription'], [item.internalId, 'assetInternalId'],
    [item.imageFile, 'assetImageFile'], [item.versionFile, 'assetVersionFile'],
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
      throw invalidParameter(firstPart(item, index), `Assets are numbered 1 to ${SUPPORT_GROUP_LIMITS.assets}; ${firstPart(item, index)} is out of range.`);
    }
    if (numbers.has(index)) throw invalidParameter(firstPart(item, index), `Asset ${index} is given twice.`);
    numbers.add(index);
    const name = text(item.name, `assetName${index}`, { max: SUPPORT_GROUP_LIMITS.assetName });
    const type = text(item.type, `assetType${index}`, { max: 1000 });
    const description = text(item.description, `assetDescription${index}`, { max: SUPPORT_GROUP_LIMITS.assetDescription, multiline: true });
    const internalId = text(item.internalId, `assetInternalId${index}`, { max: SUPPORT_GROUP_LIMITS.assetInternalId });
    if (name === null && type === null && description === null && internalId === null) {
      if (present(item.imageFile) || present(item.versionFile)) fileOnly.push({ index, imageFile: item.imageFile, versionFile: item.versionFile });
      return;
    }
    if (name === null) throw invalidParameter(`assetName${index}`, `assetName${index} is required: an asset needs at least a name and a type.`);
    if (type === null) throw invalidParameter(`assetType${index}`, `assetType${index} is required: an asset needs at least a name and a type.`);
    const assetType = type.toLowerCase() as AssetType;
    if (!ASSET_TYPES.includes(assetType)) throw invalidParameter(`assetType${index}`, `assetType${index} must be one of ${ASSET_TYPES.join(', ')}.`);
    if (internalId !== null) {
      const other = internalIds.get(internalId);
      if (other !== undefined) throw invalidParameter(`assetInternalId${index}`, `assetInternalId${index} repeats assetInternalId${other}.`);
      internalIds.set(internalId, index);
    }
    planned.push({ index, name, type: assetType, description, internalId, imageFile: item.imageFile, versionFile: item.versionFile });
  });
  planned.sort((a, b) => a.index - b.index);
  return { assets: planned, fileOnlyAssets: fileOnly };
}

/** Checks the whole form (no database access) and returns what to create. */
export function parseSupportGroupForm(input: CreateSupportGroupInput): SupportGroupPlan {
  if (!Number.isInteger(input.companyId) || input.companyId < 1) throw invalidParameter('companyId', 'companyId must be a positive integer.');
  const supportGroupPrefix = text(input.supportGroupPrefix, 'supportGroupPrefix', { max: SUPPORT_GROUP_LIMITS.prefix, required: true })!;
  const supportGroupName = text(input.supportGroupName, 'supportGroupName', { max: SUPPORT_GROUP_LIMITS.name, required: true })!;
  const { countryCode, stateCode } = location(input);
  const emails = adminEmails(text(input.teamAdminUserEmails, 'teamAdminUserEmails', { max: 100_000, required: true })!);
  const directoryType = oneOf(text(input.directoryType, 'directoryType', { max: 1000, required: true })!, 'directoryType', DIRECTORY_TYPES);
  const directoryOrder = oneOf(text(input.directoryOrder, 'directoryOrder', { max: 1000, required: true })!, 'directoryOrder', DIRECTORY_ORDERS);
  const ids = fieldIds(text(input.directoryFieldIds, 'directoryFieldIds', { max: 100_000, required: true })!);
  const autoPopulateFromProfile = booleanText(input.autoPopulateFromProfile, 'autoPopulateFromProfile');
  const directoryConsents = consents(text(input.directoryConsents, 'directoryConsents', { max: 1_000_000, required: true, multiline: true })!);
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
