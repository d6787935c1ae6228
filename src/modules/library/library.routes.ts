import { intParam, type RestRequest, type RouteDef } from '../../rest/route';
import { ServiceError } from '../../graphql/errors';
import { smartFileContent } from './download.service';

const str = { type: 'string' };
const int = { type: 'integer' };
const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type as string, 'null'] });
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const arrayOf = (items: Record<string, unknown>) => ({ type: 'array', items });
const yn = { type: 'string', enum: ['Y', 'N'] };

/** Every field of the entry, in the specification's order: REST bodies carry them all. */
const ENTRY_FIELDS = `
  smartLibId smartEntryId smartEntryStatus smartEntryType smartEntryName smartEntryDesc
  smartEntryDownloadOrig smartEntryDownloadPdf notifyUserOfExternalUrl
  smartEntryCreated smartEntryModified smartEntryMetadataVersion smartEntryFileVersion
  smartFiles { smartEntryId smartFileId smartFileType smartFileName smartFileBytes smartFileMd5 smartFileCreated smartFileModified }
  smartEntryCategories { smartCategoryId smartCategoryName }
  smartEntryUrlLink smartEntryAuthors
  smartEntryURLs { smartEntryUrlId smartEntryUrlName smartEntryUrlValue }
  smartEntryTags { smartTagId smartTagName }
  smartEntryFolders { smartFolderId smartFolderName }
  smartEntryFilters { smartFilterId smartFilterName }`;

const ENTRY_SCHEMA = object({
  smartLibId: int, smartEntryId: int, smartEntryStatus: str, smartEntryType: str, smartEntryName: str, smartEntryDesc: nullable(str),
  smartEntryDownloadOrig: yn, smartEntryDownloadPdf: yn, notifyUserOfExternalUrl: nullable(str),
  smartEntryCreated: { type: 'integer', description: 'Epoch milliseconds.' }, smartEntryModified: { type: 'integer', description: 'Epoch milliseconds.' },
  smartEntryMetadataVersion: int, smartEntryFileVersion: int,
  smartFiles: arrayOf(object({
    smartEntryId: int, smartFileId: int, smartFileType: { type: 'string', enum: ['OUF', 'THMB'] }, smartFileName: str,
    smartFileBytes: int, smartFileMd5: str, smartFileCreated: int, smartFileModified: int,
  })),
  smartEntryCategories: arrayOf(object({ smartCategoryId: int, smartCategoryName: str })),
  smartEntryUrlLink: nullable(str), smartEntryAuthors: nullable(str),
  smartEntryURLs: arrayOf(object({ smartEntryUrlId: int, smartEntryUrlName: nullable(str), smartEntryUrlValue: str })),
  smartEntryTags: arrayOf(object({ smartTagId: int, smartTagName: str })),
  smartEntryFolders: arrayOf(object({ smartFolderId: int, smartFolderName: str })),
  smartEntryFilters: arrayOf(object({ smartFilterId: int, smartFilterName: str })),
});

const ENTRY_REQUEST_SCHEMA = object({
  smartLibId: int,
  smartEntryType: { type: 'string', enum: ['URL', 'IMG', 'PDF', 'DOC', 'VID', 'AUD'] },
  smartEntryName: { type: 'string', maxLength: 255 },
  smartEntryDesc: { type: 'string', maxLength: 2000 },
  smartEntryDownloadOrig: yn,
  smartEntryDownloadPdf: yn,
  smartFiles: { type: 'array', maxItems: 0 },
  smartEntryCategories: arrayOf(object({ smartCategoryId: int, smartCategoryName: str }, [])),
  smartEntryUrlLink: { type: 'string', format: 'uri', maxLength: 2048 },
  smartEntryAuthors: { type: 'string', maxLength: 500 },
  sendNotification: { type: 'boolean' },
  smartEntryURLs: { ...arrayOf(object({ smartEntryUrlName: str, smartEntryUrlValue: str }, ['smartEntryUrlValue'])), maxItems: 10 },
  smartEntryTags: { ...arrayOf(object({ smartTagName: str })), maxItems: 20 },
  smartEntryFolders: { ...arrayOf(object({ smartFolderId: int, smartFolderName: str }, [])), maxItems: 20 },
  smartEntryFilters: { ...arrayOf(object({ smartFilterName: str })), maxItems: 20 },
  smartFileInfo: object({ originalFilename: str, tempFilename: str, tempImageName: str }, []),
}, ['smartLibId', 'smartEntryType', 'smartEntryName']);

