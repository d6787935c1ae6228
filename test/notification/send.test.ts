import {
  CARA,
  createCompany,
  createEvent,
  createTeam,
  createUser,
  DEMO,
  grantCompanyRole,
  invite,
  NORTHWIND,
  OLIVIA,
  useTestApp,
  type Client,
} from '../kit';
import pino from 'pino';
import { startSmtp, type TestSmtp } from '../kit/smtp';
import type { QueueWorkers } from '../../src/core/queue';
import { AssetLevelPreference, NotificationInbox, SentNotification } from '../../src/modules/notification/notification.entity';
import { User } from '../../src/modules/user/user.entity';
import { sendNotification } from '../../src/modules/notification/notification.service';

let smtp: TestSmtp;
const t = useTestApp(async () => {
  // Mail to anyone at bounce.example is refused by the server, as a full mailbox would be.
  smtp = await startSmtp((address) => address.endsWith('@bounce.example'));
  return { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Northwind <news@northwind.example>', QUEUE_POLL_MS: '500' } };
});
afterAll(() => smtp.close()); // after the app has stopped (afterAll hooks run in order)
// This file's instance runs its queue workers, as `npm start` does (the test app starts none):
// e-mails and scheduled sends go out as in production.
let workers: QueueWorkers;
beforeAll(async () => {
  workers = t.app.services.queue as unknown as QueueWorkers;
  await workers.work({ orm: t.orm, config: t.config, logger: pino({ level: 'silent' }), services: t.app.services, blobReferences: [] });
});
afterAll(() => workers.stopWork());
const cara = t.as(CARA);
const olivia = t.as(OLIVIA);
const TEAM = String(DEMO.teamId);

const TABLES = ['sent_notification', 'scheduled_notification', 'notification_inbox'];
const counts = () => Promise.all(TABLES.map((table) => t.countRows(table)));
const send = (body: unknown, who: Client = cara) => who.rest('POST', '/rest/notification/send', { body });
const inboxOf = async (notificationId: number) =>
  (await t.orm.em.fork().find(NotificationInbox, { notification: notificationId }, { orderBy: { user: { uId: 'asc' } } })).map(
    (r) => r.user.uId,
  );

/** A pusher of a fresh company with one team of fresh members. */
async function tenant(memberCount = 2, memberData: Partial<User>[] = []) {
  const company = await createCompany(t.orm);
  const sender = await t.newUser();
  await grantCompanyRole(t.orm, sender.uId, company.companyId, 'PUSH_NOTIFICATION');
  const members = [];
  for (let i = 0; i < memberCount; i++) members.push(await createUser(t.orm, memberData[i] ?? {}));
  const team = await createTeam(
    t.orm,
    company.companyId,
    members.map((m) => m.uId),
  );
  return { company, sender: sender.user, members, team, auth: sender };
}

describe('sendNotification (POST /rest/notification/send), ad hoc', () => {
  it('when Cara sends to the demo team, then both members get it in their inbox and the sent record comes back', async () => {
    const before = Date.now();
    const res = await send({
      broadcastType: 'GT',
      companyId: NORTHWIND,
      valueIds: [TEAM],
      message: 'Ward meeting moved to 3 pm.',
      url: 'northwind://wall/news/42',
    });
    expect(res.status).toBe(200);
    const sent = res.body.sentNotification;
    expect(res.body).toEqual({
      scheduledNotification: null,
      sentNotification: {
        type: 'GT',
        companyId: NORTHWIND,
        eventUUID: null,
        notificationScheduleId: null,
        message: 'Ward meeting moved to 3 pm.',
        description: `Ward meeting moved to 3 pm.\nTeam ids: ${TEAM}`,
        successful: true,
        totalNotificationsSent: 2,
        teamIds: null,
        notificationCreated: sent.notificationCreated,
        notificationModified: sent.notificationCreated,
        notificationCreatedBy: String(CARA),
        notificationModifiedBy: String(CARA),
        brochureId: null,
        emailTemplate: null,
        emailSubject: null,
        emailParams: null,
      },
    });
    expect(sent.notificationCreated).toBeGreaterThanOrEqual(before);
    expect(sent.notificationCreated).toBeLessThanOrEqual(Date.now());
    const row = await t.orm.em.fork().findOneOrFail(SentNotification, {
      notificationCreated: new Date(sent.notificationCreated),
      type: 'GT',
      message: 'Ward meeting moved to 3 pm.',
    });
    expect(row).toMatchObject({ url: 'northwind://wall/news/42', notificationLog: 'Success' });
    expect(await inboxOf(row.notificationId)).toEqual([OLIVIA, CARA]);
  });

  it('when the message is longer than 255 characters, then the record keeps 255 and the whole text in description', async () => {
    const { company, team, auth } = await tenant(1);
    const message = 'x'.repeat(1000);
    const res = await send({ broadcastType: 'GT', companyId: company.companyId, valueIds: [String(team.teamId)], message }, auth);
    expect(res.status).toBe(200);
    expect(res.body.sentNotification.message).toBe('x'.repeat(255));
    expect(res.body.sentNotification.description).toBe(`${message}\nTeam ids: ${team.teamId}`);
  });

  it('when members are inactive, have notifications off, or opted out of the asset (ALP-NUN), then they get nothing', async () => {
    const { company, team, members, auth } = await tenant(4, [{}, { active: false }, { enableNotifications: false }, {}]);
    const em = t.orm.em.fork();
    em.create(AssetLevelPreference, { user: em.getReference(User, members[3].uId), brochureId: 77, code: 'ALP-NUN' });
    await em.flush();
    const res = await send(
      {
        broadcastType: 'GA',
        companyId: company.companyId,
        brochureId: 77,
        valueIds: [String(team.teamId)],
        message: 'New brochure version.',
      },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body.sentNotification).toMatchObject({ type: 'GA', brochureId: 77, totalNotificationsSent: 1, successful: true });
    const row = await t.orm.em.fork().findOneOrFail(SentNotification, { company: company.companyId, type: 'GA' });
    expect(await inboxOf(row.notificationId)).toEqual([members[0].uId]);
  });

  it('when a GE notification is sent, then the invitees who have not declined get it', async () => {
    const { company, members, auth } = await tenant(3);
    const event = await createEvent(t.orm, company.companyId);
    await invite(t.orm, event.eId, members[0].uId);
    await invite(t.orm, event.eId, members[1].uId, { inviteStatus: 'D' });
    await invite(t.orm, event.eId, members[2].uId, { inviteStatus: 'A', attendingStatus: 'Y' });
    const res = await send(
      { broadcastType: 'GE', companyId: company.companyId, eventUUID: event.eventUUID.toUpperCase(), message: 'Doors open at 5.' },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body.sentNotification).toMatchObject({
      type: 'GE',
      eventUUID: event.eventUUID,
      totalNotificationsSent: 2,
      description: 'Doors open at 5.',
    });
    const row = await t.orm.em.fork().findOneOrFail(SentNotification, { eventUUID: event.eventUUID });
    expect(await inboxOf(row.notificationId)).toEqual([members[0].uId, members[2].uId]);
  });

  it('when a JN notification is sent, then every member of every team of the company gets it once', async () => {
    const { company, members, team, auth } = await tenant(2);
    const extra = await createUser(t.orm);
    await createTeam(t.orm, company.companyId, [members[0].uId, extra.uId]);
    const res = await send(
      {
        broadcastType: 'JN',
        companyId: company.companyId,
        scheduleJobName: 'stock-status',
        valueIds: ['SKU-1'],
        message: 'Back in stock.',
      },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body.sentNotification).toMatchObject({ type: 'JN', totalNotificationsSent: 3, description: 'Back in stock.' });
    expect(team.teamId).toBeGreaterThan(0);
  });
});

describe('sendNotification message length in characters', () => {
  it('when a scheduled message is 1000 emoji (2000 UTF-16 units), then it is accepted and stored whole', async () => {
    const { company, team, auth } = await tenant(1);
    const message = '😀'.repeat(1000);
    const res = await send(
      {
        broadcastType: 'GT',
        companyId: company.companyId,
        valueIds: [String(team.teamId)],
        message,
        scheduleLocalDateTime: '2035-01-01T09:00',
        scheduleTimezoneId: 'Australia/Sydney',
      },
      auth,
    );
    expect(res.status).toBe(200);
    expect(res.body.scheduledNotification.message).toBe(message);
  });
});

describe('sendNotification e-mail through SMTP (the outbox: sent by the queue workers after the commit)', () => {
  /** The outbox rows of a notification once none is PENDING (the e-mail job has finished with them). */
  async function settled(notificationId: number) {
    const end = Date.now() + 15_000;
    for (;;) {
      const rows = await t.sql(
        'select user_id, status, error, sent_at is not null as "hasSentAt" from notification_email where notification_id = ? order by user_id',
        [notificationId],
      );
      const [record] = await t.sql('select notification_log from sent_notification where notification_id = ?', [notificationId]);
      // The log is completed after the last row leaves PENDING, in the same job: it stays Success when
      // every e-mail went, and names the failures otherwise.
      const done = rows.length > 0 && rows.every((r) => r.status !== 'PENDING');
      const logged = rows.every((r) => r.status === 'SENT')
        ? record.notification_log === 'Success'
        : record.notification_log.includes('e-mail');
      if (done && logged) return rows;
      if (Date.now() > end) throw new Error(`e-mails of notification ${notificationId} not settled: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('when an e-mail template goes with it, then the answer is the delivery, and each reachable recipient then receives the e-mail once, placeholders filled', async () => {
    const stamp = Date.now();
    const { company, team, members, auth } = await tenant(3, [
      { firstName: 'Ada', email: `ada-${stamp}@mail.example` },
      { firstName: 'Ben', email: `ben-${stamp}@mail.example` },
      { firstName: 'Cy', email: `cy-${stamp}@mail.example` },
    ]);
    const em = t.orm.em.fork();
    em.create(AssetLevelPreference, { user: em.getReference(User, members[2].uId), brochureId: 9, code: 'ALP-EUN' });
    await em.flush();
    smtp.received.length = 0;
    const res = await send(
      {
        broadcastType: 'GA',
        companyId: company.companyId,
        brochureId: 9,
        valueIds: [String(team.teamId)],
        message: 'Hello {{firstName}}, the {{clinic}} roster is out.',
        url: 'https://northwind.example/roster',
        emailTemplate: 'roster-update',
        emailSubject: '{{clinic}} roster',
        emailParams: [{ key: 'clinic', value: 'Haymarket' }],
      },
      auth,
    );
    expect(res.status).toBe(200);
    // The answer reports the delivery to the inboxes; the e-mails are jobs committed with it.
    expect(res.body.sentNotification).toMatchObject({
      successful: true,
      totalNotificationsSent: 3,
      emailTemplate: 'roster-update',
      emailSubject: '{{clinic}} roster',
      emailParams: [{ key: 'clinic', value: 'Haymarket' }],
    });
    const row = await t.orm.em.fork().findOneOrFail(SentNotification, { company: company.companyId });
    // Cy opted out of e-mails about brochure 9 (ALP-EUN) but still gets the inbox item: no outbox row for Cy.
    expect(await settled(row.notificationId)).toEqual([
      { user_id: members[0].uId, status: 'SENT', error: null, hasSentAt: true },
      { user_id: members[1].uId, status: 'SENT', error: null, hasSentAt: true },
    ]);
    const mails = [...smtp.received].sort((a, b) => a.to[0].localeCompare(b.to[0]));
    expect(mails.map((m) => m.to)).toEqual([[members[0].email], [members[1].email]]);
    const ada = mails[0].raw;
    expect(mails[0].from).toBe('news@northwind.example');
    expect(ada).toContain('Subject: Haymarket roster');
    expect(ada).toContain('Hello Ada, the Haymarket roster is out.');
    expect(ada).toContain('https://northwind.example/roster');
    expect(ada).toContain('X-Email-Template: roster-update');
    expect(ada).toContain(`Message-ID: <notification-${row.notificationId}-${members[0].uId}@pronet>`);
    expect(mails[1].raw).toContain('Hello Ben, the Haymarket roster is out.');
    const done = await t.orm.em.fork().findOneOrFail(SentNotification, { notificationId: row.notificationId });
    expect({ log: done.notificationLog, successful: done.successful }).toEqual({
      log: 'Success',
      successful: true,
    });
  });

  it('when the SMTP server refuses a recipient, then the others get theirs and the record is then completed as not fully successful', async () => {
    const stamp = Date.now();
    const { company, team, members, auth } = await tenant(2, [
      { email: `ok-${stamp}@mail.example` },
      { email: `full-${stamp}@bounce.example` },
    ]);
    smtp.received.length = 0;
    const res = await send(
      {
        broadcastType: 'GT',
        companyId: company.companyId,
        valueIds: [String(team.teamId)],
        message: 'Hi',
        emailTemplate: 't',
        emailSubject: 'S',
      },
      auth,
    );
    expect(res.status).toBe(200);
    // At response time the e-mails have not been tried: the answer is the inbox delivery's.
    expect(res.body.sentNotification).toMatchObject({ successful: true, totalNotificationsSent: 2 });
    const row = await t.orm.em.fork().findOneOrFail(SentNotification, { company: company.companyId });
    // A 550 is a refusal for good: FAILED at once, not retried.
    expect(await settled(row.notificationId)).toEqual([
      { user_id: members[0].uId, status: 'SENT', error: null, hasSentAt: true },
      { user_id: members[1].uId, status: 'FAILED', error: 'EENVELOPE 550', hasSentAt: false },
    ]);
    expect(smtp.received.map((m) => m.to)).toEqual([[members[0].email]]);
    const done = await t.orm.em.fork().findOneOrFail(SentNotification, { notificationId: row.notificationId });
    expect({ log: done.notificationLog, successful: done.successful }).toEqual({
      log: 'Partial failure: delivered to 2 users; 1 of 2 e-mails failed (EENVELOPE 550)',
      successful: false,
    });
  });
});

describe('sendNotification scheduled, on the queue workers', () => {
  it('when a notification is scheduled two seconds ahead, then the workers deliver it at its due time, within one poll (QUEUE_POLL_MS 500)', async () => {
    const { company, team, members, auth } = await tenant(1);
    const due = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000);
    const res = await send(
      {
        broadcastType: 'GT',
        companyId: company.companyId,
        valueIds: [String(team.teamId)],
        message: 'Due soon.',
        scheduleLocalDateTime: due.toISOString().slice(0, 19),
        scheduleTimezoneId: 'UTC',
      },
      auth,
    );
    expect(res.status).toBe(200);
    const id = res.body.scheduledNotification.notificationScheduleId;
    const end = Date.now() + 10_000;
    let rows: any[] = [];
    while (!rows.length && Date.now() < end) {
      rows = await t.sql(
        `select i.user_id, i.delivered_at, s.status from scheduled_notification s
           join sent_notification n on n.notification_schedule_id = s.notification_schedule_id
           join notification_inbox i on i.notification_id = n.notification_id
          where s.notification_schedule_id = ?`,
        [id],
      );
      if (!rows.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.map((r) => ({ user: r.user_id, status: r.status }))).toEqual([{ user: members[0].uId, status: 'SENT' }]);
    // Not before its time; late by at most a poll interval and the delivery itself (pg-boss polls
    // every 30 s while LISTEN/NOTIFY is on unless told otherwise, which made it up to 30 s late).
    const late = new Date(rows[0].delivered_at).getTime() - due.getTime();
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(1500);
  }, 20_000);
});

describe('sendNotification refusals leave nothing stored', () => {
  const valid = { broadcastType: 'GT', companyId: NORTHWIND, valueIds: [TEAM], message: 'Hi' };
  const cases: [string, Record<string, unknown>, number, Record<string, unknown>][] = [
    ['broadcastType unknown', { broadcastType: 'XX' }, 400, { errorCode: 'WSInvalidParameterException', field: 'broadcastType' }],
    ['message missing', { message: undefined }, 400, { errorCode: 'WSInvalidParameterException', field: 'message' }],
    [
      'message blank',
      { message: '   ' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'message', message: 'message is required.' },
    ],
    [
      'message of 1001 characters',
      { message: 'm'.repeat(1001) },
      400,
      { errorCode: 'WSFieldLengthException', field: 'message', message: 'message must be at most 1000 characters.' },
    ],
    [
      'message of 1001 emoji',
      { message: '😀'.repeat(1001) },
      400,
      { errorCode: 'WSFieldLengthException', field: 'message', message: 'message must be at most 1000 characters.' },
    ],
    [
      'a valueId of 51 characters',
      { broadcastType: 'JN', scheduleJobName: 'stock', valueIds: ['v'.repeat(51)] },
      400,
      { errorCode: 'WSFieldLengthException', field: 'valueIds' },
    ],
    ['a brochureId of 0', { brochureId: 0 }, 400, { errorCode: 'WSInvalidParameterException', field: 'brochureId' }],
    [
      'url of 1025 characters',
      { url: `https://x.example/${'u'.repeat(1007)}` },
      400,
      { errorCode: 'WSFieldLengthException', field: 'url' },
    ],
    ['url not a URL', { url: 'not a url' }, 400, { errorCode: 'WSInvalidParameterException', field: 'url' }],
    ['url with a script scheme', { url: 'javascript:alert(1)' }, 400, { errorCode: 'WSInvalidParameterException', field: 'url' }],
    ['GT without valueIds', { valueIds: [] }, 400, { errorCode: 'WSInvalidParameterException', field: 'valueIds' }],
    ['GT with a non-numeric team id', { valueIds: ['abc'] }, 400, { errorCode: 'WSInvalidParameterException', field: 'valueIds' }],
    [
      'GT with a team of another company',
      { valueIds: ['999999'] },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'valueIds', message: `999999 is not a team of company ${NORTHWIND}.` },
    ],
    [
      '51 valueIds',
      { valueIds: Array.from({ length: 51 }, (_, i) => String(i + 1)) },
      400,
      { errorCode: 'WSLimitExceededException', field: 'valueIds' },
    ],
    ['GE without eventUUID', { broadcastType: 'GE' }, 400, { errorCode: 'WSInvalidParameterException', field: 'eventUUID' }],
    [
      'GE with a malformed eventUUID',
      { broadcastType: 'GE', eventUUID: '42' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'eventUUID' },
    ],
    [
      'GE with an unknown event',
      { broadcastType: 'GE', eventUUID: '00000000-0000-4000-8000-000000000000' },
      404,
      { errorCode: 'WSEventNotFoundException' },
    ],
    ['eventUUID on GT', { eventUUID: DEMO.eventUuid }, 400, { errorCode: 'WSInvalidParameterException', field: 'eventUUID' }],
    ['GA without brochureId', { broadcastType: 'GA' }, 400, { errorCode: 'WSInvalidParameterException', field: 'brochureId' }],
    ['JN without scheduleJobName', { broadcastType: 'JN' }, 400, { errorCode: 'WSInvalidParameterException', field: 'scheduleJobName' }],
    [
      'scheduleJobName of 101 characters',
      { scheduleJobName: 'j'.repeat(101) },
      400,
      { errorCode: 'WSFieldLengthException', field: 'scheduleJobName' },
    ],
    [
      'emailTemplate of 101 characters',
      { emailTemplate: 't'.repeat(101), emailSubject: 'S' },
      400,
      { errorCode: 'WSFieldLengthException', field: 'emailTemplate' },
    ],
    [
      'emailSubject of 257 characters',
      { emailTemplate: 't', emailSubject: 's'.repeat(257) },
      400,
      { errorCode: 'WSFieldLengthException', field: 'emailSubject' },
    ],
    [
      'emailTemplate without emailSubject',
      { emailTemplate: 't' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'emailSubject' },
    ],
    [
      'emailSubject without emailTemplate',
      { emailSubject: 'S' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'emailTemplate' },
    ],
    [
      'an e-mail param key of 101 characters',
      { emailTemplate: 't', emailSubject: 'S', emailParams: [{ key: 'k'.repeat(101), value: 'v' }] },
      400,
      { errorCode: 'WSFieldLengthException', field: 'emailParams.key' },
    ],
    [
      'an e-mail param value of 2001 characters',
      { emailTemplate: 't', emailSubject: 'S', emailParams: [{ key: 'k', value: 'v'.repeat(2001) }] },
      400,
      { errorCode: 'WSFieldLengthException', field: 'emailParams.value' },
    ],
    [
      'an e-mail param key given twice',
      {
        emailTemplate: 't',
        emailSubject: 'S',
        emailParams: [
          { key: 'k', value: '1' },
          { key: 'k', value: '2' },
        ],
      },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'emailParams.key' },
    ],
    [
      'an e-mail param without value',
      { emailTemplate: 't', emailSubject: 'S', emailParams: [{ key: 'k' }] },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'emailParams' },
    ],
    [
      '51 e-mail params',
      { emailTemplate: 't', emailSubject: 'S', emailParams: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: 'v' })) },
      400,
      { errorCode: 'WSLimitExceededException', field: 'emailParams' },
    ],
    [
      'scheduleLocalDateTime without zone',
      { scheduleLocalDateTime: '2035-01-01T09:00' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleTimezoneId' },
    ],
    [
      'scheduleTimezoneId without time',
      { scheduleTimezoneId: 'Australia/Sydney' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleLocalDateTime' },
    ],
    [
      'an unknown zone',
      { scheduleLocalDateTime: '2035-01-01T09:00', scheduleTimezoneId: 'Mars/Olympus' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleTimezoneId' },
    ],
    [
      'a zone of 41 characters',
      { scheduleLocalDateTime: '2035-01-01T09:00', scheduleTimezoneId: 'Z'.repeat(41) },
      400,
      { errorCode: 'WSFieldLengthException', field: 'scheduleTimezoneId' },
    ],
    [
      'a malformed local time',
      { scheduleLocalDateTime: '01/01/2035 9am', scheduleTimezoneId: 'Australia/Sydney' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleLocalDateTime' },
    ],
    [
      'an impossible date',
      { scheduleLocalDateTime: '2035-02-30T09:00', scheduleTimezoneId: 'Australia/Sydney' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleLocalDateTime' },
    ],
    [
      'a local time with an offset',
      { scheduleLocalDateTime: '2035-01-01T09:00+10:00', scheduleTimezoneId: 'Australia/Sydney' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleLocalDateTime' },
    ],
    [
      'a time in the past',
      { scheduleLocalDateTime: '2020-01-01T09:00', scheduleTimezoneId: 'Australia/Sydney' },
      400,
      { errorCode: 'WSInvalidParameterException', field: 'scheduleLocalDateTime', message: 'scheduleLocalDateTime must be in the future.' },
    ],
    ['companyId not a number', { companyId: 'abc' }, 400, { errorCode: 'WSInvalidParameterException', field: 'companyId' }],
  ];

  it.each(cases)('when %s, then the answer names it and nothing is stored', async (_name, change, status, error) => {
    const before = await counts();
    const res = await send({ ...valid, ...change });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(error);
    expect(Object.keys(res.body).sort()).toEqual(
      Object.keys({ errorCode: 1, message: 1, ...('field' in error ? { field: 1 } : {}) }).sort(),
    );
    expect(await counts()).toEqual(before);
  });

  it('when the event is cancelled or belongs to another company, then WSEventCancelledException (410) or WSEventNotFoundException (404)', async () => {
    const before = await counts();
    const cancelled = await createEvent(t.orm, NORTHWIND, { status: 'C' });
    const other = await createEvent(t.orm, DEMO.companies.southgate);
    const gone = await send({ broadcastType: 'GE', companyId: NORTHWIND, eventUUID: cancelled.eventUUID, message: 'Hi' });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ errorCode: 'WSEventCancelledException', message: 'The event was cancelled.' });
    const foreign = await send({ broadcastType: 'GE', companyId: NORTHWIND, eventUUID: other.eventUUID, message: 'Hi' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ errorCode: 'WSEventNotFoundException', message: 'The event was not found.' });
    expect(await counts()).toEqual(before);
  });

  it('when the caller lacks the push-notification role (even as admin) or has no token, then 403 or 401 and nothing is stored', async () => {
    const before = await counts();
    const admin = await t.newUser();
    await grantCompanyRole(t.orm, admin.uId, NORTHWIND, 'ADMIN');
    for (const who of [olivia, admin]) {
      const res = await send(valid, who);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errorCode: 'WSInsufficientPrivilegesException',
        message: 'The caller lacks the push-notification role on this company.',
      });
    }
    const anonymous = await send(valid, t);
    expect(anonymous.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it("when another module sends with a plain object (not through GraphQL), then the input's rules hold for it too", async () => {
    const before = await counts();
    const plain = { ...valid, message: '😀'.repeat(1001), senderId: CARA };
    await expect(sendNotification(t.orm.em.fork(), plain, {})).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'message' },
    });
    await expect(
      sendNotification(
        t.orm.em.fork(),
        { ...plain, message: 'Hi', emailTemplate: 't', emailSubject: 'S', emailParams: [{ key: 'k'.repeat(101), value: 'v' }] },
        {},
      ),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'emailParams.key' } });
    expect(await counts()).toEqual(before);
  });

  it('when sent through GraphQL with a bad field, then the same identifier and field come back', async () => {
    const res = await cara.gql(`mutation($i: SendNotificationInput!) { sendNotification(input: $i) { sentNotification { message } } }`, {
      i: { ...valid, message: 'm'.repeat(1001) },
    });
    expect(res.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'message' });
  });
});
