// The e-mail outbox across a crash, on the compiled service (as `npm start` runs it) and the real
// PostgreSQL server (npm run test:faults; needs DATABASE_URL). A first process runs no queue
// workers (QUEUE_WORKERS=0: it commits the inbox rows, the outbox rows and the e-mail job and
// sends nothing), answers sendNotification and is killed with SIGKILL. A second process with
// workers (two of them, started together) then sends each e-mail exactly once to the loopback SMTP
// server, the rows say SENT and the sent record's log has the e-mail outcome.
// A second case kills a worker while the SMTP server holds an e-mail unanswered: a restarted
// worker sends that one and the rest, never the ones already accepted.
import { createCompany, createTeam, createUser, grantCompanyRole, tokenFor } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { startSmtp, type TestSmtp } from '../kit/smtp';
import { spawnService, type SpawnedService } from '../kit/spawn';

if (!process.env.DATABASE_URL) throw new Error('npm run test:faults needs DATABASE_URL (a real PostgreSQL server)');

let db: TestDb;
let smtp: TestSmtp;
const running: SpawnedService[] = [];

beforeAll(async () => {
  db = await createTestDb(); // migrated; pg-boss installs its schema when the first process starts
  smtp = await startSmtp();
});
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await smtp.close();
  await db.close();
});

async function start(env: Record<string, string>): Promise<SpawnedService> {
  const service = await spawnService({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.databaseUrl!,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Pronet <no-reply@outbox.example>',
    QUEUE_POLL_MS: '500',
    ...env,
  });
  running.push(service);
  return service;
}

const sql = (text: string, params: unknown[] = []): Promise<any[]> => db.orm.em.fork().getConnection().execute(text, params);

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const RECIPIENTS = 5;

/** A company team of RECIPIENTS members with addresses, and a sender allowed to notify it. */
async function audience() {
  const company = await createCompany(db.orm);
  const sender = await createUser(db.orm);
  await grantCompanyRole(db.orm, sender.uId, company.companyId, 'PUSH_NOTIFICATION');
  const stamp = Date.now();
  const members = [];
  for (let i = 0; i < RECIPIENTS; i++)
    members.push(await createUser(db.orm, { firstName: `R${i}`, email: `r${i}-${stamp}@outbox.example` }));
  const team = await createTeam(
    db.orm,
    company.companyId,
    members.map((m) => m.uId),
  );
  return { company, members, team, token: await tokenFor(db.orm, sender.uId) };
}

