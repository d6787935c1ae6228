// The storage module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Stored blobs: content-addressed file bytes in PostgreSQL, written and read in chunks, shared by uploads, entries and support groups.
import { defineModule } from '../../core/module';
import type { UploadStaging } from '../../rest/multipart';
import { StoredBlob, StoredBlobChunk } from './blob.entity';
import { discardStaged, stagedBlobOf, stagedFileUpload, stageStream, type StagedBlob } from './blob-store';

export const storage = defineModule({
  name: 'storage',
  entities: [StoredBlob, StoredBlobChunk],
});

/** Where a multipart route's file parts are staged as they arrive (a route's `multipart.staging`). */
export const UPLOAD_STAGING: UploadStaging<StagedBlob> = {
  // Called through, not captured: a test that replaces a step (jest.spyOn) reaches the route.
  stage: (em, source, options) => stageStream(em, source, options),
  upload: (em, file, staged) => stagedFileUpload(em, file, staged),
  discard: (em, contentIds) => discardStaged(em, contentIds),
  digestOf: (file) => stagedBlobOf(file)?.sha256,
};

export {
  adoptStaged,
  type BlobInfo,
  blobStream,
  discardStaged,
  type PurgeResult,
  purgeUnusedBlobs,
  readBlob,
  stagedBlobOf,
  stagedFileUpload,
  stageStream,
  storeBuffer,
  storeStream,
  type StoreStreamOptions,
  tooLarge,
} from './blob-store';
export { StoredBlob } from './blob.entity';
export { type DetectedType, detectType } from './content-type';
export { blobMarkedUsed } from './storage.queries';
