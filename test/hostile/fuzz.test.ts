// A hostile client (issue 37): bounded fuzzing, with fast-check, of what a client controls outside
// a route's documented parameters (those are test/security/fuzz.test.ts's, route by route from
// the OpenAPI document): GraphQL operation names, the values of the headers the service reads, and
// raw bodies (random bytes, truncated JSON, NUL and unpaired surrogates in strings, deep nesting,
// wrong content types and encodings, multipart without a boundary), sent to /graphql, a few REST
// routes (anonymous and signed in) and the token endpoint. They go over raw sockets, so that any
// byte a client may send is sent as is. Whatever arrives: never a 5xx, every answer within 2 s,
// and after the run the heap is no more than 20 MB larger than before it.
//
// The cases come from fixed seeds. Every case is sent and the failures are listed together (target,
// case, status, the start of the body, the error logged for it): a property stopping at its first
// failure would hide the others, and shrinking a case that is never answered costs the wait each step.
import net from 'node:net';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { CARA, DEMO, newPublisher, SUPPORT_GROUP_PATH, supportGroupForm, useTestApp, type Publisher } from '../kit';
import { gc, MB } from '../kit/memory';
import { UPLOAD_FILE } from '../kit/library';
import { passwordParams } from '../kit/oauth';
import { ROUTES } from '../kit/routes';

const SEED = 20261201;
/** An answer must come within this; a request is given up a little later. */
const ANSWER_MS = 2000;
const ABANDON_MS = 2300;
const HEAP_GROWTH_BOUND = 20 * MB;
/** Requests in flight at once: a request that is never answered does not stall the others. */
const CONCURRENCY = 4;

// Limits that would answer a legitimate 429 or hold answers back by design are out of the way:
// the cases must reach the parsing and the handlers.
const t = useTestApp({
  env: {
    LOG_LEVEL: 'warn',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
    LOGIN_FAILURE_DELAY_MS: '0',
    RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
    RATE_LIMIT_LOGIN_PER_ADDRESS_PER_MINUTE: '100000',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
    RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '100000',
  },
});

// ---------------------------------------------------------------------------------------------
// A raw HTTP/1.1 client: the request's bytes exactly as given, one connection per request.

type HeaderList = [name: string, value: string | Buffer][];

interface RawRequest {
  method: string;
  /** The request target, as given (percent-encoded where it must be). */
  path: string;
  headers: HeaderList;
  body?: Buffer;
}

interface Answer {
  /** 0: none (the connection closed or was given up without an answer). */
  status: number;
  body: string;
  ms: number;
  error?: string;
}

function requestBytes({ method, path, headers, body }: RawRequest): Buffer {
  const lines: Buffer[] = [Buffer.from(`${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n`)];
  for (const [name, value] of headers)
    lines.push(Buffer.from(`${name}: `), typeof value === 'string' ? Buffer.from(value, 'latin1') : value, Buffer.from('\r\n'));
  if (body) lines.push(Buffer.from(`content-length: ${body.length}\r\n`));
  lines.push(Buffer.from('\r\n'));
  if (body) lines.push(body);
  return Buffer.concat(lines);
}

/** Status and body of a complete HTTP/1.1 answer in `bytes`, or null while it is incomplete. */
function parseAnswer(bytes: Buffer, closed: boolean): { status: number; body: string } | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = bytes.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  let rest = bytes.subarray(end + 4);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const parts: Buffer[] = [];
    for (;;) {
      const line = rest.indexOf('\r\n');
      if (line < 0) return closed ? { status, body: Buffer.concat(parts).toString() } : null;
      const size = parseInt(rest.subarray(0, line).toString(), 16);
      if (size === 0) break;
      if (rest.length < line + 2 + size + 2) return closed ? { status, body: Buffer.concat(parts).toString() } : null;
      parts.push(rest.subarray(line + 2, line + 2 + size));
      rest = rest.subarray(line + 2 + size + 2);
    }
    return { status, body: Buffer.concat(parts).toString() };
  }
  if (length) {
    if (rest.length < Number(length[1]) && !closed) return null;
    return { status, body: rest.subarray(0, Number(length[1])).toString() };
  }
  return closed ? { status, body: rest.toString() } : null;
}

