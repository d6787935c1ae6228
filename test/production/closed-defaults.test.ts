// Closed by default in production (issue 38): with NODE_ENV=production and only the variables it
// requires, introspection, "Did you mean" suggestions, the Sandbox landing page and /graphiql are
// off, each on again by its own variable (the two explorers only beside introspection: config
// refuses them without it), and `_service { sdl }` answers only the router's federation token while
// introspection is off. Start-up in production refuses a database that still holds the demo
// tenant's published credentials, naming each, unless ALLOW_DEMO_CREDENTIALS=true.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSystemToken, useTestApp, type Client } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { productionEnv } from '../kit/production';
import { runToExit, SERVER_ENTRY, spawnService } from '../kit/spawn';
import { DemoSeeder } from '../kit/src';
import { ConfigError, loadConfig } from '../../src/config';

const PRODUCTION = productionEnv();
const FEDERATION_TOKEN = 'closed-defaults-router-token';

/** What /graphql and /graphiql show of the schema: each switch's visible effect. */
async function exposure(t: Client) {
  const introspection = await t.gql('{ __schema { queryType { name } } }');
  const typo = await t.gql('{ timezone { timezoneId } }');
  const landing = await t.rest('GET', '/graphql', { headers: { accept: 'text/html' } });
  const explorer = await t.rest('GET', '/graphiql');
  return {
    introspection: introspection.body.data ?? introspection.body.errors!.map((e) => e.extensions.code),
    suggestion: typo.body.errors![0].message,
    sandbox: landing.status === 200 && landing.text.includes('embeddable-sandbox'),
    sandboxLinksExplorer: landing.text.includes('/graphiql'),
    explorer: explorer.status === 200 ? explorer.headers.get('content-type') : explorer.body,
  };
}

const SUGGESTED = 'Cannot query field "timezone" on type "Query". Did you mean "timezones"?';
const NOT_SUGGESTED = 'Cannot query field "timezone" on type "Query".';
const NO_EXPLORER = { errorCode: 'WSNotFoundException', message: 'No route for GET /graphiql.' };
const SCHEMA = { __schema: { queryType: { name: 'Query' } } };
/** exposure() of an app with only the variables production requires. */
const CLOSED = {
  introspection: ['GRAPHQL_VALIDATION_FAILED'],
  suggestion: NOT_SUGGESTED,
  sandbox: false,
  sandboxLinksExplorer: false,
  explorer: NO_EXPLORER,
};

