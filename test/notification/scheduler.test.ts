import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { CARA, DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';
import { createOrm, createLogger, startScheduler, type Scheduler } from '../kit/src';
import { NotificationInbox, ScheduledNotification, SentNotification } from '../../src/modules/notification/notification.entity';
import { Event } from '../../src/modules/event/event.entity';

const t = useTestApp();
const schedulers: Scheduler[] = [];
t.onClose(async () => {
  for (const s of schedulers) await s.stop();
});
const cara = t.as(CARA);
const TEAM = String(DEMO.teamId);
let clock: Date;
const logger = createLogger('silent');
const scheduler = (on: MikroORM = t.orm, intervalMs = 0) => {
  const s = startScheduler({ em: on.em, mailer: t.app.services.mailer, logger, intervalMs, now: () => clock });
  schedulers.push(s);
  return s;
};

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
/** Only the notifications scheduled by this test are due: the others wait for far later times. */
async function resetClock(iso: string) {
  clock = new Date(iso);
}

describe('scheduled delivery at local time in Australia/Sydney', () => {
  it('when daylight saving ends between two 09:00 sends, then each goes out at its own UTC instant, 25 hours apart', async () => {
    // Daylight saving ends in Sydney at 03:00 on Sunday 1 April 2035 (UTC+11 -> UTC+10).
    const before = await schedule('2035-03-31T09:00');
    const after = await schedule('2035-04-01T09:00');
    expect((await stored(before)).scheduleDueAt.toISOString()).toBe('2035-03-30T22:00:00.000Z');
    expect((await stored(after)).scheduleDueAt.toISOString()).toBe('2035-03-31T23:00:00.000Z');
    const s = scheduler();

    await resetClock('2035-03-30T21:59:59.999Z');
    expect(await s.runOnce()).toBe(0);
    await resetClock('2035-03-30T22:00:00.000Z');
    expect(await s.runOnce()).toBe(1);
    expect((await stored(before)).status).toBe('SENT');
    // 24 hours later it is only 08:00 in Sydney: a fixed UTC+11 would send the second one now.
    await resetClock('2035-03-31T22:00:00.000Z');
    expect(await s.runOnce()).toBe(0);
    await resetClock('2035-03-31T22:59:59.999Z');
    expect(await s.runOnce()).toBe(0);
    await resetClock('2035-03-31T23:00:00.000Z');
    expect(await s.runOnce()).toBe(1);

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
      notificationLog: 'Success: delivered to 2 users',
      claimToken: null,
    });
    const inbox = await t.orm.em.fork().find(NotificationInbox, { notification: sent[1].notificationId });
    expect(inbox.map((r) => r.user.uId).sort()).toEqual([OLIVIA, CARA]);
    // Run again: nothing is sent twice.
    await resetClock('2035-05-01T00:00:00.000Z');
    expect(await s.runOnce()).toBe(0);
  });

  it('when the local time falls in the hour skipped as daylight saving starts, then it goes out at the first instant after the gap', async () => {
    // 02:30 on Sunday 7 October 2035 does not exist in Sydney (02:00 -> 03:00): it is sent at 03:30 AEDT.
    const id = await schedule('2035-10-07T02:30');
    expect((await stored(id)).scheduleDueAt.toISOString()).toBe('2035-10-06T16:30:00.000Z');
    const s = scheduler();
    await resetClock('2035-10-06T16:29:59.000Z');
    expect(await s.runOnce()).toBe(0);
    await resetClock('2035-10-06T16:30:00.000Z');
    expect(await s.runOnce()).toBe(1);
  });
});

describe('exactly once across instances', () => {
  it('when two instances on one database race for the same due notifications, then each is delivered once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await schedule('2036-01-05T09:00', { message: `Race ${i}` }));
    // On PostgreSQL the second instance has its own connection pool, as a second process would.
    const other = t.db.databaseUrl ? await createOrm({ databaseUrl: t.db.databaseUrl, embeddedDir: 'memory://' }) : t.orm;
    try {
      const a = scheduler(t.orm);
      const b = scheduler(other);
      await resetClock('2036-01-05T00:00:00.000Z');
      const inboxBefore = await t.countRows('notification_inbox');
      const [na, nb] = await Promise.all([a.runOnce(), b.runOnce()]);
      expect(na + nb).toBe(12);
      const sent = await sentFrom(ids);
      expect(sent.map((n) => n.schedule!.notificationScheduleId).sort()).toEqual([...ids].sort());
      expect(await t.countRows('notification_inbox')).toBe(inboxBefore + 24);
      const rows = await t.orm.em.fork().find(ScheduledNotification, { notificationScheduleId: { $in: ids } });
      expect(rows.every((r) => r.status === 'SENT' && r.attempts === 1)).toBe(true);
      expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([0, 0]);
    } finally {
      if (other !== t.orm) await other.close(true);
    }
  });

  it('when an instance died holding a claim, then another takes it over once the lease has run out, and not before', async () => {
    const expired = await schedule('2036-02-01T09:00');
    const live = await schedule('2036-02-01T09:00');
    await resetClock('2036-02-01T00:00:00.000Z');
    const em = t.orm.em.fork();
    await em.nativeUpdate(
      ScheduledNotification,
      { notificationScheduleId: expired },
      { status: 'PROCESSING', claimToken: crypto.randomUUID(), claimedUntil: new Date(clock.getTime() - 1000), attempts: 1 },
    );
    await em.nativeUpdate(
      ScheduledNotification,
      { notificationScheduleId: live },
      { status: 'PROCESSING', claimToken: crypto.randomUUID(), claimedUntil: new Date(clock.getTime() + 60_000), attempts: 1 },
    );
    expect(await scheduler().runOnce()).toBe(1);
    expect(await stored(expired)).toMatchObject({ status: 'SENT', attempts: 2 });
    expect(await stored(live)).toMatchObject({ status: 'PROCESSING', attempts: 1 });
    expect(await sentFrom([expired, live])).toHaveLength(1);
    // The live claim's instance is still working on it: keep later tests' clocks inside its lease.
    await em.nativeUpdate(ScheduledNotification, { notificationScheduleId: live }, { claimedUntil: new Date('2099-01-01T00:00:00Z') });
  });
});

describe('scheduled notifications that can no longer go out', () => {
  it('when the event of a GE notification is cancelled before it is due, then the record is FAILED with the reason and nobody gets it', async () => {
    const uuid = DEMO.eventUuidOf(DEMO.eventCount);
    const id = await schedule('2036-03-01T09:00', { broadcastType: 'GE', eventUUID: uuid, valueIds: [] });
    expect((await stored(id)).keyEventUUID).toBe(uuid);
    await t.orm.em.fork().nativeUpdate(Event, { eventUUID: uuid }, { status: 'C' });
    await resetClock('2036-03-01T00:00:00.000Z');
    expect(await scheduler().runOnce()).toBe(1);
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

describe('the scheduler loop', () => {
  it('when started with an interval, then it delivers due notifications by itself and stops cleanly', async () => {
    const id = await schedule('2036-04-01T09:00');
    await resetClock('2036-04-01T00:00:00.000Z');
    const s = scheduler(t.orm, 20);
    const deadline = Date.now() + 10_000;
    while ((await stored(id)).status !== 'SENT' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await s.stop();
    expect((await stored(id)).status).toBe('SENT');
    const late = await schedule('2036-04-01T10:00');
    await resetClock('2036-04-02T00:00:00.000Z');
    await new Promise((r) => setTimeout(r, 100));
    expect((await stored(late)).status).toBe('PENDING');
  });
});