function send(port: number, request: RawRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port });
    let done = false;
    const finish = (closed: boolean, error?: string) => {
      if (done) return;
      const parsed = parseAnswer(Buffer.concat(chunks), closed);
      if (!parsed && !closed) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const ms = Math.round(performance.now() - started);
      resolve(parsed ? { ...parsed, ms } : { status: 0, body: '', ms, error: error ?? 'closed without an answer' });
    };
    const timer = setTimeout(() => finish(true, `no answer within ${ABANDON_MS} ms`), ABANDON_MS);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // A reset after the answer (the service answered before reading the whole body) is not a failure.
    socket.on('error', (err: NodeJS.ErrnoException) => finish(true, err.code ?? err.message));
    // Written, not ended: Node's server aborts a request whose client half-closes before the answer.
    socket.write(requestBytes(request));
  });
}

// ---------------------------------------------------------------------------------------------
// What the cases are made of.

/** UTF-8, except that an unpaired surrogate is encoded as if it were a code point (WTF-8): bytes no UTF-8 decoder accepts. */
function wtf8(text: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Buffer.from(out);
}

const percentEncoded = (text: string) => [...wtf8(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
/** A JSON string literal holding `text` with nothing escaped but `"` and `\`: raw control characters and surrogates. */
const rawJsonString = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** Any code unit: code points of every plane, NUL, and unpaired surrogates. */
const anyUnit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constant('\u0000') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
);
/** Strings of every length up to 100 KB, with NUL and unpaired surrogates. */
const hostileString = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: anyUnit, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyUnit, minLength: 200, maxLength: 2000 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ unit: anyUnit, maxLength: 8 }), fc.integer({ min: 10_000, max: 100_000 }))
      .map(([s, n]) => s.repeat(Math.ceil(n / Math.max(1, s.length))).slice(0, n) || 'x'.repeat(n)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', '😀'.slice(0, 1), '\u0000'.repeat(1000)),
  },
);
const nameStart = fc.constantFrom(...'_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
const nameChar = fc.constantFrom(...'_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
/** GraphQL names (so the document is valid and the operation resolves), of 1 to 100 000 characters, all distinct in practice. */
const graphqlName = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(nameStart, fc.string({ unit: nameChar, maxLength: 40 })).map(([a, b]) => a + b) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(nameStart, fc.string({ unit: nameChar, minLength: 12, maxLength: 20 }), fc.integer({ min: 200, max: 5000 }))
      .map(([a, b, n]) => a + b + '_'.repeat(n)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(nameStart, fc.string({ unit: nameChar, minLength: 12, maxLength: 20 }), fc.integer({ min: 50_000, max: 100_000 }))
      .map(([a, b, n]) => a + b + '_'.repeat(n)),
  },
);

/** Header values: any byte a header may carry (tab, printable ASCII, obs-text), the control bytes Node refuses, and long ones. */
const headerValue: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .uint8Array({ maxLength: 300 })
      .map((bytes) => Buffer.from(bytes.map((b) => (b === 0x09 || (b >= 0x20 && b !== 0x7f) ? b : 0x20 + (b % 0x5f))))),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ minLength: 1, maxLength: 40 })
      .map((bytes) => Buffer.from(bytes.map((b) => (b === 0x0a || b === 0x0d ? 0 : b)))),
  },
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: anyUnit, maxLength: 60 })
      .map((s) => Buffer.from(wtf8(s).map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b)))),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...[
        '',
        ' ',
        'null',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json; charset=',
        'application/json; charset="',
        'application/json;;;',
        'application/graphql',
        'application/graphql-response+json',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary="',
        'multipart/mixed; deferSpec=20220824',
        'text/event-stream',
        'text/plain',
        '*/*',
        'gzip',
        'x-gzip',
        'deflate',
        'br',
        'zstd',
        'identity',
        'gzip, gzip',
        'compress',
        'Bearer x',
        '\u00ed\u00a0\u0080',
        'a'.repeat(8000),
        'a'.repeat(20000),
      ].map((s) => Buffer.from(s, 'latin1')),
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// The targets: a valid request of each, which the cases spoil.

