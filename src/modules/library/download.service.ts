// The bytes of a smart file, streamed from shared storage (after smartFile authorised the caller).
import type { Readable } from 'node:stream';
import type Koa from 'koa';
import type { EntityManager } from '@mikro-orm/core';
import type { AppDeps } from '../../context';
import { ServiceError } from '../../graphql/errors';
import { blobStream } from '../storage';
import { SmartFile } from './entry-content.entity';

export async function smartFileContent(em: EntityManager, smartFileId: number): Promise<Readable | null> {
  const file = await em.findOne(SmartFile, { smartFileId }, { fields: ['blob'] });
  return file ? blobStream(em, file.blob.sha256) : null;
}

/** The REST download: the file's bytes with its type, name and digest (the route's document authorised the caller). */
export async function sendSmartFile(
  ctx: Koa.Context,
  data: { smartFile: { smartFileId: number; smartFileName: string; smartFileBytes: number; smartFileMd5: string; mimeType: string } },
  deps: AppDeps,
): Promise<void> {
  const file = data.smartFile;
  const content = await smartFileContent(deps.em.fork(), file.smartFileId);
  if (!content) throw new ServiceError('WSRecordNotFoundException', 'The file was not found.', { field: 'smartFileId' });
  ctx.type = file.mimeType;
  ctx.length = file.smartFileBytes;
  ctx.attachment(file.smartFileName);
  ctx.set('ETag', `"${file.smartFileMd5}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = content;
}
