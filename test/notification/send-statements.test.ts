// sendNotification writes set-wise (issue 18): the recipients are read in one statement and their
// inbox rows inserted in one, so a notification to thirty people takes the statements of one to
// one person, whatever the kind of audience (a team, every team of the company, an event's invitees).
import { createCompany, createEvent, createTeam, createUser, grantCompanyRole, invite, useTestApp, type Client } from '../kit';

const t = useTestApp();

/** A company whose pusher sends, and `count` fresh users, each with an e-mail address. */
async function audience(count: number): Promise<{ companyId: number; pusher: Client; userIds: number[] }> {
  const company = await createCompany(t.orm);
  const pusher = await t.newUser();
  await grantCompanyRole(t.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
  const userIds: number[] = [];
  for (let i = 0; i < count; i++) userIds.push((await createUser(t.orm)).uId);
  return { companyId: company.companyId, pusher, userIds };
}

/** Statements of one send, after an unmeasured request has put the caller's token in the token cache. */
async function measuredSend(pusher: Client, body: Record<string, unknown>): Promise<number> {
  await pusher.rest('GET', '/rest/user/addresses');
  let res: any;
  const statements = await t.countStatements(async () => (res = await pusher.rest('POST', '/rest/notification/send', { body })));
  expect(res.status).toBe(200);
  return statements;
}

/** The inbox owners of the newest sent notification of a company (the REST body does not carry its id). */
async function inboxOfLatest(companyId: number): Promise<number[]> {
  const rows = await t.sql(
    `select i.user_id from notification_inbox i where i.notification_id = (select max(notification_id) from sent_notification where company_id = ?)
      order by i.user_id`,
    [companyId],
  );
  return rows.map((r: { user_id: number }) => r.user_id);
}

async function sendTo(kind: 'GT' | 'JN' | 'GE', count: number, email: boolean) {
  const a = await audience(count);
  let target: Record<string, unknown>;
  if (kind === 'GE') {
    const event = await createEvent(t.orm, a.companyId);
    for (const uId of a.userIds) await invite(t.orm, event.eId, uId);
    target = { broadcastType: 'GE', eventUUID: event.eventUUID };
  } else {
    const team = await createTeam(t.orm, a.companyId, a.userIds);
    target =
      kind === 'GT' ? { broadcastType: 'GT', valueIds: [String(team.teamId)] } : { broadcastType: 'JN', scheduleJobName: 'stock-status' };
  }
  const mail = email ? { emailTemplate: 'news', emailSubject: 'News for {{firstName}}' } : {};
  const statements = await measuredSend(a.pusher, { ...target, ...mail, companyId: a.companyId, message: `To ${count} people.` });
  expect(await inboxOfLatest(a.companyId)).toEqual(a.userIds);
  return statements;
}

describe('sendNotification statements', () => {
  // The caller's user row and roles, the team or event check (none for JN), the recipients, the sent
  // record, the inbox rows and the two notificationDelivered handlers (the live announcement and
  // the push job); the transaction's begin and commit are not counted.
  it.each([
    ['a team (GT)', 'GT', 8],
    ['every team of the company (JN)', 'JN', 7],
    ['the invitees of an event (GE)', 'GE', 8],
  ] as const)('when sent to %s of 30, then it takes the statements of a send to 1', async (_name, kind, expected) => {
    const one = await sendTo(kind, 1, false);
    const thirty = await sendTo(kind, 30, false);
    expect({ one, thirty }).toEqual({ one: expected, thirty: expected });
  });

  it('when an e-mail goes to 30 recipients, then it takes the statements of an e-mail to 1 (two more: the outbox rows and the e-mail job)', async () => {
    const one = await sendTo('GT', 1, true);
    const thirty = await sendTo('GT', 30, true);
    expect({ one, thirty }).toEqual({ one: 10, thirty: 10 });
  });

  it('when a team has more members than MikroORM inserts in one batch (300), then their inbox rows are still one statement', async () => {
    expect(await sendTo('GT', 301, false)).toBe(8);
  }, 60_000);
});
