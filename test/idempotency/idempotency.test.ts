// Idempotency-Key on REST and GraphQL mutations: a repeat of the same request replays the first
// answer (stored with the write, per caller and key, for 24 hours), another request under the key
// is 422, a repeat while the first runs is 409; without the header nothing changes.
import crypto from 'node:crypto';
import { CARA, DEMO, NORTHWIND, newPublisher, png, uniquePdf, upload, useTestApp, startTestApp, type Client, type Publisher } from '../kit';
import type { HookEvents } from '../../src/core/hooks';
import { purgeExpiredKeys } from '../../src/modules/idempotency';
import { IDEMPOTENCY_PURGE_QUEUE } from '../../src/modules/idempotency/idempotency.purge';
import { runRecurringJob } from '../kit/queue';
import { HOLIDAY_ADDRESS } from './requests';

const t = useTestApp();

const key = () => crypto.randomUUID();
const withKey = (k: string) => ({ 'idempotency-key': k });
const ADDRESS = HOLIDAY_ADDRESS;
const createAddress = (who: Client, k: string | null, body: Record<string, unknown> = ADDRESS) =>
  who.rest('POST', '/rest/user/addresses', { body, headers: k === null ? {} : withKey(k) });
const keyRows = (scope: string) =>
  t.sql('select key, status, fingerprint, body from idempotency_key where scope = ? order by key', [scope]);
const addressCount = async (uId: number) => Number((await t.sql('select count(*)::int n from user_address where user_id = ?', [uId]))[0].n);
const keyError = (status: number) => ({
  status,
  body: { errorCode: 'WSInvalidParameterException', message: expect.any(String), field: 'Idempotency-Key' },
});

describe('REST mutation with Idempotency-Key', () => {
  it('when the same request is sent twice with one key, then the second is answered the first answer, replayed, and one address is stored', async () => {
    const u = await t.newUser();
    const k = key();
    const first = await createAddress(u, k);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await createAddress(u, k);
    expect({ status: again.status, body: again.body, type: again.headers.get('content-type') }).toEqual({
      status: 200,
      body: first.body,
      type: first.headers.get('content-type'),
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await addressCount(u.uId)).toBe(1);
    const rows = await keyRows(`user:${u.uId}`);
    expect(rows).toEqual([{ key: k, status: 200, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), body: JSON.stringify(first.body) }]);
  });

  it('when the key comes back with another body, then 422 naming Idempotency-Key and nothing more is written', async () => {
    const u = await t.newUser();
    const k = key();
    expect((await createAddress(u, k)).status).toBe(200);
    expect(await createAddress(u, k, { ...ADDRESS, name: 'Office' })).toMatchObject(keyError(422));
    expect(await addressCount(u.uId)).toBe(1);
    expect(await keyRows(`user:${u.uId}`)).toHaveLength(1);
  });

  it('when another user sends the same key, then it is theirs: their own address is created', async () => {
    const [a, b] = [await t.newUser(), await t.newUser()];
    const k = key();
    expect((await createAddress(a, k)).status).toBe(200);
    const res = await createAddress(b, k);
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect([await addressCount(a.uId), await addressCount(b.uId)]).toEqual([1, 1]);
  });

  it('when the request fails, then nothing is kept: a corrected retry with the same key writes and is stored', async () => {
    const u = await t.newUser();
    const k = key();
    const bad = await createAddress(u, k, { ...ADDRESS, countryCode: 'ZZ' });
    expect(bad.status).toBe(400);
    expect(await keyRows(`user:${u.uId}`)).toEqual([]);
    expect((await createAddress(u, k)).status).toBe(200);
    expect(await addressCount(u.uId)).toBe(1);
    expect(await keyRows(`user:${u.uId}`)).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'clé-1'],
    ['a broken quoted string', '"ab"c"'],
  ])('when the key is %s, then 400 naming Idempotency-Key and nothing is written', async (_what, value) => {
    const u = await t.newUser();
    const res = await u.rest('POST', '/rest/user/addresses', { body: ADDRESS, headers: { 'idempotency-key': value } });
    expect(res).toMatchObject(keyError(400));
    expect(await addressCount(u.uId)).toBe(0);
  });

  it('when the key is sent as a quoted string (the draft), then it is the same key as bare', async () => {
    const u = await t.newUser();
    const k = key();
    const first = await createAddress(u, `"${k}"`);
    const again = await createAddress(u, k);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await addressCount(u.uId)).toBe(1);
  });

  it('when no key is sent, then the same request twice writes twice and no statement touches the keys', async () => {
    const u = await t.newUser();
    const statements: string[] = [];
    const counted = await t.countStatements(async () => {
      expect((await createAddress(u, null)).status).toBe(200);
      statements.push(...t.db.statements);
    });
    expect((await createAddress(u, null)).status).toBe(200);
    expect(await addressCount(u.uId)).toBe(2);
    expect(statements.filter((s) => /idempotency_key|advisory/.test(s))).toEqual([]);
    expect(counted).toBeGreaterThan(0);
    await t.countStatements(async () => {
      expect((await createAddress(u, key())).status).toBe(200);
      statements.push(...t.db.statements);
    });
    // With a key: the key held, its answer looked for, the answer stored (in the write's transaction).
    expect(statements.filter((s) => /idempotency_key|advisory/.test(s)).map((s) => s.split(' ')[0].toLowerCase())).toEqual([
      'select',
      'select',
      'insert',
    ]);
  });

  it('when a delete is repeated with its key, then the second is answered 204 again and not 404', async () => {
    const u = await t.newUser();
    const { uuid } = (await createAddress(u, null)).body;
    const k = key();
    const first = await u.rest('DELETE', `/rest/user/addresses/${uuid}`, { headers: withKey(k) });
    const again = await u.rest('DELETE', `/rest/user/addresses/${uuid}`, { headers: withKey(k) });
    expect([first.status, again.status]).toEqual([first.status, first.status]);
    expect(first.status).toBeLessThan(300);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await u.rest('DELETE', `/rest/user/addresses/${uuid}`)).toMatchObject({ status: 404 });
  });
});

