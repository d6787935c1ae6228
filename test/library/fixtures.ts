// Library test helpers: libraries with publishers, sample content, and multipart callers for
// the REST upload routes and GraphQL multipart requests.
import http from 'node:http';
import sharp from 'sharp';
import type { MikroORM } from '@mikro-orm/core';
import type { TestApp } from '../helpers/app';
import { createUser, suffix, tokenFor, userAuth } from '../factories';
import { createSmartLibrary, grantPublisher, ensureTerms } from '../../src/modules/library/library.service';
import { onePagePdf } from '../../src/modules/library/library.seeder';
import { SmartUpload } from '../../src/modules/library/upload.entity';

export { onePagePdf };

export interface Publisher {
  userId: number;
  token: string;
  headers: Record<string, string>;
  smartLibId: number;
}

/** A new library of company 1001 and a new user who publishes to it. */
export async function newPublisher(orm: MikroORM, options: { companyId?: number; maxEntries?: number } = {}): Promise<Publisher> {
  const user = await createUser(orm);
  const em = orm.em.fork();
  const library = await createSmartLibrary(em, { companyId: options.companyId ?? 1001, smartLibName: `Library ${suffix()}`, maxEntries: options.maxEntries });
  await grantPublisher(em, library.smartLibId, user.uId);
  const token = await tokenFor(orm, user.uId);
  return { userId: user.uId, token, headers: userAuth(token), smartLibId: library.smartLibId };
}

export async function addTerms(orm: MikroORM, smartLibId: number, kind: 'folder' | 'filter' | 'category' | 'tag', names: string[]) {
  return ensureTerms(orm.em.fork(), kind, smartLibId, names);
}

/** A PNG of the given size and colour (distinct colours give distinct content). */
export function png(width = 800, height = 600, colour = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

/** A PDF unique to this call (distinct MD5). */
export function uniquePdf(): Buffer {
  return onePagePdf(`Document ${suffix()}`);
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * POSTs a multipart form on a connection of its own: a pooled keep-alive connection the server
 * is just closing would reset a request whose body cannot be replayed.
 */
export async function postForm(url: string, form: FormData, headers: Record<string, string>): Promise<Reply> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const type = String(res.headers['content-type'] ?? '');
        const responseHeaders = new Headers(Object.entries(res.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
        resolve({ status: res.statusCode!, headers: responseHeaders, body: type.includes('json') && text ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** POST a multipart body with one file part named `field` (default "file"). */
export async function restUpload(t: TestApp, path: string, content: Buffer, filename: string, headers: Record<string, string>, field = 'file'): Promise<Reply> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(content)]), filename);
  return postForm(t.baseUrl + path, form, headers);
}

/** A GraphQL multipart request (the GraphQL multipart request spec) uploading one file as $file. */
export async function gqlUpload(t: TestApp, mutation: string, content: Buffer, filename: string, headers: Record<string, string>): Promise<Reply> {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: mutation, variables: { file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob([new Uint8Array(content)]), filename);
  return postForm(`${t.baseUrl}/graphql`, form, { 'apollo-require-preflight': 'true', ...headers });
}

export const UPLOAD_FILE = 'mutation($file: Upload!) { uploadSmartFile(file: $file) { originalFilename tempFilename bytes md5 mimeType expiresAt } }';
export const UPLOAD_TILE = 'mutation($file: Upload!) { uploadTileImage(file: $file) { tempImageName bytes md5 mimeType expiresAt } }';

export async function uploadFile(t: TestApp, p: Publisher, content: Buffer, filename = 'document.pdf'): Promise<string> {
  const res = await restUpload(t, '/rest/smartlib/upload/file', content, filename, p.headers);
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.tempFilename;
}

export async function uploadTile(t: TestApp, p: Publisher, content: Buffer, filename = 'tile.png'): Promise<string> {
  const res = await restUpload(t, '/rest/smartlib/upload/tile', content, filename, p.headers);
  if (res.status !== 200) throw new Error(`tile upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.tempImageName;
}

export async function uploadRow(orm: MikroORM, tempName: string): Promise<SmartUpload | null> {
  return orm.em.fork().findOne(SmartUpload, { tempName });
}

/** Row counts of the library's and storage's tables. */
export async function libraryCounts(orm: MikroORM): Promise<Record<string, number>> {
  const tables = [
    'smart_entry', 'smart_file', 'smart_entry_url', 'smart_tag', 'smart_entry_tag', 'smart_entry_folder', 'smart_entry_filter',
    'smart_entry_category', 'smart_upload', 'stored_blob', 'stored_blob_chunk',
  ];
  const conn = orm.em.fork().getConnection();
  const rows: { t: string; n: number }[] = await conn.execute(tables.map((n) => `select '${n}' as t, count(*)::int as n from "${n}"`).join(' union all '));
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}
