// The push-subscription routes and their GraphQL twins: the VAPID public key, registering a
// browser's subscription (validated field by field, the same endpoint updating its row, an
// endpoint moving to the user who registers it last, ten per user) and removing it.
import crypto from 'node:crypto';
import { OLIVIA, PAT, useTestApp } from '../kit';
import { vapidKeys } from '../../src/modules/push/push.keys';
import { parseEndpoint } from '../../src/modules/push/push.service';
import { serviceErrorOf } from '../kit/errors';
import { browserKeys, subscriptionJson } from './keys';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const pat = t.as(PAT);
const PATH = '/rest/user/push-subscriptions';

let n = 0;
const endpointOf = () => `https://push.example.org/send/${Date.now()}-${++n}`;
const rowsOf = (endpoint: string) => t.sql('select user_id, endpoint, p256dh, auth from push_subscription where endpoint = ?', [endpoint]);
const register = (who: typeof olivia, body: unknown) => who.rest('POST', PATH, { body });

describe('GET /rest/user/push-subscriptions/vapid-public-key', () => {
  it("answers the service's VAPID public key: base64url of an uncompressed P-256 point", async () => {
    const res = await olivia.rest('GET', `${PATH}/vapid-public-key`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicKey: vapidKeys(t.config).publicKey });
    const point = Buffer.from(res.body.publicKey, 'base64url');
    expect([point.length, point[0], /^[A-Za-z0-9_-]+$/.test(res.body.publicKey)]).toEqual([65, 4, true]);
  });

  it('needs a user token', async () => {
    const res = await t.rest('GET', `${PATH}/vapid-public-key`);
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('POST /rest/user/push-subscriptions', () => {
  it("stores the browser's subscription: 201 with the endpoint and when it was registered", async () => {
    const endpoint = endpointOf();
    const keys = browserKeys();
    const before = Date.now();
    const res = await register(olivia, subscriptionJson(endpoint, keys));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ endpoint, registered: expect.any(Number) });
    expect(res.body.registered).toBeGreaterThanOrEqual(before - 1000);
    expect(await rowsOf(endpoint)).toEqual([{ user_id: OLIVIA, endpoint, p256dh: keys.p256dh, auth: keys.auth }]);
  });

  it('the same endpoint again updates its keys (one row); registered by another user it moves to them', async () => {
    const endpoint = endpointOf();
    await register(olivia, subscriptionJson(endpoint));
    const renewed = browserKeys();
    expect((await register(olivia, subscriptionJson(endpoint, renewed))).status).toBe(201);
    expect(await rowsOf(endpoint)).toEqual([{ user_id: OLIVIA, endpoint, p256dh: renewed.p256dh, auth: renewed.auth }]);
    const patKeys = browserKeys();
    expect((await register(pat, subscriptionJson(endpoint, patKeys))).status).toBe(201);
    expect(await rowsOf(endpoint)).toEqual([{ user_id: PAT, endpoint, p256dh: patKeys.p256dh, auth: patKeys.auth }]);
  });

  it('stores the endpoint serialised, and padded base64url keys without padding', async () => {
    const keys = browserKeys();
    const raw = `HTTPS://Push.Example.org:443/a b/${Date.now()}`;
    const padded = { p256dh: `${keys.p256dh}=`, auth: `${keys.auth}==` };
    const res = await register(olivia, { endpoint: raw, keys: padded });
    const stored = new URL(raw).href;
    expect(res.status).toBe(201);
    expect(res.body.endpoint).toBe(stored);
    expect(stored).toMatch(/^https:\/\/push\.example\.org\/a%20b\//);
    expect(await rowsOf(stored)).toEqual([{ user_id: OLIVIA, endpoint: stored, p256dh: keys.p256dh, auth: keys.auth }]);
  });

  it('a user keeps their ten most recently registered subscriptions', async () => {
    const u = await t.newUser();
    const endpoints = Array.from({ length: 11 }, endpointOf);
    for (const e of endpoints) expect((await register(u, subscriptionJson(e))).status).toBe(201);
    const kept = await t.sql('select endpoint from push_subscription where user_id = ? order by id', [u.uId]);
    expect(kept.map((r: { endpoint: string }) => r.endpoint)).toEqual(endpoints.slice(1));
    // Registering the oldest kept one again makes it the newest: the next one drops the second.
    await register(u, subscriptionJson(endpoints[1]));
    await register(u, subscriptionJson(endpoints[0]));
    const after = await t.sql('select endpoint from push_subscription where user_id = ? order by endpoint', [u.uId]);
    expect(after.map((r: { endpoint: string }) => r.endpoint)).toEqual([endpoints[0], endpoints[1], ...endpoints.slice(3)].sort());
  });

  const keys = browserKeys();
  const good = { p256dh: keys.p256dh, auth: keys.auth };
  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
  const tooLong = `https://push.example.org/${'a'.repeat(1000)}`;
  const cases: [string, unknown, string, string, string][] = [
    ['no endpoint', { keys: good }, 'WSInvalidParameterException', 'endpoint', 'endpoint is required.'],
    ['a blank endpoint', { endpoint: ' ', keys: good }, 'WSInvalidParameterException', 'endpoint', 'endpoint is required.'],
    [
      'an http endpoint',
      { endpoint: 'http://push.example.org/x', keys: good },
      'WSInvalidParameterException',
      'endpoint',
      'endpoint must be an https URL.',
    ],
    [
      'an endpoint that is no URL',
      { endpoint: 'push.example.org/x', keys: good },
      'WSInvalidParameterException',
      'endpoint',
      'endpoint must be an https URL.',
    ],
    [
      'an endpoint with credentials',
      { endpoint: 'https://u:p@push.example.org/x', keys: good },
      'WSInvalidParameterException',
      'endpoint',
      'endpoint must be an https URL.',
    ],
    [
      'an endpoint of 1025 characters',
      { endpoint: tooLong, keys: good },
      'WSFieldLengthException',
      'endpoint',
      'endpoint must be at most 1024 characters.',
    ],
    ['no keys', { endpoint: 'https://push.example.org/x' }, 'WSInvalidParameterException', 'keys', 'keys is required.'],
    [
      'no p256dh',
      { endpoint: 'https://push.example.org/x', keys: { auth: good.auth } },
      'WSInvalidParameterException',
      'keys.p256dh',
      'keys.p256dh is required.',
    ],
    [
      'a p256dh of 64 bytes',
      { endpoint: 'https://push.example.org/x', keys: { ...good, p256dh: Buffer.alloc(64, 4).toString('base64url') } },
      'WSInvalidParameterException',
      'keys.p256dh',
      'keys.p256dh must be a base64url uncompressed P-256 public key (65 bytes).',
    ],
    [
      'a p256dh in standard base64',
      {
        endpoint: 'https://push.example.org/x',
        keys: {
          ...good,
          p256dh: keys.ecdh
            .getPublicKey()
            .toString('base64')
            .replace(/[A-Za-z0-9]/, '+'),
        },
      },
      'WSInvalidParameterException',
      'keys.p256dh',
      'keys.p256dh must be a base64url uncompressed P-256 public key (65 bytes).',
    ],
    [
      'a p256dh that is no point of the curve',
      { endpoint: 'https://push.example.org/x', keys: { ...good, p256dh: offCurve } },
      'WSInvalidParameterException',
      'keys.p256dh',
      'keys.p256dh must be a base64url uncompressed P-256 public key (65 bytes).',
    ],
    [
      'a compressed p256dh',
      {
        endpoint: 'https://push.example.org/x',
        keys: { ...good, p256dh: Buffer.concat([Buffer.from([2]), Buffer.alloc(64, 1)]).toString('base64url') },
      },
      'WSInvalidParameterException',
      'keys.p256dh',
      'keys.p256dh must be a base64url uncompressed P-256 public key (65 bytes).',
    ],
    [
      'no auth',
      { endpoint: 'https://push.example.org/x', keys: { p256dh: good.p256dh } },
      'WSInvalidParameterException',
      'keys.auth',
      'keys.auth is required.',
    ],
    [
      'an auth of 15 bytes',
      { endpoint: 'https://push.example.org/x', keys: { ...good, auth: crypto.randomBytes(15).toString('base64url') } },
      'WSInvalidParameterException',
      'keys.auth',
      'keys.auth must be a base64url authentication secret (16 bytes).',
    ],
    [
      'an auth of 17 bytes',
      { endpoint: 'https://push.example.org/x', keys: { ...good, auth: crypto.randomBytes(17).toString('base64url') } },
      'WSInvalidParameterException',
      'keys.auth',
      'keys.auth must be a base64url authentication secret (16 bytes).',
    ],
  ];

  it.each(cases)('refuses %s, naming the field, and stores nothing', async (_what, body, errorCode, field, message) => {
    const before = await t.countRows('push_subscription');
    const res = await register(olivia, body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { errorCode, message, field } });
    expect(await t.countRows('push_subscription')).toBe(before);
  });

  it('needs a user token', async () => {
    const res = await t.rest('POST', PATH, { body: subscriptionJson(endpointOf()) });
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('DELETE /rest/user/push-subscriptions?endpoint=', () => {
  it("removes the caller's subscription: 204", async () => {
    const endpoint = endpointOf();
    await register(olivia, subscriptionJson(endpoint));
    const res = await olivia.rest('DELETE', `${PATH}?endpoint=${encodeURIComponent(endpoint)}`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect(await rowsOf(endpoint)).toEqual([]);
  });

  it("an unknown endpoint is 204 too, and another user's subscription is left alone", async () => {
    const endpoint = endpointOf();
    await register(pat, subscriptionJson(endpoint));
    expect((await olivia.rest('DELETE', `${PATH}?endpoint=${encodeURIComponent(endpointOf())}`)).status).toBe(204);
    expect((await olivia.rest('DELETE', `${PATH}?endpoint=${encodeURIComponent(endpoint)}`)).status).toBe(204);
    expect(await rowsOf(endpoint)).toEqual([expect.objectContaining({ user_id: PAT })]);
  });

  it.each([
    ['no endpoint', '', 'WSInvalidParameterException', 'endpoint is required.'],
    ['an http endpoint', '?endpoint=http%3A%2F%2Fpush.example.org%2Fx', 'WSInvalidParameterException', 'endpoint must be an https URL.'],
    [
      'an endpoint of 1025 characters',
      `?endpoint=https://push.example.org/${'a'.repeat(1000)}`,
      'WSFieldLengthException',
      'endpoint must be at most 1024 characters.',
    ],
  ])('refuses %s', async (_what, query, errorCode, message) => {
    const res = await olivia.rest('DELETE', `${PATH}${query}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { errorCode, message, field: 'endpoint' } });
  });

  it('needs a user token', async () => {
    const res = await t.rest('DELETE', `${PATH}?endpoint=${encodeURIComponent(endpointOf())}`);
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('GraphQL', () => {
  it('vapidPublicKey, subscribePush and unsubscribePush (removed 1, then 0)', async () => {
    const endpoint = endpointOf();
    const key = await olivia.gql('{ vapidPublicKey { publicKey } }');
    expect(key.body).toEqual({ data: { vapidPublicKey: { publicKey: vapidKeys(t.config).publicKey } } });
    const sub = await olivia.gql('mutation($s: PushSubscriptionInput!) { subscribePush(subscription: $s) { endpoint registered } }', {
      s: subscriptionJson(endpoint),
    });
    expect(sub.body).toEqual({ data: { subscribePush: { endpoint, registered: expect.any(Number) } } });
    const unsub = 'mutation($e: String) { unsubscribePush(endpoint: $e) { removed } }';
    expect((await olivia.gql(unsub, { e: endpoint })).body).toEqual({ data: { unsubscribePush: { removed: 1 } } });
    expect((await olivia.gql(unsub, { e: endpoint })).body).toEqual({ data: { unsubscribePush: { removed: 0 } } });
  });

  it('a refused field carries its identifier and name', async () => {
    const res = await olivia.gql('mutation($s: PushSubscriptionInput!) { subscribePush(subscription: $s) { endpoint } }', {
      s: { endpoint: endpointOf(), keys: { p256dh: browserKeys().p256dh, auth: 'short' } },
    });
    expect(res.body.errors!.map((e: any) => [e.extensions.errorCode, e.extensions.field])).toEqual([
      ['WSInvalidParameterException', 'keys.auth'],
    ]);
  });
});

describe('the endpoint host', () => {
  it('outside tests an IP address or a localhost name is refused; a push service name is taken', () => {
    for (const host of ['127.0.0.1:8443', '[::1]', '10.0.0.7', 'localhost', 'a.localhost']) {
      expect(serviceErrorOf(() => parseEndpoint(`https://${host}/push`, false))).toEqual({
        code: 'WSInvalidParameterException',
        field: 'endpoint',
        message: 'endpoint must name a push service by its host name.',
      });
    }
    expect(parseEndpoint('https://fcm.googleapis.com/fcm/send/abc', false)).toBe('https://fcm.googleapis.com/fcm/send/abc');
    expect(parseEndpoint('https://127.0.0.1:8443/push', true)).toBe('https://127.0.0.1:8443/push');
  });
});

it('the routes are in /openapi.json', async () => {
  const doc = (await t.rest('GET', '/openapi.json')).body;
  const ops = (p: string) => Object.entries(doc.paths[p] ?? {}).map(([m, o]: [string, any]) => `${m} ${o.operationId}`);
  expect([...ops(PATH), ...ops(`${PATH}/vapid-public-key`)].sort()).toEqual(
    ['delete unsubscribePushNotifications', 'get getVapidPublicKey', 'post subscribePushNotifications'].sort(),
  );
  const successes = (op: any) => Object.keys(op.responses).filter((status) => status.startsWith('2'));
  expect({ post: successes(doc.paths[PATH].post), delete: successes(doc.paths[PATH].delete) }).toEqual({ post: ['201'], delete: ['204'] });
});
