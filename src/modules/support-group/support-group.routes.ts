import { Upload, type FileUpload } from 'graphql-upload-minimal';
import { isMissingPart } from '../../rest/multipart';
import { intParam, type RouteDef } from '../../rest/route';
import { ServiceError } from '../../graphql/errors';
import { qrCodeImage } from './support-group.service';

const MAX_ASSETS = 10;
const numbers = Array.from({ length: MAX_ASSETS }, (_, i) => i + 1);
export const SUPPORT_GROUP_FILE_PARTS = ['teamImageFile', ...numbers.flatMap((n) => [`assetImageFile${n}`, `assetVersionFile${n}`])];
const TEXT_FIELDS = [
  'supportGroupPrefix', 'supportGroupName', 'countryCode', 'stateCode', 'teamAdminUserEmails', 'directoryType', 'directoryOrder',
  'directoryFieldIds', 'autoPopulateFromProfile', 'directoryConsents',
];
const ASSET_TEXT = { Name: 'name', Type: 'type', Description: 'description', InternalId: 'internalId' } as const;
// Any number, so that assetName11 reaches the service and is refused there, naming itself.
const ASSET_TEXT_FIELD = /^asset(Name|Type|Description|InternalId)([1-9]\d{0,8}|0)$/;

type PendingUpload = Upload & { resolve(file: FileUpload | null): void; reject(error: unknown): void };

/**
 * A REST form's file parts are optional: the multipart layer rejects the Upload of a part that
 * never came, which here means "absent" (null), whereas the GraphQL multipart request spec
 * treats a mapped but missing file as an error.
 */
function optionalPart(value: unknown): unknown {
  if (!(value instanceof Upload)) return value;
  const part = new Upload() as PendingUpload;
  value.promise.then(
    (file) => part.resolve(file),
    (err: unknown) => (isMissingPart(err) ? part.resolve(null) : part.reject(err)),
  );
  return part;
}

/** The flat form (assetName1, assetImageFile1, ...) as the mutation's input; values are moved, not checked. */
function formInput(body: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { companyId: intParam(body.companyId as string | undefined) };
  for (const f of TEXT_FIELDS) input[f] = body[f];
  input.teamImageFile = optionalPart(body.teamImageFile);
  const assets = new Map<number, Record<string, unknown>>();
  const asset = (n: number) => assets.get(n) ?? assets.set(n, { index: n }).get(n)!;
  for (const [key, value] of Object.entries(body)) {
    const m = ASSET_TEXT_FIELD.exec(key);
    if (m) asset(Number(m[2]))[ASSET_TEXT[m[1] as keyof typeof ASSET_TEXT]] = value;
  }
  for (const n of numbers) {
    for (const [part, prop] of [[`assetImageFile${n}`, 'imageFile'], [`assetVersionFile${n}`, 'versionFile']]) {
      if (body[part] !== undefined) asset(n)[prop] = optionalPart(body[part]);
    }
  }
  input.assets = [...assets.values()].sort((a, b) => (a.index as number) - (b.index as number));
  return input;
}

const str = { type: 'string' };
const int = { type: 'integer' };
const binary = (description: string) => ({ type: 'string', format: 'binary', description });

const FORM_SCHEMA = {
  type: 'object',
  properties: {
    companyId: { ...int, description: 'The company; the caller administers it and the API key is one of its keys.' },
    supportGroupPrefix: { type: 'string', maxLength: 50, description: 'Prefix name.' },
    supportGroupName: { type: 'string', maxLength: 150, description: 'Display name.' },
    countryCode: { type: 'string', maxLength: 2, description: 'ISO 3166-1 alpha-2, added to the prefix.' },
    stateCode: { type: 'string', maxLength: 6, description: 'ISO 3166-2 subdivision of countryCode (e.g. NSW), added to the prefix.' },
    teamAdminUserEmails: { type: 'string', description: 'Comma-separated e-mail addresses (at most 50) of users with an accepted connection to the company.' },
    directoryType: { type: 'string', enum: ['UNRESTRICTED', 'PARTIALLY_RESTRICTED', 'FULLY_RESTRICTED'] },
    directoryOrder: { type: 'string', enum: ['FL', 'LF'] },
    directoryFieldIds: { type: 'string', description: 'Comma-separated field definition ids; first and last name (1, 2) are added.' },
    autoPopulateFromProfile: { type: 'string', enum: ['true', 'false'] },
    directoryConsents: { type: 'string', description: 'JSON array of {consentType: "DS", name, desc, optionalDesc?, required: boolean}, at most 20.' },
    teamImageFile: binary('Team logo: PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES.'),
    ...Object.fromEntries(numbers.flatMap((n) => [
      [`assetName${n}`, { type: 'string', maxLength: 255 }],
      [`assetType${n}`, { type: 'string', enum: ['html', 'smartlib', 'smartdir'] }],
      [`assetDescription${n}`, { type: 'string', maxLength: 2000 }],
      [`assetInternalId${n}`, { type: 'string', maxLength: 100 }],
      [`assetImageFile${n}`, binary('PNG, JPEG, GIF or WebP, at most UPLOAD_TILE_MAX_BYTES.')],
      [`assetVersionFile${n}`, binary('A type of UPLOAD_ALLOWED_TYPES (html assets also HTML or ZIP), at most UPLOAD_MAX_BYTES.')],
    ])),
  },
  required: ['companyId', 'supportGroupPrefix', 'supportGroupName', 'teamAdminUserEmails', 'directoryType', 'directoryOrder', 'directoryFieldIds', 'directoryConsents'],
};

