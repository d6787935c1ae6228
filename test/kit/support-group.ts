// createSupportGroup's form: a valid one with unique names, as the REST multipart body (text
// parts first, as the route expects) or the GraphQL mutation, and the tables it writes.
import type { FilePart, FormParts } from './http';
import { NORTHWIND } from './demo';
import { suffix } from './factories';

/** A valid form with unique names; text overrides (undefined removes a field), then file parts. */
export function supportGroupForm(text: Record<string, string | undefined> = {}, files: Record<string, FilePart> = {}): FormParts {
  return {
    companyId: String(NORTHWIND),
    supportGroupPrefix: `HF${suffix()}`,
    supportGroupName: 'Heart Failure Support',
    teamAdminUserEmails: 'olivia@demo.example',
    directoryType: 'UNRESTRICTED',
    directoryOrder: 'FL',
    directoryFieldIds: '3,9',
    directoryConsents: JSON.stringify([
      { consentType: 'DS', name: 'Directory listing', desc: 'List me in the support group directory.', required: true },
    ]),
    ...text,
    ...files,
  };
}

export const SUPPORT_GROUP_PATH = '/rest/company/support-group';

export const CREATE_SUPPORT_GROUP = `mutation($input: CreateSupportGroupInput!) { createSupportGroup(input: $input) {
  companyId productId productName teamId teamName qrCodeId qrCodeName teamAdminUserEmails
  supportGroupAssetsCreated { assetId assetName assetType } smartLibId directoryUUID } }`;

/** The tables createSupportGroup writes, for t.tableCounts. */
export const SUPPORT_GROUP_TABLES = [
  'product',
  'product_asset',
  'product_asset_version',
  'qr_code',
  'team_image',
  'team',
  'team_member',
  'company_role',
  'smart_library',
  'smart_library_publisher',
  'smart_directory',
  'smart_directory_field',
  'consent_definition',
  'stored_blob',
  'stored_blob_chunk',
];

/**
 * The REST answer of createSupportGroup with the new team's library and directory beside it, read
 * from the rows linked to the team (the specification's answer does not carry them; GraphQL's does).
 */
export async function withTeamLibraryAndDirectory<T extends { teamId: number }>(
  t: { sql(text: string, params?: unknown[]): Promise<any[]> },
  created: T,
): Promise<T & { smartLibId: number; directoryUUID: string }> {
  const [library] = await t.sql('select smart_lib_id from smart_library where team_id = ?', [created.teamId]);
  const [directory] = await t.sql('select directory_uuid from smart_directory where team_id = ?', [created.teamId]);
  if (!library || !directory) throw new Error(`team ${created.teamId} has no library or no directory`);
  return { ...created, smartLibId: library.smart_lib_id, directoryUUID: directory.directory_uuid };
}
