// The bench seeder fills the database its DATABASE_URL names, where `npm run bench` and its tools
// take the server's URL: given the server's own database (`postgres`), it refuses before
// connecting, instead of writing the bench's tens of thousands of rows there.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { refusedDatabase } from '../../scripts/seed-bench';

const SEEDER = path.join(__dirname, '..', '..', 'dist', 'scripts', 'seed-bench.js');

const REFUSAL = (name: string) =>
  `DATABASE_URL names the server's database ${name}: seed:bench fills the database its URL names ` +
  '(pronet_bench, pronet_bench_s10, pronet_bench_s100; npm run bench creates and seeds them itself)';

it('refuses the server’s own databases and takes any other, or the embedded one', () => {
  expect(['postgres', 'template0', 'template1'].map((name) => refusedDatabase(`postgres://postgres@127.0.0.1:5432/${name}`))).toEqual([
    REFUSAL('postgres'),
    REFUSAL('template0'),
    REFUSAL('template1'),
  ]);
  expect(
    [
      'postgres://postgres@127.0.0.1:5432/pronet_bench',
      'postgres://postgres@127.0.0.1:5432/postgres_bench',
      'postgres://postgres@127.0.0.1:5432/pronet_bench_s10?sslmode=disable',
      null,
    ].map(refusedDatabase),
  ).toEqual([undefined, undefined, undefined, undefined]);
});

it('when npm run seed:bench is given the server’s postgres database, then it exits 1 with the refusal before connecting', async () => {
  // Nothing listens on port 1: a seeder that connected would fail on the connection instead.
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [SEEDER],
      { env: { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres' } },
      (err, _out, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
    ),
  );
  expect(code).toBe(1);
  expect(stderr).toContain(`Error: ${REFUSAL('postgres')}`);
});
