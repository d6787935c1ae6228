// Each inbox delivery is pushed: the hook enqueues one push.deliver job in the delivery
// transaction (recorded here by a JobQueue of the test's), and the job's handler sends each
// subscription its item, encrypted (RFC 8291, aes128gcm) and signed (VAPID), to a push service on
// loopback that checks the token and decrypts the message with the browser's keys. A 404 or 410
// removes the subscription; any other failure fails the job (the queue retries it).
import https from 'node:https';
import type { EntityManager } from '@mikro-orm/core';
import { importJWK, jwtVerify } from 'jose';
import pino from 'pino';
import { CARA, NORTHWIND, createCompany, createTeam, createUser, grantCompanyRole, useTestApp } from '../kit';
import type { JobQueue, SendOptions } from '../../src/core/queue';
import { deliverPushes, enqueuePushes, payloadJson, pushQueue, PUSH_QUEUE, type PushPayload } from '../../src/modules/push/push.delivery';
import { vapidKeys } from '../../src/modules/push/push.keys';
import { PushSender, type PushOutcome } from '../../src/modules/push/push.sender';
import { browserKeys, decryptPush, type BrowserKeys } from './keys';
import { startPushServer, type PushServer } from './push-server';

let server: PushServer;
beforeAll(async () => {
  server = await startPushServer();
});
afterAll(() => server.close());

const t = useTestApp();
const SUBJECT = 'mailto:ops@example.org';
const logger = pino({ level: 'silent' });
const deps = () => ({ orm: t.orm, config: t.config, logger, services: t.app.services, blobReferences: [] });
/** A sender that trusts the loopback server's certificate (production's trusts the system's). */
const sender = () => new PushSender({ vapid: vapidKeys(t.config), subject: SUBJECT, agent: new https.Agent({ ca: server.ca }) });
const handler = pushQueue(() => sender());
const FIRST = { retryCount: 0, retryLimit: 5 };

interface Recorded {
  name: string;
  data: object;
  options?: SendOptions;
  inTransaction: boolean;
}
const recorded: Recorded[] = [];
const recordingQueue: JobQueue = {
  async send(em, name, data, options) {
    recorded.push({ name, data, options, inTransaction: em.isInTransaction() });
  },
};
let restoreQueue: () => void;
beforeAll(() => {
  const services = t.app.services as unknown as { queue?: JobQueue };
  const previous = services.queue;
  services.queue = recordingQueue;
  restoreQueue = () => (services.queue = previous);
});
afterAll(() => restoreQueue());
beforeEach(() => (recorded.length = 0));

let n = 0;
/** A subscription of the user at path `kind/...` on the loopback server, stored as registering stores it; answers its keys. */
async function subscribed(userId: number, kind = 'ok'): Promise<BrowserKeys & { endpoint: string }> {
  const keys = browserKeys();
  const endpoint = `${server.origin}/${kind}/${userId}-${++n}`;
  await t.sql('insert into push_subscription (user_id, endpoint, p256dh, auth) values (?, ?, ?, ?)', [
    userId,
    endpoint,
    keys.p256dh,
    keys.auth,
  ]);
  return { ...keys, endpoint };
}

/** A notification in the users' inboxes (written as delivery writes it); answers its id. */
async function delivered(userIds: number[], message = 'Ward meeting moved to 3 pm.'): Promise<number> {
  const [{ notification_id: id }] = await t.sql(
    `insert into sent_notification (type, company_id, message, url, successful, total_notifications_sent, notification_created,
      notification_modified, notification_created_by, notification_modified_by) values ('GT', ?, ?, 'northwind://wall/42', true, ?, now(), now(), '1', '1')
      returning notification_id`,
    [NORTHWIND, message, userIds.length],
  );
  for (const u of userIds)
    await t.sql('insert into notification_inbox (notification_id, user_id, delivered_at) values (?, ?, now())', [id, u]);
  return id;
}

const subscriptionsOf = async (userId: number) =>
  (await t.sql('select endpoint from push_subscription where user_id = ? order by id', [userId])).map(
    (r: { endpoint: string }) => r.endpoint,
  );
const messagesTo = (endpoint: string) => server.messages.filter((m) => `${server.origin}${m.path}` === endpoint);

