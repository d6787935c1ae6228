// Behind a transaction pooler (DATABASE_POOLING=transaction, issue 38): a pooler such as PgBouncer
// hands server connections from client to client between transactions, so a named prepared
// statement made on one is unknown on the next ("prepared statement ... does not exist") or
// already there ("... already exists"). Two instances of the app with the demo tenant, one as
// usual (session) and one told its connections are transaction-pooled, answer the same sign-in
// and reads (the token endpoint and loginUser with their counters, prepared read models,
// discovery's matching, directory access) with the same bodies; the second sends no statement
// with a name, the first does. LISTEN (the bus) and the job queue's pool go to
// DATABASE_DIRECT_URL, and without it (nor Redis) the service refuses to start. A real PgBouncer
// is in test/cluster/cluster.cluster.ts.
import crypto from 'node:crypto';
import { Client } from 'pg';
import { CARA, DEMO, OLIVIA, startTestApp, type TestApp } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { passwordParams, tokenRequest } from '../kit/oauth';
import { DemoSeeder, loadConfig } from '../kit/src';

const server = Boolean(process.env.DATABASE_URL);

/** Every query pg's clients are given (named statements are a query config with a name), and on which client. */
let spy: jest.SpyInstance;
beforeAll(() => {
  spy = jest.spyOn(Client.prototype, 'query');
});
afterAll(() => spy.mockRestore());

const databaseOf = (t: TestApp) => (t.db.databaseUrl ? new URL(t.db.databaseUrl).pathname.slice(1) : 'embedded');
/** The names of the prepared statements sent to the app's database. */
function namedOf(t: TestApp): string[] {
  const database = databaseOf(t);
  const names = spy.mock.calls.flatMap((args: unknown[], i) => {
    const config = args[0] as { name?: unknown } | null;
    const on = (spy.mock.contexts[i] as { database?: string }).database;
    return on === database && config && typeof config === 'object' && typeof config.name === 'string' && config.name ? [config.name] : [];
  });
  return [...new Set(names)];
}

/** The test's own database with the demo tenant, and its URL with an application_name that tells its sessions apart. */
async function seededDb(): Promise<{ db: TestDb; directUrl: string | null; applicationName: string }> {
  const db = await createTestDb();
  await db.orm.em.fork().transactional((tx) => new DemoSeeder().run(tx));
  const applicationName = `pronet-direct-${crypto.randomBytes(4).toString('hex')}`;
  if (!db.databaseUrl) return { db, directUrl: null, applicationName };
  const url = new URL(db.databaseUrl);
  url.searchParams.set('application_name', applicationName);
  return { db, directUrl: url.toString(), applicationName };
}

const READS = `query pooledReads($dir: String!) {
  conditions { conditionId conditionName }
  conditionsVersion { version }
  professions { professionId professionName }
  specialties { specialtyId specialtyName professionId }
  assessmentForms { assessmentId assessmentUuid assessmentName }
  titles { titleId titleName }
  genders { genderCode genderName }
  userAddresses { uuid city }
  recommendedEntities(entityType: ["company"], version: 1) { entityType entityId companyName entityConnectionPending }
  smartDirectory(directoryUUID: $dir) { directoryUUID directoryName directoryType }
  eConsents(type: "C", companyId: ${DEMO.companies.northwind}) { consentUUID consentTypeCode consentValue }
  userEvents(cId: ${DEMO.companies.northwind}, version: 1) { eventUUID eName }
}`;