// On the embedded database one connection serialises transactions: a second request waits for the
// first one's commit before it can even check its credential, so there is no "still running" to see.
(process.env.DATABASE_URL ? describe : describe.skip)('a repeat while the first request still runs', () => {
  let p: Publisher;
  beforeAll(async () => {
    p = await newPublisher(t);
  });
  const entry = (name: string) => ({
    smartLibId: p.smartLibId,
    smartEntryType: 'URL',
    smartEntryName: name,
    smartEntryUrlLink: 'https://guidelines.example/portal',
    sendNotification: true,
  });
  const entries = async (name: string) =>
    Number(
      (await t.sql('select count(*)::int n from smart_entry where smart_lib_id = ? and smart_entry_name = ?', [p.smartLibId, name]))[0].n,
    );

  /** Holds createSmartEntry's transaction open (its publish hook waits) until `release` is called. */
  function holdPublishing() {
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const inside = new Promise<void>((r) => (entered = r));
    const remove = t.app.services.hooks.add('smartEntryPublished', async (_e: HookEvents['smartEntryPublished']) => {
      entered();
      await held;
    });
    return {
      /** Resolves once the first request is inside its transaction; throws if it answered before getting there. */
      entered: (first: Promise<{ status: number; body: unknown }>) =>
        Promise.race([
          inside,
          first.then((res) => {
            throw new Error(`the first request answered ${res.status} ${JSON.stringify(res.body)} before publishing`);
          }),
        ]),
      release: () => (release(), remove()),
    };
  }

  it('when the same key comes while the first is in its transaction, then 409 naming Idempotency-Key; afterwards the first answer is replayed', async () => {
    const k = key();
    const name = `Held ${k}`;
    const hold = holdPublishing();
    const first = p.rest('POST', '/rest/smartlib/smartentry', { body: entry(name), headers: withKey(k) });
    await hold.entered(first);
    const during = await p.rest('POST', '/rest/smartlib/smartentry', { body: entry(name), headers: withKey(k) }).finally(hold.release);
    expect(during).toMatchObject(keyError(409));
    const answered = await first;
    expect(answered.status).toBe(200);
    const after = await p.rest('POST', '/rest/smartlib/smartentry', { body: entry(name), headers: withKey(k) });
    expect({ status: after.status, body: after.body, replayed: after.headers.get('idempotent-replayed') }).toEqual({
      status: 200,
      body: answered.body,
      replayed: 'true',
    });
    expect(await entries(name)).toBe(1);
  });

  it('when the repeat reaches another instance, then it is 409 too (the key is held in the database)', async () => {
    const other = await startTestApp({ db: t.db });
    try {
      const k = key();
      const name = `Held elsewhere ${k}`;
      const hold = holdPublishing();
      const first = p.rest('POST', '/rest/smartlib/smartentry', { body: entry(name), headers: withKey(k) });
      await hold.entered(first);
      const during = await other
        .as(p.uId)
        .rest('POST', '/rest/smartlib/smartentry', { body: entry(name), headers: withKey(k) })
        .finally(hold.release);
      expect(during).toMatchObject(keyError(409));
      expect((await first).status).toBe(200);
      expect(await entries(name)).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('multipart uploads and scheduled notifications', () => {
  it('when a file upload is repeated with its key, then the same temporary file comes back and one upload is stored; another file is 422', async () => {
    const p = await newPublisher(t);
    const k = key();
    const pdf = uniquePdf();
    const keyed = { 'idempotency-key': k };
    const first = await p.multipart('/rest/smartlib/upload/file', { file: { content: pdf, filename: 'a.pdf' } }, keyed);
    const again = await p.multipart('/rest/smartlib/upload/file', { file: { content: pdf, filename: 'a.pdf' } }, keyed);
    expect(first.status).toBe(200);
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({
      status: 200,
      body: first.body,
      replayed: 'true',
    });
    const other = await p.multipart('/rest/smartlib/upload/file', { file: { content: uniquePdf(), filename: 'a.pdf' } }, keyed);
    expect(other).toMatchObject(keyError(422));
    expect(await t.sql('select temp_name from smart_upload where user_id = ?', [p.uId])).toEqual([{ temp_name: first.body.tempFilename }]);
    // A tile without a key still uploads as before.
    expect((await upload(p, '/rest/smartlib/upload/tile', await png(), 'tile.png')).status).toBe(200);
  });

  it('when a scheduled notification is repeated with its key, then one is scheduled', async () => {
    const cara = t.as(CARA);
    const k = key();
    const message = `Scheduled ${k}`;
    const body = {
      broadcastType: 'GT',
      companyId: NORTHWIND,
      valueIds: [String(DEMO.teamId)],
      message,
      scheduleLocalDateTime: '2035-01-01T09:00',
      scheduleTimezoneId: 'Australia/Sydney',
    };
    const first = await cara.rest('POST', '/rest/notification/send', { body, headers: withKey(k) });
    const again = await cara.rest('POST', '/rest/notification/send', { body, headers: withKey(k) });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await t.sql('select count(*)::int n from scheduled_notification where message = ?', [message])).toEqual([{ n: 1 }]);
  });
});

describe('GraphQL mutation with Idempotency-Key', () => {
  const CREATE = `mutation($input: AddressInput!) { createUserAddress(input: $input) { uuid name city } }`;

  it('when the same mutation is sent twice with one key, then the second is the first answer, replayed; other variables are 422', async () => {
    const u = await t.newUser();
    const k = key();
    const first = await u.gql(CREATE, { input: ADDRESS }, withKey(k));
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const again = await u.gql(CREATE, { input: ADDRESS }, withKey(k));
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({
      status: 200,
      body: first.body,
      replayed: 'true',
    });
    expect(await addressCount(u.uId)).toBe(1);
    const other = await u.gql(CREATE, { input: { ...ADDRESS, name: 'Office' } }, withKey(k));
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({ errorCode: 'WSInvalidParameterException', field: 'Idempotency-Key' }),
      }),
    ]);
    expect(await addressCount(u.uId)).toBe(1);
    // A key means nothing to a query.
    expect((await u.gql('{ __typename }', {}, withKey(k))).body).toEqual({ data: { __typename: 'Query' } });
  });

  it('when the mutation fails, then nothing is kept and a corrected retry with the key writes', async () => {
    const u = await t.newUser();
    const k = key();
    const bad = await u.gql(CREATE, { input: { ...ADDRESS, countryCode: 'ZZ' } }, withKey(k));
    expect(bad.body.errors?.[0]?.extensions?.errorCode).toBe('WSInvalidParameterException');
    expect(await keyRows(`user:${u.uId}`)).toEqual([]);
    const good = await u.gql(CREATE, { input: ADDRESS }, withKey(k));
    expect(good.body.errors).toBeUndefined();
    expect(await addressCount(u.uId)).toBe(1);
  });
});

