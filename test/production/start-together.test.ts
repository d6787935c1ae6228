// Replicas start together (issue 38): three instances of the compiled service started at once on
// one empty PostgreSQL database all become ready, with the schema migrated and the demo tenant
// seeded once, by whichever instance took the migration lock first. The migration job
// (`npm run migrate`, compiled) run twice at once succeeds twice, and an instance with
// MIGRATE_ON_START=false starts on the migrated database and refuses, naming them, to start while
// migrations are pending.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATE_ENTRY, SERVER_ENTRY, runToExit, spawnService, type SpawnedService } from '../kit/spawn';
import { emptyDatabase, type EmptyDatabase } from '../kit/production';
import { MIGRATIONS } from '../../src/db/migrations';

const server = Boolean(process.env.DATABASE_URL);
const MIGRATION_NAMES = MIGRATIONS.map((m) => m.name).sort();

/** Lines at pino's error level or above. */
const errorsIn = (lines: any[]) => lines.filter((l) => typeof l === 'object' && l !== null && l.level >= 50);

(server ? describe : describe.skip)('on one empty PostgreSQL database', () => {
  let db: EmptyDatabase;
  const dataDirs: string[] = [];
  const started: SpawnedService[] = [];

  /**
   * Development settings (the demo seed runs too) on the test's database; each instance has a data
   * directory (its generated keys) of its own, and no development identity provider (none is needed).
   */
  const env = (extra: Record<string, string> = {}) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-'));
    dataDirs.push(dataDir);
    return { NODE_ENV: 'development', DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'info', DEV_IDP: 'false', ...extra };
  };

  beforeAll(() => expect(fs.existsSync(SERVER_ENTRY)).toBe(true)); // npm test builds before running jest
  beforeEach(async () => {
    db = await emptyDatabase();
  });
  afterEach(async () => {
    for (const s of started.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await db.drop();
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const migrationRows = () =>
    db.query<{ name: string; times: number }>('select name, count(*)::int as times from mikro_orm_migrations group by name order by name');

  it('when three instances start at once, then all become ready, each migration ran once and the demo tenant was seeded once', async () => {
    const results = await Promise.allSettled([0, 1, 2].map(() => spawnService(env())));
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    expect(results.map((r) => (r.status === 'fulfilled' ? 'started' : String(r.reason)))).toEqual(['started', 'started', 'started']);

    for (const s of started) {
      const ready = await fetch(`${s.baseUrl}/readyz`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ready', database: 'up' } });
    }
    expect(await migrationRows()).toEqual(MIGRATION_NAMES.map((name) => ({ name, times: 1 })));
    // One instance migrated and seeded; the others found the work done.
    const said = (msg: string) => started.filter((s) => s.lines.some((l) => l?.msg === msg)).length;
    expect({ migrated: said('migrations applied'), seeded: said('demo tenant seeded') }).toEqual({ migrated: 1, seeded: 1 });
    expect(await db.query('select count(*)::int as users from app_user')).toEqual([{ users: 5 }]);
    for (const s of started) expect({ errors: errorsIn(s.lines), stderr: s.stderr() }).toEqual({ errors: [], stderr: '' });

    for (const s of started) expect(await s.stop()).toBe(0);
  }, 180_000);

  it('when the migration job runs twice at once, then both succeed and each migration ran once; an instance with MIGRATE_ON_START=false then starts', async () => {
    const jobs = await Promise.all([runToExit(MIGRATE_ENTRY, env()), runToExit(MIGRATE_ENTRY, env())]);
    expect(jobs.map((j) => ({ code: j.code, errors: errorsIn(j.lines), stderr: j.stderr }))).toEqual([
      { code: 0, errors: [], stderr: '' },
      { code: 0, errors: [], stderr: '' },
    ]);
    expect(jobs.filter((j) => j.lines.some((l) => l?.msg === 'migrations applied'))).toHaveLength(1);
    expect(jobs.filter((j) => j.lines.some((l) => l?.msg === 'migrations: nothing to apply'))).toHaveLength(1);
    expect(await migrationRows()).toEqual(MIGRATION_NAMES.map((name) => ({ name, times: 1 })));
    expect(await db.query('select count(*)::int as users from app_user')).toEqual([{ users: 5 }]);

    const service = await spawnService(env({ MIGRATE_ON_START: 'false' }));
    started.push(service);
    expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
    expect(service.lines.filter((l) => l?.msg === 'migrations applied' || l?.msg === 'demo tenant seeded')).toEqual([]);
    expect(await service.stop()).toBe(0);
  }, 180_000);

  it('when MIGRATE_ON_START=false and migrations are pending, then the instance exits 1 naming them, and creates nothing', async () => {
    const refused = await runToExit(SERVER_ENTRY, env({ MIGRATE_ON_START: 'false' }), 30_000);
    expect(refused.code).toBe(1);
    expect(errorsIn(refused.lines)).toEqual([
      expect.objectContaining({
        msg: `refusing to start: ${MIGRATION_NAMES.length} migration(s) pending and MIGRATE_ON_START=false: run npm run migrate first`,
        pending: MIGRATIONS.map((m) => m.name),
      }),
    ]);
    expect(refused.lines.some((l) => l?.msg === 'listening')).toBe(false);
    expect(await db.query("select count(*)::int as tables from pg_tables where schemaname = 'public'")).toEqual([{ tables: 0 }]);
  }, 60_000);
});