const ITEM_FIELDS: Record<string, string[]> = {
  smartFiles: ['smartFileId', 'smartFileType', 'smartFileName'],
  smartEntryCategories: ['smartCategoryId', 'smartCategoryName'],
  smartEntryURLs: ['smartEntryUrlName', 'smartEntryUrlValue'],
  smartEntryTags: ['smartTagName'],
  smartEntryFolders: ['smartFolderId', 'smartFolderName'],
  smartEntryFilters: ['smartFilterName'],
};
const INFO_FIELDS = ['originalFilename', 'tempFilename', 'tempImageName'];
const ENTRY_INPUT_FIELDS = [
  'smartLibId', 'smartEntryType', 'smartEntryName', 'smartEntryDesc', 'smartEntryDownloadOrig', 'smartEntryDownloadPdf', 'smartEntryUrlLink',
  'smartEntryAuthors', 'sendNotification', 'smartFileInfo', ...Object.keys(ITEM_FIELDS),
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request's known fields only: clients may echo response-only fields (ids, timestamps), which are ignored. */
function pick(value: unknown, keys: string[]): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(keys.filter((k) => value[k] !== undefined).map((k) => [k, value[k]]));
}

function entryInput(body: unknown): unknown {
  const input = pick(body, ENTRY_INPUT_FIELDS);
  if (!isObject(input)) return input;
  for (const [field, keys] of Object.entries(ITEM_FIELDS)) {
    if (Array.isArray(input[field])) input[field] = (input[field] as unknown[]).map((item) => pick(item, keys));
  }
  input.smartFileInfo = pick(input.smartFileInfo, INFO_FIELDS);
  return input;
}

// Endpoint 2 answers InvalidParameterException (no WS prefix) for a malformed request, which
// GraphQL's own variable checks would name WSInvalidParameterException: checked here first.
const ingestionInvalid = (field: string, message: string) => new ServiceError('InvalidParameterException', message, { field });

function ingestionId(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 2_147_483_647) throw ingestionInvalid(field, `${field} must be a positive integer.`);
  return n;
}

function ingestionVariables(req: RestRequest): Record<string, unknown> {
  const body = req.body;
  if (!isObject(body)) throw ingestionInvalid('body', 'The body must be a JSON object.');
  if (typeof body.aiIngestionError !== 'string') throw ingestionInvalid('aiIngestionError', 'aiIngestionError is required.');
  for (const field of ['smartlibId', 'cId']) if (typeof body[field] !== 'number') throw ingestionInvalid(field, `${field} must be a positive integer.`);
  return {
    smartEntryId: ingestionId(req.params.smartEntryId, 'smartEntryId'),
    smartlibId: ingestionId(body.smartlibId, 'smartlibId'),
    cId: ingestionId(body.cId, 'cId'),
    aiIngestionError: body.aiIngestionError,
  };
}

const UPLOAD_BODY = object({ file: { type: 'string', format: 'binary', description: 'The file part.' } });
const UPLOAD_ERRORS = [
  'WSInvalidParameterException', 'WSInsufficientPrivilegesException', 'WSUnsupportedTypeException', 'WSMaxFileUploadSizeException',
  'WSAuthorisationServiceException', 'WSSmartLibraryServiceException',
];