/** sendNotification with an e-mail, through `service`; answers the notification's id. */
async function sendWithEmail(service: SpawnedService, a: Awaited<ReturnType<typeof audience>>): Promise<number> {
  const res = await fetch(`${service.baseUrl}/rest/notification/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-authtoken': a.token },
    body: JSON.stringify({
      broadcastType: 'GT',
      companyId: a.company.companyId,
      valueIds: [String(a.team.teamId)],
      message: 'Hello {{firstName}}.',
      emailTemplate: 'outbox',
      emailSubject: 'Outbox',
    }),
  });
  expect(res.status).toBe(200);
  const body: any = await res.json();
  expect(body.sentNotification).toMatchObject({ successful: true, totalNotificationsSent: RECIPIENTS });
  const [{ notification_id: notificationId }] = await sql('select notification_id from sent_notification where company_id = ?', [
    a.company.companyId,
  ]);
  return notificationId;
}

const statuses = async (notificationId: number) =>
  (await sql('select status from notification_email where notification_id = ? order by user_id', [notificationId])).map(
    (r: { status: string }) => r.status,
  );

it('when the process is killed after sendNotification committed and before any e-mail went, then the restarted instances send each e-mail exactly once', async () => {
  const a = await audience();
  const { members } = a;
  const first = await start({ QUEUE_WORKERS: '0' });
  const notificationId = await sendWithEmail(first, a);
  // Committed: the outbox rows and the job; nothing sent (this process runs no workers).
  const pending = await sql('select user_id, status from notification_email where notification_id = ? order by user_id', [notificationId]);
  expect(pending).toEqual(members.map((m) => ({ user_id: m.uId, status: 'PENDING' })));
  const jobs = await sql(`select state from pgboss.job where name = 'notification-email' and data->>'notificationId' = ?`, [
    String(notificationId),
  ]);
  expect(jobs).toEqual([{ state: 'created' }]);
  // Bounded: this process runs no workers, so nothing can send; 700 ms is a poll interval and more.
  await new Promise((r) => setTimeout(r, 700));
  expect(smtp.received).toHaveLength(0);

  const killed = new Promise((resolve) => first.child.once('exit', (_code, signal) => resolve(signal)));
  first.child.kill('SIGKILL');
  expect(await killed).toBe('SIGKILL');

  const t0 = Date.now();
  // Two instances with workers restart at once: the job is taken by one of them, once.
  const restarted = await Promise.all([start({ QUEUE_WORKERS: '2' }), start({ QUEUE_WORKERS: '2' })]);
  await until('every e-mail sent', async () => {
    const rows = await sql("select count(*)::int as n from notification_email where notification_id = ? and status = 'SENT'", [
      notificationId,
    ]);
    return rows[0].n === RECIPIENTS;
  });
  const restartToSent = Date.now() - t0;
  // The job completed (the positive signal): no retry of it can send a duplicate after this.
  await until('the job completed', async () => {
    const rows = await sql(`select state from pgboss.job where name = 'notification-email' and data->>'notificationId' = ?`, [
      String(notificationId),
    ]);
    return rows.length === 1 && rows[0].state === 'completed';
  });
  const to = smtp.received.map((m) => m.to.join(',')).sort();
  expect(to).toEqual(members.map((m) => m.email).sort());
  for (const [i, m] of members.entries()) {
    const mail = smtp.received.find((x) => x.to[0] === m.email)!;
    expect(mail.raw).toContain(`Message-ID: <notification-${notificationId}-${m.uId}@pronet>`);
    expect(mail.raw).toContain(`Hello R${i}.`);
  }
  const [record] = await sql('select successful, notification_log from sent_notification where notification_id = ?', [notificationId]);
  expect(record).toEqual({ successful: true, notification_log: 'Success' });
  expect(
    await sql(`select state from pgboss.job where name = 'notification-email' and data->>'notificationId' = ?`, [String(notificationId)]),
  ).toEqual([{ state: 'completed' }]);
  expect(await Promise.all(restarted.map((r) => r.stop()))).toEqual([0, 0]);
  console.log(`outbox kill test: restart to ${RECIPIENTS} e-mails SENT in ${restartToSent} ms (process start included)`);
}, 60_000);

it('when the worker is killed while the SMTP server holds the third e-mail unanswered, then a restarted worker sends the other three once and never the two accepted', async () => {
  const a = await audience();
  const stalling = await startSmtp(
    () => false,
    (n) => n === 3,
  );
  try {
    const worker = await start({ QUEUE_WORKERS: '1', SMTP_URL: stalling.url });
    const notificationId = await sendWithEmail(worker, a);
    await until('the third e-mail held', () => stalling.held.length === 1);
    // Each accepted e-mail is marked as it is accepted: two SENT, the held one and the rest PENDING.
    expect(await statuses(notificationId)).toEqual(['SENT', 'SENT', 'PENDING', 'PENDING', 'PENDING']);
    const killed = new Promise((resolve) => worker.child.once('exit', (_code, signal) => resolve(signal)));
    worker.child.kill('SIGKILL');
    expect(await killed).toBe('SIGKILL');

    const t0 = Date.now();
    const restarted = await start({ QUEUE_WORKERS: '1', SMTP_URL: stalling.url });
    // The killed worker's job is retried once its heartbeat has been silent long enough (src/core/queue.ts).
    await until('every e-mail sent', async () => (await statuses(notificationId)).every((s) => s === 'SENT'), 150_000);
    const restartToSent = Date.now() - t0;
    // The heartbeat's 30 s and a supervision's 10 s, with the restart (pg-boss's 60 s default monitor took 70-82 s).
    expect(restartToSent).toBeLessThan(60_000);
    // The job completed (the positive signal): no retry of it can send a duplicate after this.
    await until('the job completed', async () => {
      const rows = await sql(`select state from pgboss.job where name = 'notification-email' and data->>'notificationId' = ?`, [
        String(notificationId),
      ]);
      return rows.length === 1 && rows[0].state === 'completed';
    });
    const emails = a.members.map((m) => m.email);
    expect(stalling.held.map((m) => m.to[0])).toEqual([emails[2]]);
    expect(stalling.received.map((m) => m.to[0])).toEqual([emails[0], emails[1], emails[2], emails[3], emails[4]]);
    const [record] = await sql('select successful, notification_log from sent_notification where notification_id = ?', [notificationId]);
    expect(record).toEqual({ successful: true, notification_log: 'Success' });
    expect(
      await sql(`select state from pgboss.job where name = 'notification-email' and data->>'notificationId' = ?`, [String(notificationId)]),
    ).toEqual([{ state: 'completed' }]);
    expect(await restarted.stop()).toBe(0);
    console.log(`outbox kill-during-send test: restart to every e-mail SENT in ${restartToSent} ms`);
  } finally {
    await stalling.close();
  }
}, 200_000);
