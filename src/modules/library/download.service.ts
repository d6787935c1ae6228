// The REST download of a smart file: its bytes, streamed from shared storage, with its type, name
// and digest. The route's document (Query.smartFile) read the file's row and authorised the caller
// on the request's EntityManager; the bytes are read on that EntityManager too, from the blob that
// same row names: the request's loader answers it again without a statement.
import type Koa from 'koa';
import type { Context } from '../../context';
import { blobStream } from '../storage';

/** The download route's respond(): the bytes of the file its document read and authorised. */
export async function sendSmartFile(ctx: Koa.Context, data: { smartFile: { smartFileId: number } }, request: Context): Promise<void> {
  const file = await request.loaders.smartFileDownload.load(data.smartFile.smartFileId);
  // Unreachable: the document answered this file, from this loader.
  if (!file) throw new Error(`file ${data.smartFile.smartFileId} was answered but is not in the request's loader`);
  ctx.type = file.mimeType;
  ctx.length = file.smartFileBytes;
  ctx.attachment(file.smartFileName);
  ctx.set('ETag', `"${file.smartFileMd5}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = blobStream(request.em, file.blob);
}