const RESULT_SCHEMA = {
  type: 'object',
  properties: {
    companyId: int, productId: int, productName: str, teamId: int, teamName: str, qrCodeId: int, qrCodeName: str,
    teamAdminUserEmails: { type: 'array', items: str },
    supportGroupAssetsCreated: { type: 'array', items: { type: 'object', properties: { assetId: int, assetName: str, assetType: str }, required: ['assetId', 'assetName', 'assetType'] } },
    smartLibId: int, directoryUUID: { type: 'string', format: 'uuid' },
  },
  required: ['companyId', 'productId', 'productName', 'teamId', 'teamName', 'qrCodeId', 'qrCodeName', 'teamAdminUserEmails', 'supportGroupAssetsCreated', 'smartLibId', 'directoryUUID'],
};

export const supportGroupRoutes: RouteDef[] = [
  {
    operation: 'createSupportGroup',
    method: 'POST',
    path: '/rest/company/support-group',
    credential: 'userAndCompanyKey',
    multipart: { files: SUPPORT_GROUP_FILE_PARTS, maxFileSize: (config) => Math.max(config.uploadMaxBytes, config.tileMaxBytes) },
    document: `mutation createSupportGroup($input: CreateSupportGroupInput!) { createSupportGroup(input: $input) {
      companyId productId productName teamId teamName qrCodeId qrCodeName teamAdminUserEmails
      supportGroupAssetsCreated { assetId assetName assetType } smartLibId directoryUUID
    } }`,
    variables: (req) => ({ input: formInput(req.body ?? {}) }),
    result: (data) => data.createSupportGroup,
    openapi: {
      summary: 'Create a support group: product, team, QR code, smart library, smart directory, team admins and assets (15).',
      description:
        'multipart/form-data, text parts before file parts. x-service-authtoken of an administrator of companyId and x-service-company-api-key of that ' +
        'company. One transaction: any failure leaves nothing stored. Names: prefix = supportGroupPrefix[-countryCode[-stateCode]]; product and team ' +
        '"<prefix> <supportGroupName>", QR code "... QR Code", library "... Library", directory "... Directory". The response adds smartLibId and ' +
        'directoryUUID to the specification\'s fields.',
      tags: ['Company administration'],
      requestBody: FORM_SCHEMA,
      response: RESULT_SCHEMA,
      errors: [
        'WSInvalidParameterException', 'WSFieldLengthException', 'WSLimitExceededException', 'WSInsufficientPrivilegesException',
        'WSUnsupportedTypeException', 'WSMaxFileUploadSizeException', 'WSCacheServiceException', 'WSUserServiceException',
      ],
    },
  },
  {
    operation: 'downloadSupportGroupQrCode',
    method: 'GET',
    path: '/rest/company/support-group/qrcodes/:qrCodeId/image',
    credential: 'user',
    document: `query downloadSupportGroupQrCode($qrCodeId: Int!) { supportGroupQrCode(qrCodeId: $qrCodeId) { qrCodeId qrCodeName imageBytes imageMd5 } }`,
    variables: (req) => ({ qrCodeId: intParam(req.params.qrCodeId) }),
    result: (data) => data.supportGroupQrCode,
    respond: async (ctx, data, deps) => {
      const qr = data.supportGroupQrCode;
      const content = await qrCodeImage(deps.em.fork(), qr.qrCodeId);
      if (!content) throw new ServiceError('WSRecordNotFoundException', 'The QR code was not found.', { field: 'qrCodeId' });
      ctx.type = 'image/png';
      ctx.length = qr.imageBytes;
      ctx.attachment(`${qr.qrCodeName}.png`, { type: 'inline' });
      ctx.set('ETag', `"${qr.imageMd5}"`);
      ctx.set('Cache-Control', 'private, no-cache');
      ctx.body = content;
    },
    openapi: {
      summary: 'Download the PNG of a support group\'s QR code.',
      description: "For administrators of the QR code's company and members of its team (others: not found). The PNG encodes the team's join URL.",
      tags: ['Company administration'],
      parameters: [{ name: 'qrCodeId', in: 'path', description: 'Id of the QR code.', schema: int }],
      response: { type: 'string', format: 'binary' },
      responseContentType: 'image/png',
      errors: ['WSInvalidParameterException', 'WSRecordNotFoundException', 'WSCacheServiceException', 'WSUserServiceException'],
    },
  },
];