describe('24 hours', () => {
  it('when a key is repeated after 24 hours, then it runs again; the purge removes the expired answer', async () => {
    const u = await t.newUser();
    const k = key();
    const start = new Date();
    const clock = jest.spyOn(t.app.services.clock, 'now').mockReturnValue(start);
    try {
      expect((await createAddress(u, k)).status).toBe(200);
      clock.mockReturnValue(new Date(start.getTime() + 24 * 3600_000 - 1000));
      expect((await createAddress(u, k)).headers.get('idempotent-replayed')).toBe('true');
      expect(await addressCount(u.uId)).toBe(1);
      clock.mockReturnValue(new Date(start.getTime() + 24 * 3600_000 + 1000));
      const late = await createAddress(u, k);
      expect(late.status).toBe(200);
      expect(late.headers.get('idempotent-replayed')).toBeNull();
      expect(await addressCount(u.uId)).toBe(2);
    } finally {
      clock.mockRestore();
    }
    const stored = await keyRows(`user:${u.uId}`);
    expect(stored).toHaveLength(1);
    const em = t.orm.em.fork();
    await purgeExpiredKeys(em, new Date(start.getTime() + 47 * 3600_000));
    expect(await keyRows(`user:${u.uId}`)).toHaveLength(1);
    expect(await purgeExpiredKeys(em, new Date(start.getTime() + 49 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(await keyRows(`user:${u.uId}`)).toEqual([]);
  });

  it('when the queue workers run, then the purge is an hourly schedule, and its job removes an expired answer', async () => {
    const u = await t.newUser();
    expect((await createAddress(u, key())).status).toBe(200);
    await t.sql(`update idempotency_key set expires_at = now() - interval '1 minute' where scope = ?`, [`user:${u.uId}`]);
    const schedule = await runRecurringJob(t, IDEMPOTENCY_PURGE_QUEUE, async () => (await keyRows(`user:${u.uId}`)).length === 0);
    expect(schedule).toEqual([{ name: IDEMPOTENCY_PURGE_QUEUE, cron: '30 * * * *' }]);
    expect(await keyRows(`user:${u.uId}`)).toEqual([]);
  });
});
