import { Writable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/core';
import { CARA, DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';
import { createOrm, createLogger, deliverScheduled, jobIdOf, QUEUE_SCHEMA } from '../kit/src';
import { startSmtp, type TestSmtp } from '../kit/smtp';
import type { JobDeps } from '../../src/core/module';
import { BLOB_REFERENCES } from '../../src/modules';
import { NotificationInbox, ScheduledNotification, SentNotification } from '../../src/modules/notification/notification.entity';
import { notificationEmails, scheduledSends, scheduledSweep } from '../../src/modules/notification/notification.scheduler';
import { Event } from '../../src/modules/event/event.entity';
import { ENTITIES } from '../../src/modules';

// Workers are not started here (the test app runs no background work): each test runs the
// scheduled job's handler itself, as a worker would once the job's start time has come.
let smtp: TestSmtp;
const t = useTestApp(async () => {
  smtp = await startSmtp();
  return { env: { SMTP_URL: smtp.url } };
});
afterAll(() => smtp.close()); // after the app has stopped (afterAll hooks run in order)
const cara = t.as(CARA);
const TEAM = String(DEMO.teamId);
let clock = new Date();
const logger = createLogger('silent');
const FIRST = { retryCount: 0, retryLimit: 4 };
const run = (id: number, on: MikroORM = t.orm, attempt = FIRST) =>
  deliverScheduled(on.em, id, { services: t.app.services, logger, now: () => clock }, attempt);
/** The start time of the scheduled notification's job. */
async function jobStart(id: number): Promise<string> {
  const [row] = await t.sql(`select start_after from ${QUEUE_SCHEMA}.job where id = ?`, [jobIdOf('notification-scheduled', String(id))]);
  return new Date(row.start_after).toISOString();
}

async function schedule(local: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await cara.rest('POST', '/rest/notification/send', {
    body: {
      broadcastType: 'GT',
      companyId: NORTHWIND,
      valueIds: [TEAM],
      message: `At ${local}`,
      scheduleLocalDateTime: local,
      scheduleTimezoneId: 'Australia/Sydney',
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return res.body.scheduledNotification.notificationScheduleId;
}

const stored = (id: number) => t.orm.em.fork().findOneOrFail(ScheduledNotification, id);
const sentFrom = (ids: number[]) =>
  t.orm.em.fork().find(SentNotification, { schedule: { $in: ids } }, { orderBy: { notificationId: 'asc' } });

describe('scheduled delivery at local time in Australia/Sydney', () => {
  it('when daylight saving ends between two 09:00 sends, then each job starts at its own UTC instant, 25 hours apart', async () => {
    // Daylight saving ends in Sydney at 03:00 on Sunday 1 April 2035 (UTC+11 -> UTC+10).
    const before = await schedule('2035-03-31T09:00');
    const after = await schedule('2035-04-01T09:00');
    expect((await stored(before)).scheduleDueAt.toISOString()).toBe('2035-03-30T22:00:00.000Z');
    expect((await stored(after)).scheduleDueAt.toISOString()).toBe('2035-03-31T23:00:00.000Z');
    expect([await jobStart(before), await jobStart(after)]).toEqual(['2035-03-30T22:00:00.000Z', '2035-03-31T23:00:00.000Z']);

    clock = new Date('2035-03-30T22:00:00.000Z');
    expect(await run(before)).toBe(true);
    clock = new Date('2035-03-31T23:00:00.000Z');
    expect(await run(after)).toBe(true);
    const sent = await sentFrom([before, after]);
    expect(
      sent.map((n) => [n.schedule!.notificationScheduleId, n.notificationCreated.toISOString(), n.totalNotificationsSent, n.teamIds]),
    ).toEqual([
      [before, '2035-03-30T22:00:00.000Z', 2, [TEAM]],
      [after, '2035-03-31T23:00:00.000Z', 2, [TEAM]],
    ]);
    expect(await stored(after)).toMatchObject({
      status: 'SENT',
      totalNotificationsSent: 2,
      notificationLog: 'Success',
    });
    const inbox = await t.orm.em.fork().find(NotificationInbox, { notification: sent[1].notificationId });
    expect(inbox.map((r) => r.user.uId).sort()).toEqual([OLIVIA, CARA]);
    // The job again (a retry after a crash past the commit): nothing is sent twice.
    expect(await run(after)).toBe(false);
    expect(await sentFrom([before, after])).toHaveLength(2);
  });

  it('when the local time falls in the hour skipped as daylight saving starts, then its job starts at the first instant after the gap', async () => {
    // 02:30 on Sunday 7 October 2035 does not exist in Sydney (02:00 -> 03:00): it is sent at 03:30 AEDT.
    const id = await schedule('2035-10-07T02:30');
    expect((await stored(id)).scheduleDueAt.toISOString()).toBe('2035-10-06T16:30:00.000Z');
    expect(await jobStart(id)).toBe('2035-10-06T16:30:00.000Z');
  });
});

describe('exactly once across instances', () => {
  it('when two instances on one database run the jobs of the same notifications at once, then each is delivered once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await schedule('2036-01-05T09:00', { message: `Race ${i}` }));
    // On PostgreSQL the second instance has its own connection pool, as a second process would.
    const other = t.db.databaseUrl
      ? await createOrm({ entities: ENTITIES, databaseUrl: t.db.databaseUrl, embeddedDir: 'memory://' })
      : t.orm;
    try {
      clock = new Date('2036-01-05T00:00:00.000Z');
      const inboxBefore = await t.countRows('notification_inbox');
      const results = await Promise.all(ids.flatMap((id) => [run(id), run(id, other)]));
      expect(results.filter(Boolean)).toHaveLength(12);
      const sent = await sentFrom(ids);
      expect(sent.map((n) => n.schedule!.notificationScheduleId).sort()).toEqual([...ids].sort());
      expect(await t.countRows('notification_inbox')).toBe(inboxBefore + 24);
      const rows = await t.orm.em.fork().find(ScheduledNotification, { notificationScheduleId: { $in: ids } });
      expect(rows.every((r) => r.status === 'SENT')).toBe(true);
    } finally {
      if (other !== t.orm) await other.close(true);
    }
  });

  it('when the last attempt of a job fails too, then the record is FAILED with the reason', async () => {
    const id = await schedule('2036-02-01T09:00');
    clock = new Date('2036-02-01T00:00:00.000Z');
    const broken = { ...t.app.services, hooks: { emit: () => Promise.reject(new Error('hook down')) } } as never;
    const attempt = { retryCount: 4, retryLimit: 4 };
    expect(await deliverScheduled(t.orm.em, id, { services: broken, logger, now: () => clock }, attempt)).toBe(true);
    expect(await stored(id)).toMatchObject({ status: 'FAILED', notificationLog: 'Failed: gave up after 5 attempts' });
  });
});

describe('scheduled notifications that can no longer go out', () => {
  it('when the event of a GE notification is cancelled before it is due, then the record is FAILED with the reason and nobody gets it', async () => {
    const uuid = DEMO.eventUuidOf(DEMO.eventCount);
    const id = await schedule('2036-03-01T09:00', { broadcastType: 'GE', eventUUID: uuid, valueIds: [] });
    expect((await stored(id)).keyEventUUID).toBe(uuid);
    await t.orm.em.fork().nativeUpdate(Event, { eventUUID: uuid }, { status: 'C' });
    clock = new Date('2036-03-01T00:00:00.000Z');
    expect(await run(id)).toBe(true);
    expect(await stored(id)).toMatchObject({
      status: 'FAILED',
      totalNotificationsSent: 0,
      notificationLog: 'Failed: the event was cancelled',
    });
    const [sent] = await sentFrom([id]);
    expect(sent).toMatchObject({ successful: false, totalNotificationsSent: 0, notificationLog: 'Failed: the event was cancelled' });
    expect(await t.orm.em.fork().count(NotificationInbox, { notification: sent.notificationId })).toBe(0);
    await t.orm.em.fork().nativeUpdate(Event, { eventUUID: uuid }, { status: 'A' });
  });
});

describe('the queue handlers of notification.scheduler.ts, run as a worker runs them', () => {
  /** What the handlers log, parsed. */
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      cb();
    },
  });
  /** The workers' dependencies, the clock set by the test. */
  const deps = (): JobDeps => ({
    orm: t.orm,
    config: t.config,
    logger: createLogger('info', sink),
    services: { ...t.app.services, clock: { now: () => clock } },
    blobReferences: BLOB_REFERENCES,
  });

  it("scheduledSends: when the job of a scheduled notification runs, then it is delivered at the clock's time, and the log line names the scheduler", async () => {
    // 09:00 in Sydney on Tuesday 1 April 2036 is 22:00 UTC the day before (daylight saving until 6 April).
    const id = await schedule('2036-04-01T09:00');
    clock = new Date('2036-03-31T22:00:00.000Z');

    await scheduledSends.handle({ notificationScheduleId: id }, deps(), FIRST);

    const [sent] = await sentFrom([id]);
    expect([sent.notificationCreated.toISOString(), sent.totalNotificationsSent, sent.teamIds]).toEqual([clock.toISOString(), 2, [TEAM]]);
    expect(await stored(id)).toMatchObject({ status: 'SENT', attempts: 1, notificationLog: 'Success', scheduleModified: clock });
    expect(lines.filter((l) => l.msg === 'scheduled notification processed' && l.notificationScheduleId === id)).toEqual([
      expect.objectContaining({ component: 'scheduler', status: 'SENT', recipients: 2 }),
    ]);
  });

  it("notificationEmails: when the e-mail job of a delivery runs, then each recipient receives the e-mail, and the outbox rows are SENT at the clock's time", async () => {
    const stamp = Date.now();
    const res = await cara.rest('POST', '/rest/notification/send', {
      body: {
        broadcastType: 'GT',
        companyId: NORTHWIND,
        valueIds: [TEAM],
        message: `Rota ${stamp} is out`,
        emailTemplate: 'rota',
        emailSubject: 'Rota',
      },
    });
    expect(res.status).toBe(200);
    const [{ notification_id: notificationId }] = await t.sql('select notification_id from sent_notification where message = ?', [
      `Rota ${stamp} is out`,
    ]);
    const outbox = () =>
      t.sql('select user_id, status, error, sent_at from notification_email where notification_id = ? order by user_id', [notificationId]);
    const users = [OLIVIA, CARA].sort((a, b) => a - b);
    expect(await outbox()).toEqual(users.map((uId) => ({ user_id: uId, status: 'PENDING', error: null, sent_at: null })));
    smtp.received.length = 0;
    clock = new Date('2036-05-01T08:00:00.000Z');

    await notificationEmails.handle({ notificationId }, deps(), FIRST);

    const rows = await outbox();
    expect(rows.map((r) => ({ ...r, sent_at: new Date(r.sent_at).toISOString() }))).toEqual(
      users.map((uId) => ({ user_id: uId, status: 'SENT', error: null, sent_at: clock.toISOString() })),
    );
    const emails = await t.sql('select email from app_user where u_id in (?) order by u_id', [users]);
    expect(smtp.received.map((m) => m.to)).toEqual(emails.map((u) => [u.email]));
    expect(smtp.received[0].raw).toContain('Subject: Rota');
    const done = await t.orm.em.fork().findOneOrFail(SentNotification, notificationId);
    expect([done.notificationLog, done.successful, done.notificationModified.toISOString()]).toEqual([
      'Success',
      true,
      clock.toISOString(),
    ]);
  });

  it('scheduledSweep: when a PENDING scheduled notification has lost its job, then the sweep gives it one that starts at its due time', async () => {
    // 09:00 in Sydney on Monday 2 June 2036 (standard time, UTC+10).
    const id = await schedule('2036-06-02T09:00');
    const job = jobIdOf('notification-scheduled', String(id));
    await t.sql(`delete from ${QUEUE_SCHEMA}.job where id = ?`, [job]);
    expect(await t.sql(`select id from ${QUEUE_SCHEMA}.job where id = ?`, [job])).toEqual([]);

    await scheduledSweep.handle(null, deps());

    expect(await jobStart(id)).toBe('2036-06-01T23:00:00.000Z');
  });

  it.each([
    ['scheduledSends', 'notificationScheduleId', scheduledSends],
    ['notificationEmails', 'notificationId', notificationEmails],
  ])(
    '%s: when the job data holds no integer %s, then the job fails with that reason (and the queue retries it)',
    async (_name, field, handler) => {
      for (const data of [null, {}, { [field]: '7' }, { [field]: 7.5 }])
        await expect(handler.handle(data, deps(), FIRST)).rejects.toThrow(new Error(`job data without an integer ${field}`));
    },
  );
});
