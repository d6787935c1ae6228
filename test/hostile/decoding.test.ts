// Hostile input at the decoding layer (issue 37, rows 3, 4, 6, 7, 8 and 10): bodies that cannot be
// parsed end within a second with the service's identifier and `field: body`, leaving nothing open;
// text is text (no NUL, no unpaired surrogate, no bytes that are not UTF-8) on REST, GraphQL and the
// token endpoint's form, refused naming the field before anything reaches PostgreSQL; a part given
// twice is refused naming it. Each request goes out on a connection of its own, as sent.
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import {
  DEMO,
  GQL_ACCEPT,
  OLIVIA,
  CARA,
  newPublisher,
  supportGroupForm,
  SUPPORT_GROUP_PATH,
  uniquePdf,
  useDemoApp,
  type Publisher,
} from '../kit';
import { DEMO_CLIENT, passwordParams } from '../kit/oauth';

const { t, olivia, admin } = useDemoApp();

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  ms: number;
}

/** One request on a connection of its own, the body sent byte for byte; the answer parsed when JSON. */
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Raw> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.baseUrl}${path}`, { method, agent: false, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const json = (res.headers['content-type'] ?? '').includes('json') && text;
        resolve({ status: res.statusCode!, headers: res.headers, body: json ? JSON.parse(text) : text, ms: performance.now() - started });
      });
    });
    req.setTimeout(5000, () => req.destroy(new Error(`no answer to ${method} ${path} within 5 s`)));
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

const openDescriptors = () => fs.readdirSync('/proc/self/fd').length;

/** Runs `fn`, then waits (at most 2 s) for the process to hold no more descriptors than before it. */
async function leavesNothingOpen(fn: () => Promise<void>): Promise<void> {
  const before = openDescriptors();
  await fn();
  const deadline = Date.now() + 2000;
  while (openDescriptors() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(openDescriptors()).toBeLessThanOrEqual(before);
}

const invalid = (field: string, message: string) => ({ errorCode: 'WSInvalidParameterException', message, field });
const notText = (field: string) => invalid(field, `${field} holds a character that is not text (NUL or an unpaired surrogate).`);
const MALFORMED = invalid('body', 'The multipart body is malformed or incomplete.');

let publisher: Publisher;
beforeAll(async () => {
  publisher = await newPublisher(t);
});

describe('a body that cannot be parsed ends at once (rows 3, 6, 7)', () => {
  it('when /graphql gets multipart/form-data without a boundary, then 400 naming body within a second, and nothing stays open', async () => {
    await leavesNothingOpen(async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          send('POST', '/graphql', { 'content-type': 'multipart/form-data', 'apollo-require-preflight': '1' }, 'x'.repeat(100)),
        ),
      );
      for (const res of answers) {
        expect(res).toMatchObject({ status: 400, body: MALFORMED });
        expect(res.ms).toBeLessThan(1000);
      }
    });
  });

  it('when /graphql gets a multipart body that is not one, then 400 naming body', async () => {
    const res = await send(
      'POST',
      '/graphql',
      { 'content-type': 'multipart/form-data; boundary=xyz', 'apollo-require-preflight': '1' },
      '--xyz\r\nnot a part header\r\n\r\n',
    );
    expect(res).toMatchObject({ status: 400, body: MALFORMED });
  });

  it.each([
    ['the upload route', '/rest/smartlib/upload/file', () => publisher.token()],
    ['the support-group form', SUPPORT_GROUP_PATH, () => t.as(CARA).token()],
  ])('when %s gets multipart/form-data without a boundary, then 400 naming body, and nothing stays open', async (_name, path, token) => {
    const headers = {
      'content-type': 'multipart/form-data',
      'x-service-authtoken': await token(),
      'x-service-company-api-key': DEMO.companyApiKey,
    };
    await leavesNothingOpen(async () => {
      const res = await send('POST', path, headers, 'x'.repeat(1000));
      expect(res).toMatchObject({ status: 400, body: MALFORMED });
      expect(res.ms).toBeLessThan(1000);
    });
  });

  const query = JSON.stringify({ query: '{ conditionsVersion { version } }' });

  it.each(['gzip', 'deflate', 'br'])(
    'when a JSON body says content-encoding %s but is not compressed, then 400 naming body',
    async (encoding) => {
      const logged = t.logs.length;
      for (const path of ['/graphql', '/rest/user/addresses']) {
        const res = await send(
          'POST',
          path,
          { 'content-type': 'application/json', 'content-encoding': encoding, 'x-service-authtoken': await olivia.token() },
          query,
        );
        expect(res).toMatchObject({ status: 400, body: invalid('body', `The request body is not valid ${encoding} data.`) });
      }
      expect(t.logs.slice(logged).filter((l) => l.level >= 50)).toEqual([]);
    },
  );

  it('when a JSON body is compressed as it says, then it is served', async () => {
    for (const [encoding, compress] of [
      ['gzip', zlib.gzipSync],
      ['deflate', zlib.deflateSync],
      ['br', zlib.brotliCompressSync],
    ] as const) {
      const res = await send('POST', '/graphql', { 'content-type': 'application/json', 'content-encoding': encoding }, compress(query));
      expect(res).toMatchObject({ status: 200, body: { data: { conditionsVersion: { version: expect.any(Number) } } } });
    }
  });

  it('when a body comes in an encoding the service does not know, then 415 naming body', async () => {
    const res = await send('POST', '/graphql', { 'content-type': 'application/json', 'content-encoding': 'compress' }, query);
    expect(res).toMatchObject({
      status: 415,
      body: invalid('body', 'The content encoding compress is not supported (gzip, deflate, br or none).'),
    });
  });

  it('when a gzip body inflates past the 1 MB limit, then 413', async () => {
    const bomb = zlib.gzipSync(Buffer.from(`{"query":"${' '.repeat(3 * 1024 * 1024)}"}`));
    const res = await send('POST', '/graphql', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb);
    expect(res).toMatchObject({ status: 413, body: { errorCode: 'WSLimitExceededException', message: 'The request body is too large.' } });
  });
});

describe('text is text (rows 4 and 8)', () => {
  const address = (street: string) => ({ typeCode: 'O', street, city: 'Sydney', countryCode: 'AU' });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['an unpaired surrogate', 'Ab\ud800cd'],
    ['a lone low surrogate', '\udc00'],
  ])('when an address holds %s, then 400 naming street over REST and GraphQL, and nothing is stored', async (_what, street) => {
    const u = await t.newUser();
    const rest = await u.rest('POST', '/rest/user/addresses', { body: address(street) });
    expect(rest).toMatchObject({ status: 400, body: notText('street') });
    const gql = await u.gql('mutation($input: AddressInput!) { createUserAddress(input: $input) { uuid } }', {
      input: address(street),
    });
    expect(gql.status).toBe(400);
    expect(gql.body).toEqual({
      errors: [
        expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'street' } }),
      ],
    });
    expect(await t.countRows('user_address', { user_id: u.uId })).toBe(0);
  });

  it('when a GraphQL document holds a NUL in a string literal, then 400 naming the argument', async () => {
    const res = await t.gql('{ loginScheme(email: "a\\u0000b@x.example") { authType } }');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          message: 'email holds a character that is not text (NUL or an unpaired surrogate).',
          extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'email' },
        },
      ],
    });
  });

  it('when GraphQL over GET carries a NUL in its variables, then 400 naming the variable', async () => {
    const params = new URLSearchParams({
      query: 'query($c: String!) { states(countryCode: $c) { stateCode } }',
      variables: JSON.stringify({ c: 'A\u0000U' }),
    });
    const res = await send('GET', `/graphql?${params.toString()}`, { 'apollo-require-preflight': '1', ...GQL_ACCEPT });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'c' });
  });

  it('when a query parameter holds a NUL or bytes that are not UTF-8, then 400 naming it, never 5xx', async () => {
    for (const raw of ['a%00b%40x.example', '%FF%FE%40x.example', 'a%ED%A0%80b']) {
      const res = await send('GET', `/rest/user/login-scheme?email=${raw}`, {});
      expect(res).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'email' } });
    }
    const searched = await send(
      'POST',
      '/rest/user/recommended/entities',
      { 'content-type': 'application/json', 'x-service-authtoken': await olivia.token() },
      JSON.stringify({ uId: OLIVIA, searchTerms: 'heart\u0000' }),
    );
    expect(searched).toMatchObject({ status: 400, body: notText('searchTerms') });
  });

  it('when a JSON body is not UTF-8, then 400 naming body: refused, not replaced', async () => {
    const u = await t.newUser();
    const bytes = Buffer.concat([Buffer.from('{"typeCode":"O","street":"Caf'), Buffer.from([0xe9]), Buffer.from('","countryCode":"AU"}')]);
    const res = await send(
      'POST',
      '/rest/user/addresses',
      { 'content-type': 'application/json', 'x-service-authtoken': await u.token() },
      bytes,
    );
    expect(res).toMatchObject({ status: 400, body: invalid('body', 'The request body is not UTF-8.') });
    expect(await t.countRows('user_address', { user_id: u.uId })).toBe(0);
  });

  it('when text outside the Basic Multilingual Plane is sent whole, then it is stored and answered as sent', async () => {
    const u = await t.newUser();
    const res = await u.rest('POST', '/rest/user/addresses', { body: address('Caf\u00e9 \ud83d\ude00 Road') });
    expect(res.status).toBe(200);
    expect(res.body.street).toBe('Caf\u00e9 \ud83d\ude00 Road');
    expect((await t.row('user_address', { user_id: u.uId })).street).toBe('Caf\u00e9 \ud83d\ude00 Road');
  });

  it.each([
    ['client_id', { client_id: 'demo\u0000mobile' }],
    ['username', { username: 'olivia\u0000@demo.example' }],
  ])('when the token endpoint gets a NUL in %s, then invalid_request naming it, and no failure is counted', async (field, extra) => {
    const before = await t.countRows('auth_rate_limit');
    const body = new URLSearchParams({ ...passwordParams('olivia@demo.example'), ...extra }).toString();
    const res = await send('POST', '/as/token.oauth2', { 'content-type': 'application/x-www-form-urlencoded' }, body);
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: `Parameter ${field} is not valid text.` },
    });
    expect(await t.countRows('auth_rate_limit')).toBe(before);
  });

  it('when the token endpoint gets a form whose bytes or escapes are not UTF-8, then invalid_request', async () => {
    const base = `grant_type=password&scope=sso&client_id=${DEMO_CLIENT.clientId}&client_secret=${DEMO_CLIENT.secret}&password=x`;
    const escaped = await send('POST', '/as/token.oauth2', { 'content-type': 'application/x-www-form-urlencoded' }, `${base}&username=%FF`);
    expect(escaped).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Parameter username is not valid text.' },
    });
    const raw = Buffer.concat([Buffer.from(`${base}&username=`), Buffer.from([0xff, 0xfe])]);
    const bytes = await send('POST', '/as/token.oauth2', { 'content-type': 'application/x-www-form-urlencoded' }, raw);
    expect(bytes).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'The request body is not UTF-8.' } });
  });

  it('when a form part holds a NUL, then 400 naming it, and nothing is created', async () => {
    const before = await t.countRows('team');
    const res = await admin.multipart(SUPPORT_GROUP_PATH, supportGroupForm({ supportGroupName: 'Heart\u0000 Failure' }));
    expect(res).toMatchObject({ status: 400, body: notText('supportGroupName') });
    expect(await t.countRows('team')).toBe(before);
  });
});

describe('multipart text parts are UTF-8 unless they declare a charset', () => {
  /** The support-group form as raw multipart bytes, supportGroupName given as `name` with the part's own headers. */
  function rawForm(name: Buffer, partHeaders: string[] = []): { type: string; body: Buffer } {
    const boundary = `----raw${Date.now()}`;
    const parts: Buffer[] = [];
    const part = (field: string, value: Buffer, headers: string[] = []) =>
      parts.push(
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`),
        value,
        Buffer.from('\r\n'),
      );
    for (const [field, value] of Object.entries(supportGroupForm())) {
      if (field !== 'supportGroupName' && typeof value === 'string') part(field, Buffer.from(value, 'utf8'));
    }
    part('supportGroupName', name, partHeaders);
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
  }

  async function post(form: { type: string; body: Buffer }) {
    const headers = {
      'content-type': form.type,
      'x-service-authtoken': await t.as(CARA).token(),
      'x-service-company-api-key': DEMO.companyApiKey,
    };
    return send('POST', SUPPORT_GROUP_PATH, headers, form.body);
  }

  it('when a part without a charset holds bytes that are not UTF-8, then 400 naming it: refused, not replaced, and nothing is created', async () => {
    const before = await t.countRows('team');
    for (const bytes of [[0xe9], [0xc3], [0xed, 0xa0, 0x80], [0xff, 0xfe]]) {
      const res = await post(rawForm(Buffer.concat([Buffer.from('Caf'), Buffer.from(bytes), Buffer.from(' Group')])));
      expect(res).toMatchObject({ status: 400, body: invalid('supportGroupName', 'supportGroupName holds bytes that are not UTF-8.') });
    }
    expect(await t.countRows('team')).toBe(before);
  });

  it.each([
    ['UTF-8 without a charset', Buffer.from('Caf\u00e9 \ud83d\ude00 Group', 'utf8'), []],
    ['UTF-8, declared', Buffer.from('Caf\u00e9 \ud83d\ude00 Group', 'utf8'), ['content-type: text/plain; charset=UTF-8']],
  ])('when a part is %s, then its text is stored as sent', async (_case, bytes, headers) => {
    const res = await post(rawForm(bytes, headers));
    expect(res.status).toBe(200);
    expect(res.body.teamName).toMatch(/ Caf\u00e9 \ud83d\ude00 Group$/);
  });

  it('when a part declares a charset the parser cannot read, then 400 naming it, and the service goes on', async () => {
    const before = await t.countRows('team');
    const res = await post(rawForm(Buffer.from([0x43, 0xe1, 0xe6]), ['content-type: text/plain; charset=koi8-r']));
    expect(res).toMatchObject({
      status: 400,
      body: invalid('supportGroupName', 'supportGroupName is in a charset the service does not read (koi8-r); send UTF-8.'),
    });
    expect(await t.countRows('team')).toBe(before);
    expect((await olivia.rest('GET', '/rest/refdata/conditions')).status).toBe(200);
  });

  it('when a part declares ISO-8859-1, then its bytes are read in that charset', async () => {
    const res = await post(rawForm(Buffer.from('Caf\u00e9 Latin Group', 'latin1'), ['content-type: text/plain; charset=ISO-8859-1']));
    expect(res.status).toBe(200);
    expect(res.body.teamName).toMatch(/ Caf\u00e9 Latin Group$/);
    expect((await t.row('team', { team_id: res.body.teamId })).team_name).toBe(res.body.teamName);
  });
});

