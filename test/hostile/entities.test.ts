// `_entities` bounded (issue 52, rows 1 and 4): a request's representations are refused whole,
// before any is coerced or resolved, when there are more than 2,000 (400), they weigh more than
// 256 KiB (413), or one is no representation of an entity of this service (`Address`, `Query`,
// `{}`, `"Nope"`: 400); each is one client error for the request and one access-log line, never an
// error-level line with a stack per item. Within the bounds a representation the caller may not
// see is `null`, as before (test/federation/visibility.test.ts). And a production instance (128 MB
// heap, as `npm start` runs it) lives through the red team's reproducers and goes on answering.
import { createSystemToken, createUser, GQL_ACCEPT, OLIVIA, tokenFor, useTestApp, type Client } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { productionEnv } from '../kit/production';
import { spawnService, type SpawnedService } from '../kit/spawn';

/** The documented bounds (docs/security.md, "Federation references"), written down rather than read from the code under test. */
const CAP = 2000;
const CAP_BYTES = 256 * 1024;
const QUERY = 'query($r:[_Any!]!){ _entities(representations:$r){ __typename ... on User { uId uFirstName } } }';
const ROUTER_TOKEN = 'entities-bound-router-token';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const router = t.with({ 'x-api-key': ROUTER_TOKEN });

const users = (n: number, uId = 1_000_000) => Array.from({ length: n }, (_v, i) => ({ __typename: 'User', uId: uId + i }));
const unresolved = (n: number) => Array.from({ length: n }, (_v, i) => ({ __typename: i % 2 ? 'Query' : 'Address' }));

const notAnEntity = (index: number) => ({
  errors: [
    {
      message: `representations[${index}] is not the representation of an entity of this service (an object whose __typename names one of its entity types).`,
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'representations' },
    },
  ],
});
const tooMany = (count: number) => ({
  errors: [
    {
      message: `_entities takes at most ${CAP} representations a request; this request sends ${count}.`,
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSLimitExceededException', field: 'representations' },
    },
  ],
});

/** Log lines of level error (50) or worse written while `fn` ran. */
async function errorLinesDuring(fn: () => Promise<unknown>): Promise<unknown[]> {
  const from = t.logs.length;
  await fn();
  return t.logs.slice(from).filter((line) => line.level >= 50);
}

beforeAll(async () => {
  await createSystemToken(t.orm, ['federation'], { name: 'router', token: ROUTER_TOKEN });
});

describe('when `_entities` is sent representations that are no entity of this service', () => {
  it.each([
    ['of types that are not entities (Address, Query)', [{ __typename: 'Address' }, { __typename: 'Query' }], 0],
    ['an empty object', [{}], 0],
    ['a string', ['Nope'], 0],
    ['a type that does not exist', [{ __typename: 'User', uId: 1 }, { __typename: 'Nope' }], 1],
    ['a number as __typename', [{ __typename: 5 }], 0],
    ['a list', [[{ __typename: 'User', uId: 1 }]], 0],
  ])('%s, then the request is one 400 naming representations, and nothing is logged at error level', async (_what, r, index) => {
    for (const who of [t, olivia, router] as Client[]) {
      let res: any;
      const errors = await errorLinesDuring(async () => (res = await who.gql(QUERY, { r })));
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: notAnEntity(index),
      });
      expect(errors).toEqual([]);
    }
  });

  it('as a literal of the document, then the same', async () => {
    const res = await t.gql('{ _entities(representations: [{__typename: "Address"}]) { __typename } }');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAnEntity(0));
  });

  it('in a variable left to its default, then the same', async () => {
    const res = await t.gql('query($r: [_Any!]! = [{__typename: "Query"}]) { _entities(representations: $r) { __typename } }');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAnEntity(0));
  });

  it('15,000 of them, anonymous, then one 400 and one access-log line, no error-level line', async () => {
    const from = t.logs.length;
    const res = await t.gql(QUERY, { r: unresolved(15_000) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooMany(15_000));
    const lines = t.logs.slice(from);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'request')).toEqual([
      expect.objectContaining({ status: 400, errorCode: 'WSLimitExceededException', level: 30 }),
    ]);
  });
});

