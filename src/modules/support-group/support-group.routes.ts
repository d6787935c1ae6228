import { UPLOAD_STAGING } from '../storage';
import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { SupportGroup } from './support-group.types';
import { sendQrCode } from './support-group.download';
import { SUPPORT_GROUP_LIMITS } from './support-group.limits';
import { ASSET_TYPES } from './support-group.entity';

const MAX_ASSETS = SUPPORT_GROUP_LIMITS.assets;
const numbers = Array.from({ length: MAX_ASSETS }, (_, i) => i + 1);
export const SUPPORT_GROUP_FILE_PARTS = ['teamImageFile', ...numbers.flatMap((n) => [`assetImageFile${n}`, `assetVersionFile${n}`])];

/** The specification's result: the new library and directory (smartLibId, directoryUUID) are GraphQL's. */
const SUPPORT_GROUP_BODY = new Map([[SupportGroup, { omit: ['smartLibId', 'directoryUUID'] }]]);

export const supportGroupRoutes: DeclaredRoute[] = [
  route({
    at: 'POST /rest/company/support-group',
    credential: 'userAndCompanyKey',
    multipart: {
      files: SUPPORT_GROUP_FILE_PARTS,
      staging: UPLOAD_STAGING,
      maxFileSize: (config) => Math.max(config.uploadMaxBytes, config.tileMaxBytes),
      // The asset parts' bounds, which support-group.form.ts checks (naming the numbered part).
      maxLength: {
        assetName: SUPPORT_GROUP_LIMITS.assetName,
        assetType: Math.max(...ASSET_TYPES.map((type) => type.length)),
        assetDescription: SUPPORT_GROUP_LIMITS.assetDescription,
        assetInternalId: SUPPORT_GROUP_LIMITS.assetInternalId,
      },
    },
    document: doc`mutation createSupportGroup($input: CreateSupportGroupInput!) { createSupportGroup(input: $input) { ${body(SupportGroup, SUPPORT_GROUP_BODY)} } }`,
    // The form numbers each asset's parts (assetName3, assetImageFile3, ...): they fill input.assets.
    form: {
      list: 'assets',
      index: 'index',
      max: MAX_ASSETS,
      parts: {
        assetName: 'name',
        assetType: 'type',
        assetDescription: 'description',
        assetInternalId: 'internalId',
        assetImageFile: 'imageFile',
        assetVersionFile: 'versionFile',
      },
    },
    description:
      'multipart/form-data, parts in any order. One transaction: any failure leaves nothing stored. Names: prefix = supportGroupPrefix[-countryCode[-stateCode]]; product and team ' +
      '"<prefix> <supportGroupName>", QR code "... QR Code", library "... Library", directory "... Directory". The new library and directory ' +
      '(smartLibId, directoryUUID) are answered by the createSupportGroup mutation on /graphql.',
    errors: [
      'WSInvalidParameterException',
      'WSFieldLengthException',
      'WSLimitExceededException',
      'WSInsufficientPrivilegesException',
      'WSUnsupportedTypeException',
      'WSMaxFileUploadSizeException',
      'WSCacheServiceException',
      'WSUserServiceException',
    ],
  }),
  route({
    at: 'GET /rest/company/support-group/qrcodes/:qrCodeId/image',
    credential: 'user',
    document: doc`query downloadSupportGroupQrCode($qrCodeId: Int!) { supportGroupQrCode(qrCodeId: $qrCodeId) { qrCodeId qrCodeName imageBytes imageMd5 } }`,
    respond: sendQrCode,
    responseContentType: 'image/png',
    description:
      "Anyone else is answered not found (WSRecordNotFoundException), as for an unknown id. The PNG encodes the team's join URL.",
    errors: ['WSInvalidParameterException', 'WSRecordNotFoundException', 'WSCacheServiceException', 'WSUserServiceException'],
  }),
];
