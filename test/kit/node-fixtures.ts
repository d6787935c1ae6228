// Records for the global-id tests that the demo tenant has for no user but the one who needs them:
// a support group's QR code whose team holds given users, and sent and scheduled notifications of
// a company a given user manages the notifications of.
import crypto from 'node:crypto';
import type { TestApp } from './app';
import { createCompany, createTeam, grantCompanyRole } from './factories';
import { DEMO } from './demo';

/** A QR code of a new team of the company, its members these users (the row createSupportGroup writes, without a product); its id. */
export async function createQrCode(t: TestApp, companyId: number, memberIds: number[]): Promise<number> {
  const team = await createTeam(t.orm, companyId, memberIds);
  const [blob] = await t.sql('select blob_sha256 from smart_file order by smart_file_id limit 1');
  const joinCode = crypto.randomBytes(32).toString('base64url');
  const [qr] = await t.sql(
    `insert into qr_code (company_id, team_id, qr_code_name, join_code, join_url, image_sha256, image_bytes, image_md5)
     values (?, ?, ?, ?, ?, ?, 1, ?) returning qr_code_id`,
    [companyId, team.teamId, `QR ${joinCode.slice(0, 6)}`, joinCode, `https://join.example/${joinCode}`, blob.blob_sha256, '0'.repeat(32)],
  );
  return qr.qr_code_id;
}

/**
 * A new company whose notifications the user manages (ADMIN), with a copy of the demo's ad hoc GT
 * notification and of its processed scheduled one: the ids of the sent and the scheduled record.
 */
export async function createManagedNotifications(
  t: TestApp,
  userId: number,
): Promise<{ companyId: number; sentId: number; scheduleId: number }> {
  const company = await createCompany(t.orm);
  await grantCompanyRole(t.orm, userId, company.companyId, 'ADMIN');
  const copy = (table: string, key: string, id: number) =>
    t.sql(
      `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(s)
         || jsonb_build_object('${key}', (select max(${key}) + 1 from ${table}), 'company_id', ?::int))).*
       from ${table} s where ${key} = ? returning ${key}`,
      [company.companyId, id],
    );
  const [schedule] = await copy('scheduled_notification', 'notification_schedule_id', DEMO.scheduleId);
  const [sent] = await copy('sent_notification', 'notification_id', DEMO.sentIds.welcome);
  return { companyId: company.companyId, sentId: sent.notification_id, scheduleId: schedule.notification_schedule_id };
}