/** What a client does after signing in: the password grant, loginUser, then reads over REST and GraphQL. Returns every answer. */
async function signInAndRead(t: TestApp): Promise<unknown[]> {
  const grant = await tokenRequest(t, passwordParams('olivia@demo.example'));
  expect(grant.status).toBe(200);
  const login = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${grant.body.access_token}` } });
  expect(login.status).toBe(200);
  expect(login.body.userId).toBe(OLIVIA);
  const olivia = t.as(login.body.authToken as string);
  const answers: unknown[] = [];
  for (const path of ['/rest/user/profile', '/rest/user/addresses', '/rest/refdata/conditions', '/rest/refdata/professions']) {
    const res = await olivia.rest('GET', path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    answers.push(res.body);
  }
  const gql = await olivia.gql(READS, { dir: DEMO.directories.staff });
  expect(gql.body.errors).toBeUndefined();
  answers.push(gql.body.data);
  // A second round: a named statement would now be reused on whichever connection the pool hands out.
  const again = await olivia.gql(READS, { dir: DEMO.directories.staff });
  expect(again.body).toEqual(gql.body);
  return answers;
}

describe('DATABASE_POOLING=transaction beside the default (session)', () => {
  let session: TestApp;
  let pooled: TestApp;
  let pooledDb: TestDb;
  let applicationName: string;
  beforeAll(async () => {
    session = await startTestApp();
    const seeded = await seededDb();
    pooledDb = seeded.db;
    applicationName = seeded.applicationName;
    const env: Record<string, string> = { DATABASE_POOLING: 'transaction' };
    if (seeded.directUrl) env.DATABASE_DIRECT_URL = seeded.directUrl;
    pooled = await startTestApp({ db: pooledDb, env });
  });
  afterAll(async () => {
    await pooled?.close();
    await pooledDb?.close();
    await session?.close();
  });

  it('when a client signs in and reads through each, then both answer the same and only the session one sends named prepared statements', async () => {
    const answers = await signInAndRead(session);
    expect(await signInAndRead(pooled)).toEqual(answers);
    expect(namedOf(pooled)).toEqual([]);
    // The embedded PGlite sends every statement unnamed whatever the setting.
    if (server) expect(namedOf(session).length).toBeGreaterThan(10);
  });

  (server ? it : it.skip)(
    "when the bus listens and the job queue starts, then both are on DATABASE_DIRECT_URL's sessions, and a notification sent through the pool reaches the bus",
    async () => {
      // A scheduled send: stored, and its job enqueued (which starts the queue's own pool).
      const local = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
      const res = await pooled.as(CARA).rest('POST', '/rest/notification/send', {
        body: {
          broadcastType: 'GT',
          companyId: DEMO.companies.northwind,
          valueIds: [String(DEMO.teamId)],
          message: 'Pooled',
          scheduleLocalDateTime: local,
          scheduleTimezoneId: 'UTC',
        },
      });
      expect(res.status).toBe(200);
      const direct = await pooled.sql(`select query from pg_stat_activity where application_name = ? order by query`, [applicationName]);
      // The bus's LISTEN, and the queue's sessions (the URL's application_name wins over the one pg-boss gives).
      expect(direct.map((r) => r.query)).toContain('LISTEN pronet_bus');
      expect(direct.length).toBeGreaterThan(1);

      // A message published through a pooled connection (NOTIFY in its transaction) is heard on the direct session.
      const heard = new Promise<unknown>((resolve) => {
        const off = pooled.app.services.bus.subscribe('pooling-test', (data) => {
          off();
          resolve(data);
        });
      });
      await pooled.app.services.bus.publish('pooling-test', { ok: 1 });
      await expect(heard).resolves.toEqual({ ok: 1 });
    },
  );
});

(server ? describe : describe.skip)('DATABASE_POOLING=transaction without DATABASE_DIRECT_URL', () => {
  it('when neither DATABASE_DIRECT_URL nor REDIS_URL is set, then the service refuses to start: LISTEN needs a session', async () => {
    const db = await createTestDb();
    try {
      await expect(startTestApp({ db, env: { DATABASE_POOLING: 'transaction' } })).rejects.toThrow(
        'DATABASE_POOLING=transaction: the bus between instances needs DATABASE_DIRECT_URL (LISTEN needs a session connection) or REDIS_URL',
      );
    } finally {
      await db.close();
    }
  });
});

describe('DATABASE_POOLING=transaction in the configuration', () => {
  it('when DATABASE_URL is pooled and no DATABASE_DIRECT_URL is set, then the configuration is refused, naming it', () => {
    const env = { DATABASE_URL: 'postgres://u@pooler:6432/db', DATABASE_POOLING: 'transaction' };
    expect(() => loadConfig(env)).toThrow('DATABASE_POOLING=transaction needs DATABASE_DIRECT_URL (a session connection past the pooler)');
    expect(loadConfig({ ...env, DATABASE_DIRECT_URL: 'postgres://u@db:5432/db' })).toMatchObject({
      databasePooling: 'transaction',
      databaseDirectUrl: 'postgres://u@db:5432/db',
    });
  });
});
