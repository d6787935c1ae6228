// A list operation sends as many SQL statements for many rows as for one (issue 10): nested
// data is batched, never fetched row by row. List operations tested elsewhere: recommended
// entities and criteria (test/discovery), events (test/event), library pages (test/library),
// company connections (test/company), directory listing (test/directory), assessment forms
// (test/reference-data). These are the rest, e-consents included.
import crypto from 'node:crypto';
import { createCompany, createContact, createContactAddress, createDirectory, grantCompanyRole, useTestApp, type Client } from '../kit';

const t = useTestApp();

/** Statements and body of one request, after one unmeasured request warmed the caches (token, reference data). */
async function measured(path: string, who: Client): Promise<{ statements: number; body: any }> {
  await who.rest('GET', path);
  let res: any;
  const statements = await t.countStatements(async () => (res = await who.rest('GET', path)));
  expect(res.status).toBe(200);
  return { statements, body: res.body };
}

it('getUserAddresses: three addresses take the statements one does', async () => {
  const one = await t.newUser();
  const three = await t.newUser();
  const insert = (uId: number, type: string) =>
    t.sql(
      `insert into user_address (uuid, type_code, name, street, city, country_code, user_id) values ('${crypto.randomUUID()}', '${type}', 'Place ${type}', '1 Street', 'Sydney', 'AU', ${uId})`,
    );
  await insert(one.uId, 'W');
  for (const type of ['W', 'P', 'O']) await insert(three.uId, type);

  const a = await measured('/rest/user/addresses', one);
  const b = await measured('/rest/user/addresses', three);
  expect(a.body).toHaveLength(1);
  expect(b.body).toHaveLength(3);
  expect(b.statements).toBe(a.statements);
  // The caller's user row and the addresses; the token comes from the token cache.
  expect(a.statements).toBe(2);
});

it('getAddressesForDirectoryContact: a contact with three addresses takes the statements of one with one', async () => {
  const one = await t.newUser();
  const three = await t.newUser();
  const directory = await createDirectory(t.orm, { members: [one.uId, three.uId] });
  const path = `/rest/smartdirectory/${directory.uuid}/contactRecord/addresses`;
  const a1 = await createContact(t.orm, directory.uuid, one.uId);
  await createContactAddress(t.orm, a1.contactId, { typeCode: 'W' });
  const a3 = await createContact(t.orm, directory.uuid, three.uId);
  for (const typeCode of ['W', 'P', 'O'] as const) await createContactAddress(t.orm, a3.contactId, { typeCode });

  const a = await measured(path, one);
  const b = await measured(path, three);
  expect(a.body).toHaveLength(1);
  expect(b.body).toHaveLength(3);
  expect(b.statements).toBe(a.statements);
  // The caller's user row, the whole directory chain in one statement, the addresses.
  expect(a.statements).toBe(3);
});

describe('sent notification lists', () => {
  /** A company whose administrator reads its lists, with `sent` sent and `scheduled` sent-scheduled notifications. */
  async function companyWith(count: number): Promise<{ companyId: number; admin: Client }> {
    const company = await createCompany(t.orm);
    const admin = await t.newUser();
    await grantCompanyRole(t.orm, admin.uId, company.companyId, 'ADMIN');
    await t.sql(`insert into sent_notification (type, company_id, message, successful, total_notifications_sent, team_ids, notification_created, notification_modified,
        notification_created_by, notification_modified_by)
      select 'GT', ${company.companyId}, 'Notice ' || i, true, 1, '{1}', now() - i * interval '1 minute', now() - i * interval '1 minute', '1', '1'
      from generate_series(1, ${count}) i`);
    await t.sql(`insert into scheduled_notification (company_id, broadcast_type, key_company_id, schedule_timezone_id, schedule_local_date_time, schedule_due_at, message,
        value_ids, total_notifications_sent, notification_log, status, schedule_created, schedule_modified, schedule_created_by, schedule_modified_by)
      select ${company.companyId}, 'GT', ${company.companyId}, 'Australia/Sydney', now() - i * interval '1 hour', now() - i * interval '1 hour', 'Scheduled ' || i,
        '{1}', 1, 'Success', 'SENT', now() - i * interval '1 day', now() - i * interval '1 day', '1', '1'
      from generate_series(1, ${count}) i`);
    return { companyId: company.companyId, admin };
  }

  it.each([
    ['getSentNotifications', '/rest/notification/sent'],
    ['getSentScheduledNotifications', '/rest/notification/scheduled/sent'],
  ])('%s: a full page of 50 takes the statements of a page of one', async (_operation, base) => {
    const one = await companyWith(1);
    const many = await companyWith(50);
    const path = (companyId: number) => `${base}?version=1&broadcastType=GT&companyId=${companyId}`;
    const a = await measured(path(one.companyId), one.admin);
    const b = await measured(path(many.companyId), many.admin);
    expect(a.body).toHaveLength(1);
    expect(b.body).toHaveLength(50);
    expect(b.statements).toBe(a.statements);
    // The caller's user row and the page, whose statement checks the caller's roles itself.
    expect(a.statements).toBe(2);
  });

  it('an empty page takes one statement more: the roles, to tell an empty list from a caller who may not read it', async () => {
    const none = await companyWith(0);
    const { statements, body } = await measured(
      `/rest/notification/sent?version=1&broadcastType=GT&companyId=${none.companyId}`,
      none.admin,
    );
    expect(body).toEqual([]);
    expect(statements).toBe(3);
  });
});

it('getUserConnections: twelve connections take the statements of one', async () => {
  const one = await t.newUser();
  const twelve = await t.newUser();
  const companies = [];
  for (let i = 0; i < 12; i++) companies.push((await createCompany(t.orm)).companyId);
  const connect = (uId: number, companyId: number) =>
    t.sql(
      `insert into company_connection (user_id, company_id, status, requested_at, accepted_at) values (${uId}, ${companyId}, 'accepted', now(), now())`,
    );
  await connect(one.uId, companies[0]);
  for (const companyId of companies) await connect(twelve.uId, companyId);

  const a = await measured('/rest/user/connections', one);
  const b = await measured('/rest/user/connections', twelve);
  expect(a.body).toHaveLength(1);
  expect(b.body).toHaveLength(12);
  expect(b.statements).toBe(a.statements);
});

it('getEConsents: a company with four consents takes the statements of one with one', async () => {
  const u = await t.newUser();
  const oneCompany = await createCompany(t.orm);
  const fourCompany = await createCompany(t.orm);
  const insert = (companyId: number, i: number) =>
    t.sql(
      `insert into consent_definition (consent_uuid, consent_type_code, company_id, name, consent_value, consent_required, sort_order) values ('${crypto.randomUUID()}', 'C', ${companyId}, 'Consent ${i}', 'I agree (${i}).', ${i % 2 === 0}, ${i})`,
    );
  await insert(oneCompany.companyId, 1);
  for (const i of [1, 2, 3, 4]) await insert(fourCompany.companyId, i);

  const a = await measured(`/rest/user/econsents?type=C&companyId=${oneCompany.companyId}`, u);
  const b = await measured(`/rest/user/econsents?type=C&companyId=${fourCompany.companyId}`, u);
  expect(a.body).toHaveLength(1);
  expect(b.body).toHaveLength(4);
  expect(b.statements).toBe(a.statements);
});
