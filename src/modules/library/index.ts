// The library module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// The smart library: libraries, entries with their files, URLs and taxonomy, uploads, thumbnails, downloads and ingestion.
import { defineModule } from '../../core/module';
import { NODE_KEY, nodeFromReference } from '../../graphql/node';
import { SmartLibrary, SmartLibraryPublisher, SmartEntry } from './library.entity';
import { SmartFile, SmartEntryUrl } from './entry-content.entity';
import { SmartUpload } from './upload.entity';
import * as taxonomy from './taxonomy.entity';
import { LibraryResolver, IngestionResolver } from './library.resolver';
import { SmartLibraryFieldsResolver } from './smart-library.fields';
import { SmartEntryFieldsResolver } from './smart-entry.fields';
import { SmartFileFieldsResolver } from './smart-file.fields';
import { CompanyLibrariesResolver } from './company-library.fields';
import { UserLibrariesResolver } from './user-profile-library.fields';
import { resolveSmartEntryReference, resolveSmartLibraryReference } from './library.reference';
import { createLibraryLoaders } from './library.loaders';
import { smartFileNode } from './smart-file.node';
import { libraryRoutes } from './library.routes';
import { uploadPurge } from './upload.purge';

export const library = defineModule({
  name: 'library',
  entities: [
    SmartLibrary,
    SmartLibraryPublisher,
    SmartEntry,
    SmartFile,
    SmartEntryUrl,
    SmartUpload,
    // Tags, folders, filters and categories, and their links to entries: every class of the file.
    ...Object.values(taxonomy),
  ],
  resolvers: [
    LibraryResolver,
    IngestionResolver,
    SmartLibraryFieldsResolver,
    SmartEntryFieldsResolver,
    SmartFileFieldsResolver,
    CompanyLibrariesResolver,
    UserLibrariesResolver,
  ],
  references: {
    SmartEntry: resolveSmartEntryReference,
    SmartLibrary: resolveSmartLibraryReference,
  },
  nodes: {
    SmartEntry: nodeFromReference('smartEntryId', NODE_KEY.int, resolveSmartEntryReference),
    SmartLibrary: nodeFromReference('smartLibId', NODE_KEY.int, resolveSmartLibraryReference),
    SmartFile: smartFileNode,
  },
  loaders: createLibraryLoaders,
  tag: 'Smart library',
  routes: libraryRoutes,
  seeders: () => import('./library.seeder.js').then((m) => [m.LibrarySeeder]),
  queues: [uploadPurge],
  rateLimited: ['uploadSmartFile', 'uploadTileImage'],
  blobReferences: [
    { table: 'smart_upload', column: 'blob_sha256' },
    { table: 'smart_file', column: 'blob_sha256' },
  ],
});

export { SmartLibrary } from './library.entity';
export { TILE_TYPES } from './library.limits';
export { createSmartLibrary, grantPublisher } from './library.service';
export { assertReadableImage } from './thumbnail';
export { cleanFilename } from './upload.service';