describe('with NODE_ENV=production', () => {
  const closed = useTestApp({ demo: false, env: PRODUCTION });
  const withIntrospection = useTestApp({ alongside: closed, env: { ...PRODUCTION, GRAPHQL_INTROSPECTION: 'true' } });
  const withSuggestions = useTestApp({ alongside: closed, env: { ...PRODUCTION, GRAPHQL_SUGGESTIONS: 'true' } });
  const withSandbox = useTestApp({ alongside: closed, env: { ...PRODUCTION, GRAPHQL_INTROSPECTION: 'true', GRAPHQL_SANDBOX: 'true' } });
  const withExplorer = useTestApp({ alongside: closed, env: { ...PRODUCTION, GRAPHQL_INTROSPECTION: 'true', GRAPHQL_EXPLORER: 'true' } });

  it('and only the required variables, then introspection, suggestions, the Sandbox landing page and /graphiql are off', async () => {
    expect(await exposure(closed)).toEqual(CLOSED);
    expect((await closed.rest('GET', '/metrics')).status).toBe(404);
  });

  // Each switch, on beside the closed defaults: what it opens (the rest as CLOSED).
  it.each([
    ['GRAPHQL_INTROSPECTION=true alone', 'introspection only', withIntrospection, { introspection: SCHEMA }],
    ['GRAPHQL_SUGGESTIONS=true alone', 'suggestions only', withSuggestions, { suggestion: SUGGESTED }],
    [
      'GRAPHQL_SANDBOX=true beside introspection',
      'the Sandbox landing page, without a link to the /graphiql that is not served',
      withSandbox,
      { introspection: SCHEMA, sandbox: true },
    ],
    [
      'GRAPHQL_EXPLORER=true beside introspection',
      '/graphiql',
      withExplorer,
      { introspection: SCHEMA, explorer: 'text/html; charset=utf-8' },
    ],
  ])('and %s, then %s', async (_variable, _opened, app, opened) => {
    expect(await exposure(app)).toEqual({ ...CLOSED, ...opened });
  });

  it('and GRAPHQL_SANDBOX or GRAPHQL_EXPLORER without introspection, then configuration refuses them', () => {
    expect(() => loadConfig({ ...PRODUCTION, GRAPHQL_SANDBOX: 'true' })).toThrow(
      new ConfigError('GRAPHQL_SANDBOX=true needs GRAPHQL_INTROSPECTION=true (it reads the schema by introspection)'),
    );
    expect(() => loadConfig({ ...PRODUCTION, GRAPHQL_EXPLORER: 'true' })).toThrow(
      new ConfigError('GRAPHQL_EXPLORER=true needs GRAPHQL_INTROSPECTION=true (it reads the schema by introspection)'),
    );
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'false', GRAPHQL_EXPLORER: 'true' })).toThrow(ConfigError);
  });

  describe('then `_service { sdl }`, with introspection off,', () => {
    const sdl = async (t: Client, headers: Record<string, string> = {}) => {
      const res = await t.gql('{ _service { sdl } }', undefined, headers);
      return res.body.errors
        ? { data: res.body.data, errors: res.body.errors.map((e) => ({ code: e.extensions.errorCode, message: e.message })) }
        : { sdl: res.body.data!._service.sdl as string };
    };
    const refused = (code: string, message: string) => ({ data: null, errors: [{ code, message }] });
    beforeAll(async () => {
      await createSystemToken(closed.orm, ['federation'], { name: 'router', token: FEDERATION_TOKEN });
    });

    it("answers the router's federation token, and with introspection on anyone", async () => {
      const open = await sdl(withIntrospection);
      expect(open.sdl).toContain('extend schema @link(url: "https://specs.apollo.dev/federation/v2.7"');
      expect(open.sdl).toContain('type Query');
      expect(await sdl(closed, { 'x-api-key': FEDERATION_TOKEN })).toEqual(open);
    });

    it('refuses an anonymous caller and an unknown key (WSInvalidAuthTokenException), a user and a token of another scope (InsufficientPrivilegesException)', async () => {
      const user = await closed.newUser();
      const ingestion = await createSystemToken(closed.orm, ['ingestion']);
      expect({
        anonymous: await sdl(closed),
        unknownKey: await sdl(closed, { 'x-api-key': 'no-such-token' }),
        user: await sdl(user),
        otherScope: await sdl(closed, { 'x-api-key': ingestion }),
        userBesideTheRouter: await sdl(user, { 'x-api-key': FEDERATION_TOKEN }),
      }).toEqual({
        anonymous: refused('WSInvalidAuthTokenException', 'The auth token is missing or invalid.'),
        unknownKey: refused('WSInvalidAuthTokenException', 'The x-api-key system token is missing or invalid.'),
        user: refused('InsufficientPrivilegesException', "Only the federation router's token may read the schema."),
        otherScope: refused('InsufficientPrivilegesException', 'The system token lacks the federation scope.'),
        // As for `_entities`, a user's token wins over a key sent beside it.
        userBesideTheRouter: refused('InsufficientPrivilegesException', "Only the federation router's token may read the schema."),
      });
    });
  });
});

