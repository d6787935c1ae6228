// The bytes of a smart file, streamed from shared storage (after smartFile authorised the caller).
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/core';
import { blobStream } from '../storage/blob-store';
import { SmartFile } from './entry-content.entity';

export async function smartFileContent(em: EntityManager, smartFileId: number): Promise<Readable | null> {
  const file = await em.findOne(SmartFile, { smartFileId }, { fields: ['blob'] });
  return file ? blobStream(em, file.blob.sha256) : null;
}
