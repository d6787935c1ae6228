// A port in use (issue 52): the service checks the ports it will listen on before anything else, so
// a PORT (or METRICS_PORT) another process holds is one line naming it and exit 1, with nothing
// started: no migration has run, no queue worker has begun, no stack is printed.
import fs from 'node:fs';
import net from 'node:net';
import { emptyDeployment, type EmptyDeployment } from '../kit/production';
import { runToExit, SERVER_ENTRY } from '../kit/spawn';

const server = Boolean(process.env.DATABASE_URL);

(server ? describe : describe.skip)('when a port the service is to listen on is held by another process', () => {
  let deployment: EmptyDeployment;
  let holder: net.Server;
  let held: number;

  beforeAll(() => expect(fs.existsSync(SERVER_ENTRY)).toBe(true)); // npm test builds before running jest
  beforeEach(async () => {
    deployment = await emptyDeployment();
    holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    held = (holder.address() as net.AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => holder.close(resolve));
    await deployment.remove();
  });

  /** Development settings on the empty database (the demo seed would run too). */
  const start = (extra: Record<string, string>) =>
    runToExit(SERVER_ENTRY, { NODE_ENV: 'development', ...deployment.env, LOG_LEVEL: 'info', ...extra }, 30_000);

  const migrated = async () => (await deployment.db!.query("select to_regclass('public.mikro_orm_migrations') is not null as t"))[0].t;

  it.each([
    ['PORT', (port: number) => ({ PORT: String(port) })],
    ['METRICS_PORT', (port: number) => ({ METRICS_PORT: String(port) })],
  ])(
    'when it is %s, then one error line names it, the exit code is 1, and nothing was migrated',
    async (variable, env) => {
      const exited = await start(env(held));
      expect({ code: exited.code, stderr: exited.stderr, lines: exited.lines }).toEqual({
        code: 1,
        stderr: '',
        lines: [
          {
            level: 50,
            time: expect.any(Number),
            code: 'EADDRINUSE',
            host: '127.0.0.1',
            port: held,
            msg: `cannot listen on 127.0.0.1:${held} (${variable}): the address is already in use by another process; stop it or choose another ${variable}`,
          },
        ],
      });
      expect(await migrated()).toBe(false);
    },
    60_000,
  );
});