describe('the hook notificationDelivered', () => {
  it('sendNotification enqueues one push.deliver job, in the delivery transaction, for the recipients with subscriptions', async () => {
    const company = await createCompany(t.orm);
    const pusher = await t.newUser();
    await grantCompanyRole(t.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
    const members = [await createUser(t.orm), await createUser(t.orm), await createUser(t.orm)];
    const team = await createTeam(
      t.orm,
      company.companyId,
      members.map((m) => m.uId),
    );
    await subscribed(members[0].uId);
    await subscribed(members[2].uId);
    await subscribed(members[2].uId);
    const res = await pusher.rest('POST', '/rest/notification/send', {
      body: { broadcastType: 'GT', companyId: company.companyId, valueIds: [String(team.teamId)], message: 'Shift swap approved.' },
    });
    expect(res.status).toBe(200);
    const [{ id }] = await t.sql('select max(notification_id) as id from sent_notification where company_id = ?', [company.companyId]);
    expect(recorded).toEqual([
      {
        name: PUSH_QUEUE,
        data: { notificationId: id, userIds: [members[0].uId, members[2].uId].sort((a, b) => a - b) },
        options: { key: String(id) },
        inTransaction: true,
      },
    ]);
  });

  it('enqueues nothing when no recipient has a subscription', async () => {
    const users = [await createUser(t.orm), await createUser(t.orm)];
    const em = t.orm.em.fork();
    await em.transactional((tx) =>
      enqueuePushes({ em: tx, services: t.app.services, notificationId: 1, userIds: users.map((u) => u.uId) }),
    );
    expect(recorded).toEqual([]);
  });

  it('takes one statement whatever the number of recipients (1 and 60)', async () => {
    const one = [await createUser(t.orm)];
    const many: { uId: number }[] = [];
    for (let i = 0; i < 60; i++) many.push(await createUser(t.orm));
    for (const u of [...one, ...many]) await subscribed(u.uId);
    const run = (userIds: number[]) => (em: EntityManager) => enqueuePushes({ em, services: t.app.services, notificationId: 7, userIds });
    const counts = [
      await t.countStatements(() => t.orm.em.fork().transactional(run(one.map((u) => u.uId)))),
      await t.countStatements(() => t.orm.em.fork().transactional(run(many.map((u) => u.uId)))),
    ];
    // The select of the recipients with subscriptions (the recording queue runs none).
    expect({ counts, jobs: recorded.map((r) => (r.data as { userIds: number[] }).userIds.length) }).toEqual({
      counts: [1, 1],
      jobs: [1, 60],
    });
  });
});

describe('the push.deliver handler, against a push service on loopback', () => {
  it('sends each subscription the inbox item, aes128gcm-encrypted to its keys, with a VAPID token for the endpoint origin', async () => {
    const user = await createUser(t.orm);
    const other = await createUser(t.orm);
    const phone = await subscribed(user.uId);
    const laptop = await subscribed(user.uId);
    const notSent = await subscribed(other.uId); // not a recipient of this job
    const id = await delivered([user.uId, other.uId]);
    const before = Date.now();
    await handler.handle({ notificationId: id, userIds: [user.uId] }, deps(), FIRST);

    const [inboxItem] = await t.sql(
      `select floor(extract(epoch from delivered_at) * 1000)::float8 as received from notification_inbox where notification_id = ? and user_id = ?`,
      [id, user.uId],
    );
    const expected: PushPayload = {
      notificationId: id,
      type: 'GT',
      companyId: NORTHWIND,
      eventUUID: null,
      brochureId: null,
      message: 'Ward meeting moved to 3 pm.',
      url: 'northwind://wall/42',
      received: inboxItem.received,
    };
    expect(messagesTo(notSent.endpoint)).toEqual([]);
    const vapid = vapidKeys(t.config);
    const [x, y] = [1, 33].map((o) =>
      Buffer.from(vapid.publicKey, 'base64url')
        .subarray(o, o + 32)
        .toString('base64url'),
    );
    const publicKey = await importJWK({ kty: 'EC', crv: 'P-256', x, y }, 'ES256');
    for (const browser of [phone, laptop]) {
      const [message] = messagesTo(browser.endpoint);
      expect(message).toBeDefined();
      expect(messagesTo(browser.endpoint)).toHaveLength(1);
      expect({
        encoding: message.headers['content-encoding'],
        type: message.headers['content-type'],
        ttl: message.headers.ttl,
        topic: message.headers.topic,
      }).toEqual({ encoding: 'aes128gcm', type: 'application/octet-stream', ttl: '86400', topic: `n${id}` });
      const auth = /^vapid t=([^,]+), k=(.+)$/.exec(String(message.headers.authorization));
      expect(auth?.[2]).toBe(vapid.publicKey);
      const { payload, protectedHeader } = await jwtVerify(auth![1], publicKey, { audience: server.origin, subject: SUBJECT });
      expect(protectedHeader.alg).toBe('ES256');
      expect(payload.exp! * 1000).toBeGreaterThan(before);
      expect(JSON.parse(decryptPush(message.body, browser))).toEqual(expected);
      // Another browser's keys cannot read it.
      expect(() => decryptPush(message.body, browserKeys())).toThrow();
    }
  });

  it('a 410 or 404 removes that subscription and the job succeeds; the others are sent', async () => {
    const user = await createUser(t.orm);
    const other = await createUser(t.orm);
    const ok = await subscribed(user.uId);
    const gone = await subscribed(user.uId, 'gone');
    const missing = await subscribed(other.uId, 'missing');
    const id = await delivered([user.uId, other.uId]);
    await expect(handler.handle({ notificationId: id, userIds: [user.uId, other.uId] }, deps(), FIRST)).resolves.toBeUndefined();
    expect([messagesTo(ok.endpoint).length, messagesTo(gone.endpoint).length, messagesTo(missing.endpoint).length]).toEqual([1, 1, 1]);
    expect({ user: await subscriptionsOf(user.uId), other: await subscriptionsOf(other.uId) }).toEqual({ user: [ok.endpoint], other: [] });
  });

  it('another failure (500) fails the job, after sending the rest and removing the gone ones', async () => {
    const user = await createUser(t.orm);
    const ok = await subscribed(user.uId);
    const broken = await subscribed(user.uId, 'broken');
    const gone = await subscribed(user.uId, 'gone');
    const id = await delivered([user.uId]);
    await expect(handler.handle({ notificationId: id, userIds: [user.uId] }, deps(), FIRST)).rejects.toThrow(
      `push.deliver: 1 of 3 sends failed for notification ${id}`,
    );
    expect([messagesTo(ok.endpoint).length, messagesTo(broken.endpoint).length, messagesTo(gone.endpoint).length]).toEqual([1, 1, 1]);
    expect(await subscriptionsOf(user.uId)).toEqual([ok.endpoint, broken.endpoint]);
  });

  it("the service's own sender refuses the loopback server's self-signed certificate (no test agent): the job fails", async () => {
    const user = await createUser(t.orm);
    const ok = await subscribed(user.uId);
    const id = await delivered([user.uId]);
    const production = pushQueue(); // the module's handler: the system's trusted certificates
    await expect(production.handle({ notificationId: id, userIds: [user.uId] }, deps(), FIRST)).rejects.toThrow('1 of 1 sends failed');
    expect(messagesTo(ok.endpoint)).toEqual([]);
    expect(await subscriptionsOf(user.uId)).toEqual([ok.endpoint]);
  });

  it('nothing to send: a recipient without the item in their inbox, or without subscriptions', async () => {
    const user = await createUser(t.orm);
    const ok = await subscribed(user.uId);
    const id = await delivered([CARA]);
    await handler.handle({ notificationId: id, userIds: [user.uId, CARA] }, deps(), FIRST);
    expect(messagesTo(ok.endpoint)).toEqual([]);
  });

  it('sends at most 16 at once, and every one of 40 subscriptions once', async () => {
    const user = await createUser(t.orm);
    for (let i = 0; i < 40; i++) await subscribed(user.uId);
    const id = await delivered([user.uId]);
    let inFlight = 0;
    let most = 0;
    const endpoints: string[] = [];
    const counting = {
      async send(target: { endpoint: string }): Promise<PushOutcome> {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        endpoints.push(target.endpoint);
        return 'sent';
      },
    } as unknown as PushSender;
    const report = await deliverPushes({ notificationId: id, userIds: [user.uId] }, deps(), counting);
    expect({ report, most, sent: endpoints.sort() }).toEqual({
      report: { sent: 40, removed: 0, failed: 0 },
      most: 16,
      sent: (await subscriptionsOf(user.uId)).sort(),
    });
  });

  it('malformed job data fails the job', async () => {
    for (const data of [null, {}, { notificationId: '1', userIds: [] }, { notificationId: 1, userIds: [1.5] }, { notificationId: 1 }]) {
      await expect(handler.handle(data, deps(), FIRST)).rejects.toThrow('push.deliver: malformed job data');
    }
  });
});

describe('the payload', () => {
  const item: PushPayload = {
    notificationId: 1,
    type: 'GT',
    companyId: 2,
    eventUUID: null,
    brochureId: null,
    message: 'Hello',
    url: 'https://example.org',
    received: 3,
  };

  it('is the item JSON; one too long for a record loses message characters, then the url', () => {
    expect(payloadJson(item)).toBe(JSON.stringify(item));
    const long = { ...item, message: '€'.repeat(255), url: `https://example.org/${'u'.repeat(3200)}` };
    const shortened = JSON.parse(payloadJson(long));
    expect(Buffer.byteLength(payloadJson(long))).toBeLessThanOrEqual(3993);
    expect({
      url: shortened.url === long.url,
      prefix: long.message.startsWith(shortened.message),
      chars: [...shortened.message].length,
    }).toEqual({
      url: true,
      prefix: true,
      chars: 255 - Math.ceil((Buffer.byteLength(JSON.stringify(long)) - 3993) / 3),
    });
    const huge = { ...item, url: `https://example.org/${'u'.repeat(4000)}` };
    expect(JSON.parse(payloadJson(huge))).toEqual({ ...item, message: '', url: null });
  });
});