interface Target {
  name: string;
  method: string;
  path: string;
  /** The headers of the valid request (credentials, content type). */
  headers: Record<string, string>;
  /** What its body is made of, for the body cases. */
  body:
    | { kind: 'json'; value: Record<string, unknown> }
    | { kind: 'form'; value: Record<string, string> }
    | { kind: 'multipart'; parts: Part[] }
    | null;
  /** The status of the valid request. */
  expect: number;
}

interface Part {
  name: string;
  value: string;
  filename?: string;
  type?: string;
}

const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';
const PDF = '%PDF-1.4\n%%EOF\n';
const route = (operation: string) => ROUTES.find((r) => r.operation === operation)!;

function multipartBody(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const filename = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    const type = p.type ? `\r\ncontent-type: ${p.type}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"`),
      wtf8(filename),
      Buffer.from(`${type}\r\n\r\n`),
    );
    chunks.push(wtf8(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function bodyOf(target: Target): Buffer | undefined {
  const body = target.body;
  if (!body) return undefined;
  if (body.kind === 'json') return wtf8(JSON.stringify(body.value));
  if (body.kind === 'form') return Buffer.from(new URLSearchParams(body.value).toString());
  return multipartBody(body.parts);
}

const CONTENT_TYPE = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: `multipart/form-data; boundary=${BOUNDARY}`,
};

function requestOf(target: Target, requestId: string, replace: HeaderList = [], body = bodyOf(target)): RawRequest {
  const headers: HeaderList = Object.entries({ 'x-request-id': requestId, ...target.headers });
  if (target.body) headers.push(['content-type', CONTENT_TYPE[target.body.kind]]);
  const replaced = new Set(replace.map(([name]) => name));
  return { method: target.method, path: target.path, headers: [...headers.filter(([name]) => !replaced.has(name)), ...replace], body };
}

let publisher: Publisher;
let targets: Target[];
let heapBefore = 0;

beforeAll(async () => {
  publisher = await newPublisher(t);
  const user = { 'x-service-authtoken': await publisher.token() };
  const anonymous: Record<string, string> = {};
  const at = (operation: string) => ({ method: route(operation).method, path: route(operation).path });
  targets = [
    {
      name: 'POST /graphql',
      method: 'POST',
      path: '/graphql',
      headers: user,
      body: { kind: 'json', value: { query: 'query Fuzz { __typename }', operationName: 'Fuzz', variables: {} } },
      expect: 200,
    },
    {
      name: 'GET /graphql',
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('query Fuzz { __typename }')}&operationName=Fuzz`,
      headers: { 'apollo-require-preflight': 'true' },
      body: null,
      expect: 200,
    },
    {
      name: 'POST /graphql multipart',
      method: 'POST',
      path: '/graphql',
      headers: { ...user, 'apollo-require-preflight': 'true' },
      body: {
        kind: 'multipart',
        parts: [
          { name: 'operations', value: JSON.stringify({ query: UPLOAD_FILE, variables: { file: null } }) },
          { name: 'map', value: JSON.stringify({ 0: ['variables.file'] }) },
          { name: '0', value: PDF, filename: 'fuzz.pdf', type: 'application/pdf' },
        ],
      },
      expect: 200,
    },
    { name: 'getCountries (anonymous)', ...at('getCountries'), headers: anonymous, body: null, expect: 200 },
    { name: 'loginUser (anonymous)', ...at('loginUser'), headers: anonymous, body: { kind: 'json', value: {} }, expect: 401 },
    {
      name: 'createUserAddress (signed in)',
      ...at('createUserAddress'),
      headers: user,
      body: { kind: 'json', value: { typeCode: 'O', name: 'Fuzz', street: 'Fuzz Street 1', city: 'Fuzzville' } },
      expect: 200,
    },
    {
      name: 'updateUserProfile (signed in)',
      ...at('updateUserProfile'),
      headers: user,
      body: { kind: 'json', value: { uId: publisher.uId, uFirstName: 'Fuzz', uLastName: 'Client' } },
      expect: 200,
    },
    {
      name: 'uploadSmartFile (signed in)',
      ...at('uploadSmartFile'),
      headers: user,
      body: { kind: 'multipart', parts: [{ name: 'file', value: PDF, filename: 'fuzz.pdf', type: 'application/pdf' }] },
      expect: 200,
    },
    {
      name: 'POST /as/token.oauth2',
      method: 'POST',
      path: '/as/token.oauth2',
      headers: anonymous,
      body: { kind: 'form', value: passwordParams('olivia@demo.example', DEMO.password) },
      expect: 200,
    },
  ];
});

const port = () => Number(new URL(t.baseUrl).port);

// ---------------------------------------------------------------------------------------------
// Running cases and collecting what went wrong.

interface Case {
  target: string;
  /** What the case is, for the report. */
  what: string;
  requestId: string;
  request: RawRequest;
}

const show = (text: string, max = 160) => JSON.stringify(text.length > max ? `${text.slice(0, max)}...(${text.length})` : text);

/**
 * Sends every case (a few at a time) and answers the failures (a 5xx, no answer, an answer later
 * than ANSWER_MS), one line per kind of failure: the target, what came back and what the service
 * logged for it, how many cases, and the first two of them.
 */
async function run(cases: Case[]): Promise<string[]> {
  const failures = new Map<string, string[]>();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const answer = await send(port(), c.request);
      if (answer.status !== 0 && answer.status < 500 && answer.ms <= ANSWER_MS) continue;
      const logged = [
        ...new Set(
          t.logs.filter((l) => l.requestId === c.requestId && l.level >= 50).map((l) => `${l.msg}: ${l.err?.message ?? ''}`.slice(0, 160)),
        ),
      ];
      const outcome =
        answer.status === 0
          ? `no answer (${answer.error})`
          : answer.status >= 500
            ? `${answer.status} ${show(answer.body)}`
            : `${answer.status} after more than ${ANSWER_MS} ms`;
      const kind = `${c.target} -> ${outcome}${logged.length ? ` | logged: ${logged.join('; ')}` : ''}`;
      failures.set(kind, [...(failures.get(kind) ?? []), `${c.what} (${answer.ms} ms)`]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return [...failures].map(([kind, whats]) => `${kind} [${whats.length} cases, e.g. ${whats.slice(0, 2).join('; ')}]`).sort();
}

/** `count` cases from `arbitrary` with the file's seed (and `salt`, so each group draws its own). */
function cases<T>(arbitrary: fc.Arbitrary<T>, count: number, salt: number, toCase: (value: T, requestId: string) => Case): Case[] {
  return fc.sample(arbitrary, { numRuns: count, seed: SEED + salt }).map((value, i) => toCase(value, `fuzz-${salt}-${i}`));
}

// ---------------------------------------------------------------------------------------------

it('each target answers its valid request as expected (the cases below spoil these)', async () => {
  for (const target of targets) {
    const answer = await send(port(), requestOf(target, 'fuzz-valid'));
    expect({ target: target.name, status: answer.status, body: answer.status === target.expect ? '' : answer.body }).toEqual({
      target: target.name,
      status: target.expect,
      body: '',
    });
  }
  // The heap the run starts from: the app has answered each target once, so what loads on first use has loaded.
  t.logs.length = 0;
  await gc();
  heapBefore = process.memoryUsage().heapUsed;
});

it('GraphQL operation names of any content and length: never a 5xx, always answered within 2 s', async () => {
  const graphql = targets[0];
  const doc = (name: string) => `query ${name} { __typename }`;
  const named = cases(graphqlName, 150, 1, (name, id) => ({
    target: graphql.name,
    what: `a valid operation named ${show(name, 40)}`,
    requestId: id,
    request: requestOf(graphql, id, [], wtf8(JSON.stringify({ query: doc(name), operationName: name }))),
  }));
  const unknown = cases(fc.tuple(hostileString, fc.constantFrom('escaped', 'raw', 'get')), 150, 2, ([name, how], id) => {
    const what = `operationName ${show(name, 40)} (${how})`;
    if (how === 'get') {
      const path = `/graphql?query=${encodeURIComponent(doc('Fuzz'))}&operationName=${percentEncoded(name)}`;
      return { target: 'GET /graphql', what, requestId: id, request: { ...requestOf(targets[1], id), path } };
    }
    const body =
      how === 'escaped'
        ? wtf8(JSON.stringify({ query: doc('Fuzz'), operationName: name }))
        : Buffer.concat([
            Buffer.from(`{"query":${JSON.stringify(doc('Fuzz'))},"operationName":`),
            wtf8(rawJsonString(name)),
            Buffer.from('}'),
          ]);
    return { target: graphql.name, what, requestId: id, request: requestOf(graphql, id, [], body) };
  });
  const notStrings = [1, -0.5, true, null, [], ['Fuzz'], { name: 'Fuzz' }, '', ' Fuzz'].map((value, i) => ({
    target: graphql.name,
    what: `operationName ${JSON.stringify(value)}`,
    requestId: `fuzz-3-${i}`,
    request: requestOf(graphql, `fuzz-3-${i}`, [], Buffer.from(JSON.stringify({ query: doc('Fuzz'), operationName: value }))),
  }));
  expect(await run([...named, ...unknown, ...notStrings])).toEqual([]);
}, 60_000);

// `_entities` (issue 52): representations of every shape (entity types with keys of any JSON
// value, types that are no entity, no __typename, values that are no object) and counts past the
// bound, signed in: never a 5xx, and nothing logged at error level.
const ENTITY_KEYS: Record<string, string> = {
  User: 'uId',
  Company: 'companyId',
  Event: 'eventUUID',
  SmartLibrary: 'smartLibId',
  SmartEntry: 'smartEntryId',
  SmartDirectory: 'directoryUUID',
};
const representation = fc.oneof(
  fc
    .tuple(fc.constantFrom(...Object.keys(ENTITY_KEYS)), fc.oneof(fc.jsonValue(), fc.integer(), fc.uuid()))
    .map(([type, key]) => ({ __typename: type, [ENTITY_KEYS[type]]: key })),
  fc.record({
    __typename: fc.oneof(fc.constantFrom('Address', 'Query', 'Mutation', '_Entity', '_Service', ''), hostileString, fc.jsonValue()),
  }),
  fc.jsonValue(),
);

it('`_entities` representations of any shape and count, signed in: never a 5xx, nothing logged at error level', async () => {
  const graphql = targets[0];
  const query = 'query Fuzz($r: [_Any!]!) { _entities(representations: $r) { __typename ... on User { uId } } }';
  const entities = (r: unknown, id: string) =>
    requestOf(graphql, id, [], wtf8(JSON.stringify({ query, operationName: 'Fuzz', variables: { r } })));
  const shapes = cases(fc.array(representation, { maxLength: 20 }), 150, 9, (r, id) => ({
    target: graphql.name,
    what: `_entities ${show(JSON.stringify(r), 60)}`,
    requestId: id,
    request: entities(r, id),
  }));
  const counts = [2000, 2001, 15_000, 20_000].map((n, i) => ({
    target: graphql.name,
    what: `_entities of ${n} Address and User representations`,
    requestId: `fuzz-10-${i}`,
    request: entities(
      Array.from({ length: n }, (_v, k) => (k % 2 ? { __typename: 'User', uId: k } : { __typename: 'Address' })),
      `fuzz-10-${i}`,
    ),
  }));
  const all = [...shapes, ...counts];
  expect(await run(all)).toEqual([]);
  const ids = new Set(all.map((c) => c.requestId));
  expect(t.logs.filter((l) => ids.has(l.requestId) && l.level >= 50).map((l) => `${l.msg}: ${l.err?.message ?? ''}`)).toEqual([]);
}, 60_000);

it('values of the headers the service reads, on every target: never a 5xx, always answered within 2 s', async () => {
  const names = ['x-service-authtoken', 'x-request-id', 'x-api-key', 'content-type', 'content-encoding', 'accept'];
  const arbitrary = fc.record({ target: fc.nat(targets.length - 1), name: fc.constantFrom(...names), value: headerValue });
  const all = cases(arbitrary, 400, 4, ({ target: i, name, value }, id) => ({
    target: targets[i].name,
    what: `${name}: ${show(value.toString('latin1'), 60)}`,
    requestId: id,
    request: requestOf(targets[i], id, [[name, value]]),
  }));
  expect(await run(all)).toEqual([]);
}, 60_000);

/** What a body case does to the target's valid body. */
type Spoil =
  | { kind: 'random bytes'; bytes: Uint8Array }
  | { kind: 'truncated'; at: number }
  | { kind: 'bad string'; text: string; escaped: boolean; inKey: boolean }
  | { kind: 'deep nesting'; depth: number }
  | { kind: 'not an object'; json: string }
  | { kind: 'too large' };

const spoil: fc.Arbitrary<Spoil> = fc.oneof(
  fc.record({ kind: fc.constant('random bytes' as const), bytes: fc.uint8Array({ maxLength: 3000 }) }),
  fc.record({ kind: fc.constant('truncated' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('bad string' as const),
    text: fc.oneof(fc.constantFrom('\u0000', 'a\u0000', '\ud800', 'b\udfff', '\udc00\ud800'), hostileString),
    escaped: fc.boolean(),
    inKey: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('deep nesting' as const), depth: fc.integer({ min: 500, max: 100_000 }) }),
  fc.record({
    kind: fc.constant('not an object' as const),
    json: fc.constantFrom('1', '"x"', 'null', 'true', '[]', '[1,2]', '""', '{}', '[{}]'),
  }),
  fc.constant({ kind: 'too large' as const }),
);

/** Content types and encodings: the right ones most of the time, wrong or unusable ones otherwise. */
const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.constant('right') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'none',
      'text/plain',
      'application/json',
      'application/json; charset=utf-16',
      'application/x-www-form-urlencoded',
      'application/xml',
      'application/octet-stream',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${BOUNDARY}`,
      'multipart/form-data; boundary=another-boundary',
    ),
  },
);
const encoding = fc.oneof(
  { weight: 4, arbitrary: fc.constant('none') },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'corrupt gzip', 'truncated gzip', 'gzip claimed', 'unknown') },
);