describe('outside production', () => {
  it('each follows GRAPHQL_INTROSPECTION by default, and each may be set on its own', () => {
    const switches = (env: Record<string, string>) => {
      const c = loadConfig(env);
      return { introspection: c.introspection, suggestions: c.suggestions, sandbox: c.sandbox, explorer: c.explorer };
    };
    const ON = { introspection: true, suggestions: true, sandbox: true, explorer: true };
    const OFF = { introspection: false, suggestions: false, sandbox: false, explorer: false };
    const cases: [Record<string, string>, typeof ON][] = [
      [{}, ON],
      [{ GRAPHQL_INTROSPECTION: 'false' }, OFF],
      [
        { GRAPHQL_SUGGESTIONS: 'false', GRAPHQL_SANDBOX: 'false' },
        { ...ON, suggestions: false, sandbox: false },
      ],
      [
        { GRAPHQL_INTROSPECTION: 'false', GRAPHQL_SUGGESTIONS: 'true' },
        { ...OFF, suggestions: true },
      ],
    ];
    for (const [env, expected] of cases) expect([env, switches(env)]).toEqual([env, expected]);
  });
});

// The refusal is start-up's (src/server.ts): the compiled service, on a PostgreSQL database seeded
// in development.
(process.env.DATABASE_URL ? describe : describe.skip)('when production starts on a database holding the demo tenant', () => {
  let db: TestDb;
  let dataDir: string;
  const env = (extra: Record<string, string> = {}) => ({
    ...PRODUCTION,
    DATABASE_URL: db.databaseUrl!,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...extra,
  });

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_ENTRY)).toBe(true); // npm test builds before running jest
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-'));
    db = await createTestDb();
    await db.orm.em.fork().transactional((tx) => new DemoSeeder().run(tx));
    // What development start-up writes to oauth_client: the demo login client.
    await db.orm.em
      .getConnection()
      .execute(
        `insert into oauth_client (client_id, name, secret_hash, grant_types, redirect_uris) values ('demo-mobile', 'Mobile app (login scheme)', encode(sha256('demo-mobile-secret'), 'hex'), '{password}', '{com.demo.mobile:/oauth/ssosignedin}')`,
      );
  }, 60_000);
  afterAll(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('then it exits 1 naming each published credential it found', async () => {
    const refused = await runToExit(SERVER_ENTRY, env(), 30_000);
    expect(refused.code).toBe(1);
    const found = [
      'OAuth client demo-mobile with the demo secret demo-mobile-secret',
      'user 2001 (olivia@demo.example) with the demo password',
      'user 2003 (cara@demo.example) with the demo password',
      'user 2004 (omar@demo.example) with the demo password',
      'user 2005 (pat@demo.example) with the demo password',
      'system token "Demo ingestion process" (the demo ingestion token)',
      'company API key 5e0c1a52-7d4b-4c8e-9f1a-000000001001 of company 1001',
      'company API key 5e0c1a52-7d4b-4c8e-9f1a-000000009999 of company 1001',
    ];
    expect(refused.lines.filter((l) => l?.level >= 50)).toEqual([
      expect.objectContaining({
        msg:
          `refusing to start: the database holds the demo tenant's published credentials: ${found.join('; ')}. ` +
          'Delete them or change their secrets (or set ALLOW_DEMO_CREDENTIALS=true)',
        demoCredentials: found,
      }),
    ]);
    expect(refused.lines.some((l) => l?.msg === 'listening')).toBe(false);
  }, 60_000);

  it('then with ALLOW_DEMO_CREDENTIALS=true it starts', async () => {
    const service = await spawnService(env({ ALLOW_DEMO_CREDENTIALS: 'true' }));
    try {
      expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 60_000);

  it('then once they are deleted or changed it starts (the demo client id may be the configured one: its secret is replaced)', async () => {
    const sql = (text: string) => db.orm.em.getConnection().execute(text);
    await sql(`update app_user set password_hash = null where u_id between 2001 and 2005`);
    await sql(`delete from system_token where name = 'Demo ingestion process'`);
    await sql(`delete from company_api_key where company_id = 1001`);
    const service = await spawnService(env({ LOGIN_CLIENT_ID: 'demo-mobile' }));
    try {
      expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
      const [client] = await sql(
        `select secret_hash = encode(sha256('demo-mobile-secret'), 'hex') as demo from oauth_client where client_id = 'demo-mobile'`,
      );
      expect(client).toEqual({ demo: false });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 60_000);
});
