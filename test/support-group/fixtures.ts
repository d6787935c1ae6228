// Support group test helpers: the form as the REST multipart body (text parts first, as the
// route expects) or as a GraphQL multipart request, sample files, and the rows created.
import crypto from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { MikroORM } from '@mikro-orm/core';
import type { TestApp } from '../helpers/app';
import { suffix, tokenFor } from '../factories';
import { onePagePdf } from '../../src/modules/library/library.seeder';
import { DEMO_COMPANY_API_KEY } from '../../src/modules/company/core.seeder';

export const NORTHWIND = 1001;
export const CARA = 2003;
export const OLIVIA = 2001;
export const PAT = 2005;

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  bytes: Buffer;
}

async function reply(res: Response): Promise<Reply> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  return { status: res.status, headers: res.headers, body: (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text, bytes };
}

/** Cara (administrator of Northwind) with Northwind's active API key. */
export async function adminHeaders(orm: MikroORM, userId = CARA, apiKey = DEMO_COMPANY_API_KEY): Promise<Record<string, string>> {
  return { 'x-service-authtoken': await tokenFor(orm, userId), 'x-service-company-api-key': apiKey };
}

export interface FilePart {
  content: Buffer;
  filename: string;
}

/** A valid form with unique names; text overrides (undefined removes a field) and file parts. */
export function form(text: Record<string, string | undefined> = {}, files: Record<string, FilePart> = {}): FormData {
  const fields: Record<string, string | undefined> = {
    companyId: String(NORTHWIND),
    supportGroupPrefix: `HF${suffix()}`,
    supportGroupName: 'Heart Failure Support',
    teamAdminUserEmails: 'olivia@demo.example',
    directoryType: 'UNRESTRICTED',
    directoryOrder: 'FL',
    directoryFieldIds: '3,9',
    directoryConsents: JSON.stringify([{ consentType: 'DS', name: 'Directory listing', desc: 'List me in the support group directory.', required: true }]),
    ...text,
  };
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.append(k, v);
  for (const [k, f] of Object.entries(files)) body.append(k, new Blob([new Uint8Array(f.content)]), f.filename);
  return body;
}

export async function postForm(t: TestApp, body: FormData, headers: Record<string, string>): Promise<Reply> {
  return reply(await fetch(`${t.baseUrl}/rest/company/support-group`, { method: 'POST', body, headers }));
}

export async function get(t: TestApp, path: string, headers: Record<string, string>): Promise<Reply> {
  return reply(await fetch(t.baseUrl + path, { headers }));
}

/** A GraphQL multipart request: `files` maps variable paths (e.g. "input.teamImageFile") to files. */
export async function gqlMultipart(t: TestApp, query: string, variables: Record<string, unknown>, files: Record<string, FilePart>, headers: Record<string, string>): Promise<Reply> {
  const body = new FormData();
  body.append('operations', JSON.stringify({ query, variables }));
  body.append('map', JSON.stringify(Object.fromEntries(Object.keys(files).map((p, i) => [String(i), [`variables.${p}`]]))));
  Object.values(files).forEach((f, i) => body.append(String(i), new Blob([new Uint8Array(f.content)]), f.filename));
  return reply(await fetch(`${t.baseUrl}/graphql`, { method: 'POST', body, headers: { 'apollo-require-preflight': 'true', ...headers } }));
}

/** A PNG of its own colour (distinct content per call unless a colour is given). */
export async function png(width = 64, height = 64, colour?: string): Promise<Buffer> {
  const background = colour ?? `#${crypto.randomBytes(3).toString('hex')}`;
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

export const pdf = (label = `Version ${suffix()}`) => onePagePdf(label);

export const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
export const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

export async function rows(orm: MikroORM, sql: string, params: unknown[] = []): Promise<any[]> {
  return orm.em.fork().getConnection().execute(sql, params);
}

export const SUPPORT_GROUP_TABLES = [
  'product', 'product_asset', 'product_asset_version', 'qr_code', 'team_image', 'team', 'team_member', 'company_role',
  'smart_library', 'smart_library_publisher', 'smart_directory', 'smart_directory_field', 'consent_definition', 'stored_blob', 'stored_blob_chunk',
];

export async function counts(orm: MikroORM): Promise<Record<string, number>> {
  const result: { t: string; n: number }[] = await orm.em.fork().getConnection().execute(
    SUPPORT_GROUP_TABLES.map((n) => `select '${n}' as t, count(*)::int as n from "${n}"`).join(' union all '),
  );
  return Object.fromEntries(result.map((r) => [r.t, r.n]));
}

export const CREATE_SUPPORT_GROUP = `mutation($input: CreateSupportGroupInput!) { createSupportGroup(input: $input) {
  companyId productId productName teamId teamName qrCodeId qrCodeName teamAdminUserEmails
  supportGroupAssetsCreated { assetId assetName assetType } smartLibId directoryUUID } }`;

/** A ZIP archive holding one stored (uncompressed) file: an HTML bundle. */
export function zipOf(name: string, content: Buffer): Buffer {
  const crc = crc32(content);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}

export const htmlPage = (title = `Page ${suffix()}`) => Buffer.from(`<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`);