function spoiled(target: Target, s: Spoil): Buffer {
  const valid = bodyOf(target) ?? Buffer.alloc(0);
  switch (s.kind) {
    case 'random bytes':
      return Buffer.from(s.bytes);
    case 'truncated':
      return valid.subarray(0, Math.floor(valid.length * s.at));
    case 'deep nesting':
      return Buffer.from(`${'['.repeat(s.depth)}${']'.repeat(s.depth)}`);
    case 'not an object':
      return Buffer.from(s.json);
    case 'too large':
      return Buffer.concat([Buffer.from('{"x":"'), Buffer.alloc(1024 * 1024 + 10, 'a'), Buffer.from('"}')]);
    case 'bad string': {
      const body = target.body!;
      const key = s.inKey ? s.text : 'fuzz';
      if (body.kind === 'form') {
        // The username (or, with inKey, a parameter's name too) holds the text, percent-encoded as bytes.
        const pairs = Object.entries({ ...body.value, username: s.text, [key]: '1' });
        return Buffer.from(pairs.map(([k, v]) => `${percentEncoded(k)}=${percentEncoded(v)}`).join('&'));
      }
      if (body.kind === 'multipart') {
        // The first part's value (or its file name), and a part named by the text with inKey.
        const [first, ...rest] = body.parts;
        const bad = first.filename === undefined ? { ...first, value: s.text } : { ...first, filename: s.text };
        return multipartBody([bad, ...rest, { name: key, value: s.text }]);
      }
      // The first string property (and, with inKey, a property's name) holds the text: escaped as
      // JSON.stringify writes it (\u0000, \ud800), or raw (a NUL byte, WTF-8 surrogate bytes).
      const property = Object.keys(body.value).find((k) => typeof body.value[k] === 'string') ?? 'fuzz';
      if (s.escaped) return wtf8(JSON.stringify({ ...body.value, [property]: s.text, [key]: 1 }));
      const others = Object.entries(body.value).filter(([k]) => k !== property);
      return Buffer.concat([
        Buffer.from(`{${others.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`).join('')}${JSON.stringify(property)}:`),
        wtf8(rawJsonString(s.text)),
        Buffer.from(','),
        wtf8(rawJsonString(key)),
        Buffer.from(':1}'),
      ]);
    }
  }
}

function encoded(body: Buffer, how: string): { body: Buffer; header?: string } {
  switch (how) {
    case 'none':
      return { body };
    case 'gzip':
      return { body: zlib.gzipSync(body), header: 'gzip' };
    case 'deflate':
      return { body: zlib.deflateSync(body), header: 'deflate' };
    case 'br':
      return { body: zlib.brotliCompressSync(body), header: 'br' };
    case 'corrupt gzip': {
      const gz = Buffer.from(zlib.gzipSync(body));
      for (let i = 10; i < gz.length; i += 7) gz[i] ^= 0x5a;
      return { body: gz, header: 'gzip' };
    }
    case 'truncated gzip': {
      const gz = zlib.gzipSync(body);
      return { body: gz.subarray(0, Math.max(1, gz.length >> 1)), header: 'gzip' };
    }
    case 'gzip claimed':
      return { body, header: 'gzip' };
    default:
      return { body, header: 'x-unknown' };
  }
}

it('bodies of every kind, on every target that takes one: never a 5xx, always answered within 2 s', async () => {
  const withBody = targets.filter((target) => target.body);
  const arbitrary = fc.record({ target: fc.nat(withBody.length - 1), spoil, contentType, encoding });
  const all = cases(arbitrary, 450, 5, ({ target: i, spoil: s, contentType: type, encoding: how }, id) => {
    const target = withBody[i];
    const { body, header } = encoded(spoiled(target, s), how);
    const replace: HeaderList = [];
    if (type !== 'right' && type !== 'none') replace.push(['content-type', type]);
    if (header) replace.push(['content-encoding', header]);
    const request = requestOf(target, id, replace, body);
    if (type === 'none') request.headers = request.headers.filter(([name]) => name !== 'content-type');
    const detail =
      s.kind === 'bad string'
        ? ` ${show(s.text, 30)}${s.escaped ? ' escaped' : ' raw'}${s.inKey ? ' +key' : ''}`
        : s.kind === 'deep nesting'
          ? ` ${s.depth}`
          : '';
    return { target: target.name, what: `${s.kind}${detail}, content-type ${type}, encoding ${how}`, requestId: id, request };
  });
  // Always among them, whatever the seed draws: a decompression bomb and multipart without a boundary on each multipart target.
  const bomb = zlib.gzipSync(Buffer.alloc(64 * MB));
  for (const target of withBody) {
    const id = `fuzz-6-${withBody.indexOf(target)}`;
    all.push({
      target: target.name,
      what: 'gzip bomb (64 MB of zeros)',
      requestId: `${id}-bomb`,
      request: requestOf(target, `${id}-bomb`, [['content-encoding', 'gzip']], bomb),
    });
    if (target.body?.kind === 'multipart')
      all.push({
        target: target.name,
        what: 'multipart without a boundary',
        requestId: `${id}-nb`,
        request: requestOf(target, `${id}-nb`, [['content-type', 'multipart/form-data']]),
      });
  }
  expect(await run(all)).toEqual([]);
}, 60_000);

it('multipart text parts past the route (undeclared, too many, oversized): always 400, answered within 2 s', async () => {
  const upload = targets.find((x) => x.name === 'uploadSmartFile (signed in)')!;
  const [file] = (upload.body as { kind: 'multipart'; parts: Part[] }).parts;
  const group = {
    name: 'createSupportGroup (admin)',
    method: 'POST',
    path: SUPPORT_GROUP_PATH,
    expect: 400,
    headers: { 'x-service-authtoken': await t.as(CARA).token(), 'x-service-company-api-key': DEMO.companyApiKey },
  };
  // Declared parts and their lengths (directoryConsents: no length rule, the common 1 MiB).
  const bounded = {
    supportGroupPrefix: 50,
    supportGroupName: 150,
    assetName3: 255,
    assetDescription10: 2000,
    directoryConsents: 256 * 1024,
  };
  const arbitrary = fc.oneof(
    fc.record({
      kind: fc.constant('undeclared' as const),
      name: fc.string({ unit: nameChar, minLength: 1, maxLength: 30 }),
      size: fc.nat(2 * MB),
      first: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('too many' as const), count: fc.integer({ min: 2, max: 300 }) }),
    fc.record({
      kind: fc.constant('oversized' as const),
      field: fc.constantFrom(...Object.keys(bounded)),
      over: fc.integer({ min: 1, max: MB }),
    }),
  );
  const all = cases(arbitrary, 60, 7, (c, id) => {
    if (c.kind === 'oversized') {
      const max = bounded[c.field as keyof typeof bounded];
      const form = Object.entries(supportGroupForm({ [c.field]: 'x'.repeat(max * 4 + 1024 + c.over) }));
      const parts = form.map(([name, value]) => ({ name, value: value as string }));
      const target = { ...group, body: { kind: 'multipart' as const, parts } };
      return { target: group.name, what: `${c.field} ${c.over} bytes over`, requestId: id, request: requestOf(target, id) };
    }
    const extra =
      c.kind === 'undeclared'
        ? [{ name: c.name === 'file' ? 'fileX' : c.name, value: 'a'.repeat(c.size) }]
        : Array.from({ length: c.count }, () => ({ name: 'file', value: PDF, filename: 'again.pdf' }));
    const parts = c.kind === 'undeclared' && c.first ? [...extra, file] : [file, ...extra];
    const what = c.kind === 'undeclared' ? `an undeclared part of ${c.size} bytes` : `${c.count} more file parts`;
    return { target: upload.name, what, requestId: id, request: requestOf({ ...upload, body: { kind: 'multipart', parts } }, id) };
  });
  const answers: { c: Case; a: Answer }[] = [];
  for (const c of all) answers.push({ c, a: await send(port(), c.request) });
  const wrong = answers
    .filter(({ a }) => a.status !== 400 || a.ms > ANSWER_MS)
    .map(({ c, a }) => `${c.what}: ${a.status} ${show(a.body)} (${a.ms} ms)`);
  expect(wrong).toEqual([]);
}, 60_000);

it('after the run, the heap is at most 20 MB larger than before it', async () => {
  expect(heapBefore).toBeGreaterThan(0);
  // The kit keeps every log line the service writes; they are the test's, not the service's.
  t.logs.length = 0;
  await gc();
  const growth = process.memoryUsage().heapUsed - heapBefore;
  expect(Math.round((growth / MB) * 10) / 10).toBeLessThan(HEAP_GROWTH_BOUND / MB);
});