export const libraryRoutes: RouteDef[] = [
  {
    operation: 'uploadSmartFile',
    method: 'POST',
    path: '/rest/smartlib/upload/file',
    credential: 'user',
    multipart: { files: ['file'], maxFileSize: (config) => config.uploadMaxBytes },
    document: `mutation uploadSmartFile($file: Upload!) { uploadSmartFile(file: $file) { originalFilename tempFilename bytes md5 } }`,
    variables: (req) => ({ file: req.body.file }),
    result: (data) => data.uploadSmartFile,
    openapi: {
      summary: 'Upload a file for a later createSmartEntry (multipart, part "file").',
      description: 'The content streams into shared storage; its type comes from its magic bytes (UPLOAD_ALLOWED_TYPES), its size is at most UPLOAD_MAX_BYTES. tempFilename is valid for 24 hours on any instance. Library publishers only.',
      tags: ['Smart library'],
      requestBody: UPLOAD_BODY,
      response: object({ originalFilename: str, tempFilename: str, bytes: int, md5: str }),
      errors: UPLOAD_ERRORS,
    },
  },
  {
    operation: 'uploadTileImage',
    method: 'POST',
    path: '/rest/smartlib/upload/tile',
    credential: 'user',
    multipart: { files: ['file'], maxFileSize: (config) => config.tileMaxBytes },
    document: `mutation uploadTileImage($file: Upload!) { uploadTileImage(file: $file) { tempImageName } }`,
    variables: (req) => ({ file: req.body.file }),
    result: (data) => data.uploadTileImage,
    openapi: {
      summary: 'Upload a tile image for a later createSmartEntry (multipart, part "file").',
      description: 'PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES. tempImageName is valid for 24 hours on any instance. Library publishers only.',
      tags: ['Smart library'],
      requestBody: UPLOAD_BODY,
      response: object({ tempImageName: str }),
      errors: UPLOAD_ERRORS,
    },
  },
  {
    operation: 'createSmartEntry',
    method: 'POST',
    path: '/rest/smartlib/smartentry',
    credential: 'user',
    document: `mutation createSmartEntry($input: CreateSmartEntryInput!) { createSmartEntry(input: $input) { ${ENTRY_FIELDS} } }`,
    variables: (req) => ({ input: entryInput(req.body) }),
    result: (data) => data.createSmartEntry,
    openapi: {
      summary: 'Create a file or URL entry in a library the caller publishes to (6).',
      description: 'Tags are created when unknown; folders (by id or name), filters and categories that do not exist are left out. A URL entry comes back with an OUF file (an Internet shortcut) and a THMB tile; a file entry with its OUF file and a THMB tile made from the tile image or the uploaded image.',
      tags: ['Smart library'],
      requestBody: ENTRY_REQUEST_SCHEMA,
      response: ENTRY_SCHEMA,
      errors: [
        'WSInvalidParameterException', 'WSFieldLengthException', 'WSSmartLibNotFoundException', 'WSInsufficientPrivilegesException',
        'WSUnsupportedTypeException', 'WSDuplicateSmartEntryException', 'WSDuplicateSmartFileException', 'WSLimitExceededException',
        // The first service exception is what a credential store that does not answer becomes.
        'WSAuthorisationServiceException', 'WSCacheServiceException', 'WSSmartLibraryServiceException',
      ],
    },
  },
  {
    operation: 'updateSmartEntryAIIngestionFailure',
    method: 'PUT',
    path: '/rest/smartlib/smartentry/:smartEntryId/ai-ingestion-failure',
    credential: 'system',
    document: `mutation updateSmartEntryAIIngestionFailure($smartEntryId: Int!, $smartlibId: Int!, $cId: Int!, $aiIngestionError: String!) {
      updateSmartEntryAIIngestionFailure(smartEntryId: $smartEntryId, smartlibId: $smartlibId, cId: $cId, aiIngestionError: $aiIngestionError)
    }`,
    variables: ingestionVariables,
    result: () => undefined,
    openapi: {
      summary: 'Record a failure of the AI ingestion process on an entry (2).',
      description: 'Stores aiIngestionError (at most 100000 characters) and adds one to aiIngestionFailures atomically. x-api-key system token with the ingestion scope.',
      tags: ['Smart library'],
      parameters: [{ name: 'smartEntryId', in: 'path', description: 'Id of the entry.', schema: int }],
      requestBody: object({ smartlibId: int, cId: int, aiIngestionError: { type: 'string', maxLength: 100000 } }),
      errors: ['InvalidParameterException', 'SmartEntryNotFoundException', 'SmartLibraryServiceException', 'InsufficientPrivilegesException'],
    },
  },
  {
    operation: 'downloadSmartFile',
    method: 'GET',
    path: '/rest/smartlib/files/:smartFileId/content',
    credential: 'user',
    document: `query downloadSmartFile($smartFileId: Int!) { smartFile(smartFileId: $smartFileId) { smartFileId smartFileName smartFileBytes smartFileMd5 mimeType } }`,
    variables: (req) => ({ smartFileId: intParam(req.params.smartFileId) }),
    result: (data) => data.smartFile,
    respond: async (ctx, data, deps) => {
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
    },
    openapi: {
      summary: 'Download the bytes of a smart file.',
      description: 'Tiles for every reader of the library; originals for publishers and, when smartEntryDownloadOrig is Y, every reader.',
      tags: ['Smart library'],
      parameters: [{ name: 'smartFileId', in: 'path', description: 'Id of the file.', schema: int }],
      response: { type: 'string', format: 'binary' },
      responseContentType: 'application/octet-stream',
      errors: ['WSInvalidParameterException', 'WSRecordNotFoundException', 'WSInsufficientPrivilegesException', 'WSAuthorisationServiceException', 'WSSmartLibraryServiceException'],
    },
  },
];
