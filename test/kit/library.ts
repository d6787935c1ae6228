// Smart library tools: a publisher with a library of their own, and uploads through the REST
// upload routes and GraphQL multipart requests.
import type { Client, NewUser, TestApp } from './app';
import type { Reply } from './http';
import { createLibrary } from './factories';

/** A new user who publishes to a new library (of Northwind unless told). */
export type Publisher = NewUser & { smartLibId: number };

export async function newPublisher(t: TestApp, o: { companyId?: number; maxEntries?: number } = {}): Promise<Publisher> {
  const user = await t.newUser();
  return Object.assign(user, { smartLibId: await createLibrary(t.orm, { ...o, publishers: [user.uId] }) });
}

export const UPLOAD_FILE =
  'mutation($file: Upload!) { uploadSmartFile(file: $file) { originalFilename tempFilename bytes md5 mimeType expiresAt } }';
export const UPLOAD_TILE = 'mutation($file: Upload!) { uploadTileImage(file: $file) { tempImageName bytes md5 mimeType expiresAt } }';

/** The tables a library write touches, for t.tableCounts. */
export const LIBRARY_TABLES = [
  'smart_entry',
  'smart_file',
  'smart_entry_url',
  'smart_tag',
  'smart_entry_tag',
  'smart_entry_folder',
  'smart_entry_filter',
  'smart_entry_category',
  'smart_upload',
  'stored_blob',
  'stored_blob_chunk',
];

/** POSTs a multipart body with one file part named `field` (default "file"). */
export function upload(who: Client, path: string, content: Buffer, filename: string, field = 'file'): Promise<Reply> {
  return who.multipart(path, { [field]: { content, filename } });
}

/** A GraphQL multipart request uploading one file as $file. */
export function gqlUpload(who: Client, mutation: string, content: Buffer, filename: string): Promise<Reply> {
  return who.gqlMultipart(mutation, { file: null }, { file: { content, filename } });
}

async function uploaded(
  who: Client,
  path: string,
  content: Buffer,
  filename: string,
  name: 'tempFilename' | 'tempImageName',
): Promise<string> {
  const res = await upload(who, path, content, filename);
  if (res.status !== 200) throw new Error(`upload to ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[name];
}

/** Uploads a file; answers its temporary name. */
export const uploadFile = (who: Client, content: Buffer, filename = 'document.pdf') =>
  uploaded(who, '/rest/smartlib/upload/file', content, filename, 'tempFilename');

/** Uploads a tile image; answers its temporary name. */
export const uploadTile = (who: Client, content: Buffer, filename = 'tile.png') =>
  uploaded(who, '/rest/smartlib/upload/tile', content, filename, 'tempImageName');
