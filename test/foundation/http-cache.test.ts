// HTTP caching of REST reads: every GET of the route table answers a strong ETag (the digest of
// the bytes sent), 304 without a body when If-None-Match names it, Cache-Control (reference data
// public for an hour, the caller's own data private and revalidated) and Vary on the credential
// header; a write changes the ETag of the list it changes.
import crypto from 'node:crypto';
import { CARA, createCompany, DEMO, grantCompanyRole, OLIVIA, supportGroupForm, SUPPORT_GROUP_PATH, useTestApp, type Reply } from '../kit';
import { SWEEP, sendCall, type Call } from '../kit/route-sweep';
import type { TestApp } from '../kit';
import type { RouteDef } from '../kit/src';
import { ROUTES } from '../kit/routes';

const t = useTestApp();
/** The same database behind an instance that answers CORS for one origin. */
const ORIGIN = 'https://app.example.org';
const withCors = useTestApp({ alongside: t, env: { CORS_ORIGINS: ORIGIN } });

const GETS = ROUTES.filter((r) => r.method === 'GET');

/** A valid call of each public GET (the protected ones are the authorization sweep's). */
const PUBLIC_CALLS: Record<string, Call> = {
  getLoginScheme: { query: 'email=olivia%40demo.example' },
  getAllTimezones: { query: 'countryCode=NZ' },
  getStates: { query: 'countryCode=AU' },
  getSpecialties: { query: `professionId=${DEMO.professions.doctor}` },
};

/** A QR code of a support group Cara creates (the demo tenant has none). */
async function qrCodeCall(app: TestApp): Promise<Call> {
  const res = await app
    .as(CARA)
    .with({ 'x-service-company-api-key': DEMO.companyApiKey })
    .multipart(SUPPORT_GROUP_PATH, supportGroupForm());
  expect(res.status).toBe(200);
  return { params: { qrCodeId: res.body.qrCodeId } };
}

async function callOf(route: RouteDef): Promise<Call> {
  if (route.operation === 'downloadSupportGroupQrCode') return qrCodeCall(t);
  const sweep = SWEEP[route.operation];
  if (sweep === 'public') return PUBLIC_CALLS[route.operation] ?? {};
  const { call } = sweep;
  return typeof call === 'function' ? call(t) : call;
}

/** Olivia reads what is hers; Cara, Northwind's administrator, what needs the company's roles. */
const CALLER: Record<string, number> = {
  getSentNotifications: CARA,
  getSentScheduledNotifications: CARA,
  getCompanyConnections: CARA,
  downloadSupportGroupQrCode: CARA,
};

async function credentialsOf(route: RouteDef): Promise<Record<string, string>> {
  if (route.credential === 'none') return {};
  expect(route.credential).toBe('user');
  return { 'x-service-authtoken': await t.as(CALLER[route.operation] ?? OLIVIA).token() };
}

/** What the policy answers, said here as a client reads it. */
const expectedPolicy = (route: RouteDef) =>
  route.credential === 'none'
    ? { cacheControl: route.operation === 'getLoginScheme' ? 'no-cache' : 'public, max-age=3600', vary: null }
    : { cacheControl: 'private, no-cache', vary: 'x-service-authtoken' };

