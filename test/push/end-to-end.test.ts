// End to end on the app's own job queue: sendNotification commits the inbox rows with one
// push.deliver job, this instance's queue workers run the module's own handler (the service's
// default sender), and the push service on loopback receives, checks and decrypts the message.
// The only test-specific piece is trust: this process's default https agent trusts the loopback
// server's self-signed certificate (set in the test, not in the service).
import https from 'node:https';
import pino from 'pino';
import { createCompany, createTeam, createUser, grantCompanyRole, useTestApp } from '../kit';
import type { QueueWorkers } from '../../src/core/queue';
import { browserKeys, decryptPush } from './keys';
import { startPushServer, type PushServer } from './push-server';

let server: PushServer;
let previousCa: unknown;
beforeAll(async () => {
  server = await startPushServer();
  previousCa = https.globalAgent.options.ca;
  https.globalAgent.options.ca = server.ca;
});
afterAll(async () => {
  https.globalAgent.options.ca = previousCa as string | undefined;
  await server.close();
});

const t = useTestApp({ env: { QUEUE_POLL_MS: '500' } });
let workers: QueueWorkers;
beforeAll(async () => {
  workers = t.app.services.queue as unknown as QueueWorkers;
  await workers.work({ orm: t.orm, config: t.config, logger: pino({ level: 'silent' }), services: t.app.services, blobReferences: [] });
});
afterAll(() => workers.stopWork());

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('a notification sent to a team reaches each subscribed member, decryptable with their keys; a 410 removes that subscription', async () => {
  const company = await createCompany(t.orm);
  const pusher = await t.newUser();
  await grantCompanyRole(t.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
  const [a, b] = [await createUser(t.orm), await createUser(t.orm)];
  const team = await createTeam(t.orm, company.companyId, [a.uId, b.uId]);
  const keys = browserKeys();
  const live = `${server.origin}/ok/e2e-${a.uId}`;
  const gone = `${server.origin}/gone/e2e-${b.uId}`;
  for (const [user, endpoint] of [
    [a.uId, live],
    [b.uId, gone],
  ] as const) {
    await t.sql('insert into push_subscription (user_id, endpoint, p256dh, auth) values (?, ?, ?, ?)', [
      user,
      endpoint,
      keys.p256dh,
      keys.auth,
    ]);
  }
  const res = await pusher.rest('POST', '/rest/notification/send', {
    body: { broadcastType: 'GT', companyId: company.companyId, valueIds: [String(team.teamId)], message: 'Night shift cover needed.' },
  });
  expect(res.status).toBe(200);
  const [{ id }] = await t.sql('select max(notification_id) as id from sent_notification where company_id = ?', [company.companyId]);

  const message = await until(() => server.messages.find((m) => `${server.origin}${m.path}` === live));
  const [{ received }] = await t.sql(
    'select floor(extract(epoch from delivered_at) * 1000)::float8 as received from notification_inbox where notification_id = ? and user_id = ?',
    [id, a.uId],
  );
  expect(JSON.parse(decryptPush(message.body, keys))).toEqual({
    notificationId: id,
    type: 'GT',
    companyId: company.companyId,
    eventUUID: null,
    brochureId: null,
    message: 'Night shift cover needed.',
    url: null,
    received,
  });
  await until(async () => ((await t.sql('select 1 from push_subscription where endpoint = ?', [gone])).length === 0 ? true : undefined));
  expect(
    (await t.sql('select endpoint from push_subscription where endpoint in (?, ?)', [live, gone])).map((r: any) => r.endpoint),
  ).toEqual([live]);
}, 30_000);