describe('a part given twice is refused (row 10)', () => {
  it('when the support-group form names companyId twice, then 400 naming it, and nothing is created', async () => {
    const before = await t.countRows('team');
    const form = Object.entries(supportGroupForm()) as [string, string][];
    const res = await admin.multipart(SUPPORT_GROUP_PATH, [...form, ['companyId', '1002']]);
    expect(res).toMatchObject({ status: 400, body: invalid('companyId', 'The part companyId is repeated.') });
    expect(await t.countRows('team')).toBe(before);
  });

  it('when an upload carries two file parts, then 400 naming file, and nothing is staged', async () => {
    const before = await t.countRows('smart_upload');
    const res = await publisher.multipart('/rest/smartlib/upload/file', [
      ['file', { content: uniquePdf(), filename: 'a.pdf' }],
      ['file', { content: uniquePdf(), filename: 'b.pdf' }],
    ]);
    expect(res).toMatchObject({ status: 400, body: invalid('file', 'The part file is repeated.') });
    expect(await t.countRows('smart_upload')).toBe(before);
  });

  it('when a query parameter is given twice, then 400 naming it', async () => {
    const res = await send('GET', '/rest/user/login-scheme?email=a%40x.example&email=b%40x.example', {});
    expect(res).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'email' } });
  });
});
