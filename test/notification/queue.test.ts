// The job queue (src/core/queue.ts) on both databases: a job sent in a transaction exists only if
// it commits, a key makes a send idempotent, and the workers run it.
import type { MikroORM } from '@mikro-orm/core';
import { createOrm, migrate, createLogger } from '../kit/src';
import { createQueueRuntime, type QueueRuntime } from '../../src/core/queue';
import type { JobDeps } from '../../src/core/module';
import { send } from '../../src/db/sql';
import { ENTITIES } from '../../src/modules';

const databases = [['the embedded database (PGlite)', null] as const, ['PostgreSQL', process.env.DATABASE_URL ?? null] as const].filter(
  ([name, url]) => name.startsWith('the embedded') || url,
);

describe.each(databases)('the queue on %s', (_name, url) => {
  let orm: MikroORM;
  let queue: QueueRuntime<JobDeps>;
  const seen: unknown[] = [];
  beforeAll(async () => {
    orm = await createOrm({ entities: ENTITIES, databaseUrl: url, embeddedDir: 'memory://' });
    if (!url) await migrate(orm);
    const name = `queue-test-${Date.now()}`;
    queue = createQueueRuntime({
      orm,
      logger: createLogger('silent'),
      workers: 1,
      pollMs: 500,
      handlers: [{ name, handle: async (data) => void seen.push(data) }],
    });
    await queue.start();
    await queue.work({} as JobDeps);
    (queue as unknown as { testName: string }).testName = name;
  });
  afterAll(async () => {
    await queue.stopWork();
    await queue.close();
    await orm.close(true);
  });

  it('when jobs are sent in a transaction, then only a committed one runs, and once per key', async () => {
    const name = (queue as unknown as { testName: string }).testName;
    const em = orm.em.fork();
    const t0 = Date.now();
    await em.transactional(async (tx) => {
      await send(tx, 'select 1', [], false);
      await queue.send(tx, name, { n: 1 }, { key: 'a' });
      await queue.send(tx, name, { n: 2 }, { key: 'a' });
    });
    await expect(
      em.transactional(async (tx) => {
        await queue.send(tx, name, { n: 3 }, { key: 'b' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A committed job sent after the others is the positive signal: the worker takes jobs in the
    // order they were created, so once it has run, a run of the rolled-back or repeated one would have come.
    await em.transactional((tx) => queue.send(tx, name, { n: 4 }, { key: 'c' }));
    while (!seen.some((d) => (d as { n: number }).n === 4) && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
    expect([...seen].sort((a, b) => (a as { n: number }).n - (b as { n: number }).n)).toEqual([{ n: 1 }, { n: 4 }]);
  }, 30_000);
});
