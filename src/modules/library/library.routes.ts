import { UPLOAD_STAGING } from '../storage';
import { route, type DeclaredRoute } from '../../rest/route';
import { JSON_CHAR_BYTES } from '../../rest/body-limit';
import { LIMITS } from './library.limits';
import { SmartEntry } from './library.entity';
import { SmartFile } from './entry-content.entity';
import { sendSmartFile } from './download.service';
import { admitUpload } from './upload.service';
import { type BodyOrder, body, doc } from '../../rest/body-selection';
import type { GraphType } from '../../graphql/graph-fields';

/**
 * Every field of the entry, in the specification's order: REST bodies carry them all. The order is
 * SmartEntry's own fields (library.entity.ts), then those smart-entry.fields.ts adds, but where
 * the specification departs from it; the ingestion process's bookkeeping is not in the body.
 */
export const ENTRY_FIELDS = body(
  SmartEntry,
  new Map<GraphType, BodyOrder>([
    [
      SmartEntry,
      {
        first: ['smartLibId'],
        after: { smartEntryCategories: ['smartEntryUrlLink', 'smartEntryAuthors'] },
        omit: ['library', 'aiIngestionFailures', 'aiIngestionError'],
      },
    ],
    [SmartFile, { first: ['smartEntryId'], omit: ['mimeType', 'downloadUrl'] }],
  ]),
);

const UPLOAD_ERRORS = [
  'WSInvalidParameterException',
  'WSInsufficientPrivilegesException',
  'WSUnsupportedTypeException',
  'WSMaxFileUploadSizeException',
  'WSAuthorisationServiceException',
  'WSSmartLibraryServiceException',
];

export const libraryRoutes: DeclaredRoute[] = [
  route({
    at: 'POST /rest/smartlib/upload/file',
    credential: 'user',
    before: admitUpload,
    multipart: { files: ['file'], staging: UPLOAD_STAGING, maxFileSize: (config) => config.uploadMaxBytes },
    document: doc`mutation uploadSmartFile($file: Upload!) { uploadSmartFile(file: $file) { originalFilename tempFilename bytes md5 } }`,
    description:
      'The content streams into shared storage; its type comes from its magic bytes (UPLOAD_ALLOWED_TYPES), its size is at most UPLOAD_MAX_BYTES. tempFilename is valid for 24 hours on any instance.',
    errors: UPLOAD_ERRORS,
  }),
  route({
    at: 'POST /rest/smartlib/upload/tile',
    credential: 'user',
    before: admitUpload,
    multipart: { files: ['file'], staging: UPLOAD_STAGING, maxFileSize: (config) => config.tileMaxBytes },
    document: doc`mutation uploadTileImage($file: Upload!) { uploadTileImage(file: $file) { tempImageName } }`,
    description: 'PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES. tempImageName is valid for 24 hours on any instance.',
    errors: UPLOAD_ERRORS,
  }),
  route({
    at: 'POST /rest/smartlib/smartentry',
    credential: 'user',
    document: doc`mutation createSmartEntry($input: CreateSmartEntryInput!) { createSmartEntry(input: $input) { ${ENTRY_FIELDS} } }`,
    description:
      'Tags are created when unknown; folders (by id or name), filters and categories that do not exist are left out. A URL entry comes back with an OUF file (an Internet shortcut) and a THMB tile; a file entry with its OUF file and a THMB tile made from the tile image or the uploaded image.',
    errors: [
      'WSInvalidParameterException',
      'WSFieldLengthException',
      'WSSmartLibNotFoundException',
      'WSInsufficientPrivilegesException',
      'WSUnsupportedTypeException',
      'WSDuplicateSmartEntryException',
      'WSDuplicateSmartFileException',
      'WSLimitExceededException',
      // The first service exception is what a credential store that does not answer becomes.
      'WSAuthorisationServiceException',
      'WSCacheServiceException',
      'WSSmartLibraryServiceException',
    ],
  }),
  route({
    at: 'PUT /rest/smartlib/smartentry/:smartEntryId/ai-ingestion-failure',
    credential: 'system',
    document: doc`mutation updateSmartEntryAIIngestionFailure($smartEntryId: Int!, $smartlibId: Int!, $cId: Int!, $aiIngestionError: String!) {
      updateSmartEntryAIIngestionFailure(smartEntryId: $smartEntryId, smartlibId: $smartlibId, cId: $cId, aiIngestionError: $aiIngestionError)
    }`,
    // Endpoint 2 names a malformed request InvalidParameterException (no WS prefix) and answers 200 without a payload.
    invalid: 'InvalidParameterException',
    // aiIngestionError's bound is an argument's, not an input type's rule: its largest body (every
    // character written as two escapes) is said here.
    bodyLimit: LIMITS.aiIngestionError * JSON_CHAR_BYTES + 64 * 1024,
    body: 'none',
    description:
      'The count goes up atomically, so concurrent reports are all counted. The system token is sent in x-api-key. 200 without a payload; ' +
      'every failure is named without the WS prefix.',
    errors: ['InvalidParameterException', 'SmartEntryNotFoundException', 'SmartLibraryServiceException', 'InsufficientPrivilegesException'],
  }),
  route({
    at: 'GET /rest/smartlib/files/:smartFileId/content',
    credential: 'user',
    document: doc`query downloadSmartFile($smartFileId: Int!) { smartFile(smartFileId: $smartFileId) { smartFileId smartFileName smartFileBytes smartFileMd5 mimeType } }`,
    respond: sendSmartFile,
    description:
      "The file's bytes, streamed, with its media type and its name as an attachment; the ETag is its MD5. An original the caller may not " +
      'download is WSInsufficientPrivilegesException; a file outside the libraries the caller reads is WSRecordNotFoundException, as an unknown id.',
    errors: [
      'WSInvalidParameterException',
      'WSRecordNotFoundException',
      'WSInsufficientPrivilegesException',
      'WSAuthorisationServiceException',
      'WSSmartLibraryServiceException',
    ],
  }),
];