describe('when `_entities` is sent more representations than the bound', () => {
  it(`of ${CAP}, then they are resolved (the router's token) or each null (anonymous), without an error-level line`, async () => {
    const u = await createUser(t.orm, { firstName: 'Routed' });
    const r = [{ __typename: 'User', uId: u.uId }, ...users(CAP - 1)];
    let routed: any;
    let anonymous: any;
    const errors = await errorLinesDuring(async () => {
      routed = await router.gql(QUERY, { r });
      anonymous = await t.gql(QUERY, { r });
    });
    expect(routed.status).toBe(200);
    expect(routed.body.errors).toBeUndefined();
    expect(routed.body.data._entities[0]).toEqual({ __typename: 'User', uId: u.uId, uFirstName: 'Routed' });
    expect(routed.body.data._entities.filter((e: unknown) => e === null)).toHaveLength(CAP - 1);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data._entities).toEqual(Array(CAP).fill(null));
    expect(new Set(anonymous.body.errors.map((e: any) => e.extensions.errorCode))).toEqual(new Set(['WSInvalidAuthTokenException']));
    expect(errors).toEqual([]);
  });

  it(`of ${CAP + 1}, then the request is refused whole (400 WSLimitExceededException), for every caller`, async () => {
    for (const who of [t, olivia, router] as Client[]) {
      const res = await who.gql(QUERY, { r: users(CAP + 1) });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: tooMany(CAP + 1),
      });
    }
  });

  it('split over aliases, then they are counted together', async () => {
    const half = Math.ceil((CAP + 1) / 2);
    const res = await router.gql(
      'query($a:[_Any!]!, $b:[_Any!]!){ a: _entities(representations:$a){ __typename } b: _entities(representations:$b){ __typename } }',
      { a: users(half), b: users(half) },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(tooMany(2 * half));
  });

  it('of ten times the bound, signed in (16,000 and 20,000 Users), then it is refused before any is resolved: no SQL runs', async () => {
    await olivia.token(); // her token stored before counting
    for (const n of [16_000, 10 * CAP]) {
      let res: any;
      const statements = await t.countStatements(async () => (res = await olivia.gql(QUERY, { r: users(n, OLIVIA) })));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(tooMany(n));
      expect(statements).toBe(0);
    }
  });

  it('weighing more than the bound, then 413 WSLimitExceededException', async () => {
    const pad = 'x'.repeat(Math.ceil(CAP_BYTES / 100));
    const res = await router.gql(QUERY, { r: users(100).map((u) => ({ ...u, pad })) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      errors: [
        {
          message: `_entities takes at most ${CAP_BYTES} bytes of representations a request.`,
          extensions: { code: 'PAYLOAD_TOO_LARGE', errorCode: 'WSLimitExceededException', field: 'representations' },
        },
      ],
    });
  });
});

(process.env.DATABASE_URL ? describe : describe.skip)('when a production instance (128 MB heap) is sent the reproducers', () => {
  let db: TestDb;
  let service: SpawnedService;
  let token: string;

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...GQL_ACCEPT, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    db = await createTestDb();
    const user = await createUser(db.orm);
    token = await tokenFor(db.orm, user.uId);
    service = await spawnService({ ...productionEnv(), DATABASE_URL: db.databaseUrl!, LOG_LEVEL: 'info' });
  }, 60_000);
  afterAll(async () => {
    if (service?.child.exitCode === null) await service.stop();
    await db?.close();
  });

  it('then each is refused, at once and again, and the instance goes on answering with no error-level line', async () => {
    const reproducers: { name: string; r: object[]; headers: Record<string, string> }[] = [
      { name: '15,000 Address and Query, anonymous', r: unresolved(15_000), headers: {} },
      { name: '16,000 Users, signed in', r: users(16_000), headers: { 'x-service-authtoken': token } },
      { name: 'ten times the bound', r: users(10 * CAP), headers: {} },
    ];
    for (const { name, r, headers } of reproducers) {
      // Several at once, as an attacker would send them.
      const answers = await Promise.all(Array.from({ length: 4 }, () => post({ query: QUERY, variables: { r } }, headers)));
      for (const a of answers)
        expect({ name, status: a.status, codes: a.body.errors.map((e: any) => e.extensions.errorCode) }).toEqual({
          name,
          status: 400,
          codes: ['WSLimitExceededException'],
        });
    }
    // Row 4 on the same instance: an APQ hash that is not its query is the client's error.
    const apq = await post({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } });
    expect(apq).toEqual({
      status: 400,
      body: { errors: [{ message: 'provided sha does not match query', extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' } }] },
    });
    // At the bound, signed in: each representation null with its error, answered.
    const atCap = await post({ query: QUERY, variables: { r: users(CAP) } }, { 'x-service-authtoken': token });
    expect(atCap.status).toBe(200);
    expect(atCap.body.data._entities).toHaveLength(CAP);
    expect(service.child.exitCode).toBeNull();
    const health = await fetch(`${service.baseUrl}/readyz`);
    expect(health.status).toBe(200);
    expect(service.lines.filter((l) => typeof l === 'object' && l.level >= 50)).toEqual([]);
  }, 120_000);
});