const sha256Tag = (bytes: Buffer) => `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
const md5Tag = (bytes: Buffer) => `"${crypto.createHash('md5').update(bytes).digest('hex')}"`;

const cacheHeaders = (res: Reply) => ({
  status: res.status,
  etag: res.headers.get('etag'),
  cacheControl: res.headers.get('cache-control'),
  vary: res.headers.get('vary'),
});

it('every GET of the route table has a valid call here (a new one is a case below)', () => {
  expect(GETS.length).toBeGreaterThan(0);
  for (const r of GETS) expect({ op: r.operation, known: SWEEP[r.operation] !== undefined }).toEqual({ op: r.operation, known: true });
});

describe.each(GETS.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it('when read, then a strong ETag of the bytes, Cache-Control and Vary; asked again with it, then 304 without a body', async () => {
    const call = await callOf(route);
    const headers = await credentialsOf(route);
    const res = await sendCall(t, route, call, headers);
    const policy = expectedPolicy(route);
    // A file's tag is the MD5 of its bytes (stored with it); an answer's is the SHA-256 of its JSON.
    const tag = route.respond ? md5Tag(res.bytes) : sha256Tag(res.bytes);
    expect(cacheHeaders(res)).toEqual({ status: 200, etag: tag, ...policy });
    expect(res.bytes.length).toBeGreaterThan(0);

    const again = await sendCall(t, route, call, { ...headers, 'if-none-match': tag });
    expect({ ...cacheHeaders(again), bytes: again.bytes.length }).toEqual({ status: 304, etag: tag, ...policy, bytes: 0 });
    // A weak form of the tag, or a list holding it, matches too (If-None-Match compares weakly).
    const listed = await sendCall(t, route, call, { ...headers, 'if-none-match': `"other", W/${tag}` });
    expect(listed.status).toBe(304);
    const stale = await sendCall(t, route, call, { ...headers, 'if-none-match': '"stale"' });
    expect({ status: stale.status, etag: stale.headers.get('etag'), same: stale.bytes.equals(res.bytes) }).toEqual({
      status: 200,
      etag: tag,
      same: true,
    });
  });
});

describe('whole lists', () => {
  it('when a whole list is longer than the service holds (1 MB), then it is streamed: private, no-cache, without an ETag', async () => {
    const c = await createCompany(t.orm);
    await grantCompanyRole(t.orm, CARA, c.companyId, 'PUSH_NOTIFICATION');
    const message = 'x'.repeat(250);
    await t.sql(
      `insert into "sent_notification" ("notification_id", "type", "company_id", "message", "description", "successful", "total_notifications_sent",
         "notification_created", "notification_modified", "notification_created_by", "notification_modified_by")
       select ? + g, 'GT', ?, ?, ?, true, 1, now() - g * interval '1 second', now(), '${CARA}', '${CARA}' from generate_series(1, 4000) g`,
      [7_000_000 + c.companyId * 10_000, c.companyId, message, message],
    );
    const res = await t.as(CARA).rest('GET', `/rest/notification/sent?version=1&broadcastType=GT&companyId=${c.companyId}`);
    expect(res.bytes.length).toBeGreaterThan(1024 * 1024);
    expect({ ...cacheHeaders(res), count: res.body.length }).toEqual({
      status: 200,
      etag: null,
      cacheControl: 'private, no-cache',
      vary: 'x-service-authtoken',
      count: 4000,
    });
    // A page of it is an ordinary answer.
    const page = await t.as(CARA).rest('GET', `/rest/notification/sent?version=1&broadcastType=GT&companyId=${c.companyId}&pageNum=2`);
    expect(page.headers.get('etag')).toBe(sha256Tag(page.bytes));
  });
});

describe('errors and CORS', () => {
  it('when a read is refused, then it carries no caching headers', async () => {
    const res = await t.rest('GET', '/rest/refdata/states?countryCode=AUS');
    expect(res.status).toBe(400);
    expect(cacheHeaders(res)).toEqual({ status: 400, etag: null, cacheControl: null, vary: null });
    const anonymous = await t.rest('GET', '/rest/user/addresses');
    expect(cacheHeaders(anonymous)).toEqual({ status: 401, etag: null, cacheControl: null, vary: null });
  });

  it('when CORS is on, then Vary keeps Origin beside the credential header, and the RateLimit fields are exposed', async () => {
    const headers = { origin: ORIGIN, 'x-service-authtoken': await withCors.as(OLIVIA).token() };
    const res = await withCors.rest('GET', '/rest/user/addresses', { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('Origin, x-service-authtoken');
    expect(res.headers.get('access-control-expose-headers')).toBe('x-request-id,etag,retry-after,ratelimit,ratelimit-policy');
    const again = await withCors.rest('GET', '/rest/user/addresses', {
      headers: { ...headers, 'if-none-match': res.headers.get('etag')! },
    });
    expect({ status: again.status, vary: again.headers.get('vary') }).toEqual({ status: 304, vary: 'Origin, x-service-authtoken' });
  });

  it('when CORS is on and a read fails, then the error keeps the CORS headers and none of the caching ones', async () => {
    const cors = (res: Reply) => ({ ...cacheHeaders(res), allowOrigin: res.headers.get('access-control-allow-origin'), body: res.body });
    const unknown = await withCors.rest('GET', '/rest/user/addresses', { headers: { origin: ORIGIN, 'x-service-authtoken': 'unknown' } });
    expect(cors(unknown)).toEqual({
      status: 401,
      etag: null,
      cacheControl: null,
      vary: 'Origin',
      allowOrigin: ORIGIN,
      body: { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' },
    });
    const invalid = await withCors.rest('GET', '/rest/refdata/timezones?countryCode=aus', { headers: { origin: ORIGIN } });
    expect(cors(invalid)).toEqual({
      status: 400,
      etag: null,
      cacheControl: null,
      vary: 'Origin',
      allowOrigin: ORIGIN,
      body: {
        errorCode: 'WSInvalidParameterException',
        message: 'countryCode must be a two-letter ISO 3166-1 code.',
        field: 'countryCode',
      },
    });
  });
});

describe('a write changes the ETag of the list it changes', () => {
  /** The list's ETag, checked to still answer 304 until the next write. */
  async function tagOf(read: (h?: Record<string, string>) => Promise<Reply>): Promise<string> {
    const res = await read();
    expect(res.status).toBe(200);
    const tag = res.headers.get('etag')!;
    expect((await read({ 'if-none-match': tag })).status).toBe(304);
    return tag;
  }

  it('when an address is added, updated and deleted, then GET addresses answers a new ETag each time, and 200 to the old one', async () => {
    const u = await t.newUser();
    const read = (headers?: Record<string, string>) => u.rest('GET', '/rest/user/addresses', { headers });
    const tags = [await tagOf(read)];
    const created = await u.rest('POST', '/rest/user/addresses', { body: { typeCode: 'O', name: 'Holiday', city: 'Sydney' } });
    expect(created.status).toBe(200);
    tags.push(await tagOf(read));
    const uuid = created.body.uuid;
    expect((await u.rest('PUT', `/rest/user/addresses/${uuid}`, { body: { uuid, city: 'Melbourne' } })).status).toBe(200);
    tags.push(await tagOf(read));
    expect((await u.rest('DELETE', `/rest/user/addresses/${uuid}`)).status).toBe(204);
    tags.push(await tagOf(read));
    expect(new Set(tags.slice(0, 3)).size).toBe(3);
    // Deleted, the list is what it was before the address: the same bytes, the same tag.
    expect(tags[3]).toBe(tags[0]);
    const stale = await read({ 'if-none-match': tags[2] });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual([]);
  });

  it('when a notification is marked read, then the inbox answers a new ETag', async () => {
    const olivia = t.as(OLIVIA);
    const read = (headers?: Record<string, string>) => olivia.rest('GET', '/rest/user/notifications?version=1', { headers });
    const before = await tagOf(read);
    const unread = (await read()).body.find((n: { read: boolean }) => !n.read);
    expect(unread).toBeDefined();
    expect((await olivia.rest('PUT', `/rest/user/notifications/${unread.notificationId}/read`)).status).toBe(204);
    const after = await read({ 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(after.body.find((n: { notificationId: number }) => n.notificationId === unread.notificationId).read).toBe(true);
  });

  it('when a notification is sent, then the whole list of sent notifications answers a new ETag', async () => {
    const cara = t.as(CARA);
    const path = `/rest/notification/sent?version=1&broadcastType=GT&companyId=${DEMO.companies.northwind}`;
    const read = (headers?: Record<string, string>) => cara.rest('GET', path, { headers });
    const before = await tagOf(read);
    const sent = await cara.rest('POST', '/rest/notification/send', {
      body: { broadcastType: 'GT', companyId: DEMO.companies.northwind, valueIds: [String(DEMO.teamId)], message: 'Cache check' },
    });
    expect(sent.status).toBe(200);
    const after = await read({ 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).toBe(sha256Tag(after.bytes));
    expect(after.body[0].message).toBe('Cache check');
  });
});
