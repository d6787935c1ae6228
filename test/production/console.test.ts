// A person at the console (issue 52). Started in development, the service's banner lists /graphiql
// (the explorer that works offline) beside the Sandbox; with LOG_FORMAT=pretty (the default on a
// terminal outside production and tests) its log reads `HH:MM:SS.mmm LEVEL message key=value`; and
// the development identity provider it mounts writes nothing to stderr (oidc-provider's "you MUST
// change it" about its in-memory store, which is what a development provider wants). Production and
// piped output stay JSON, one object a line, as log collectors and these tests read them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { loadConfig } from '../../src/config';
import { prettyLine } from '../../src/logger';
import { emptyDeployment, type EmptyDeployment } from '../kit/production';
import { SERVER_ENTRY } from '../kit/spawn';

const server = Boolean(process.env.DATABASE_URL);
const CLOCK = /^\d{2}:\d{2}:\d{2}\.\d{3} /;

(server ? describe : describe.skip)('when the service starts in development with LOG_FORMAT=pretty', () => {
  let deployment: EmptyDeployment;
  beforeAll(async () => {
    expect(fs.existsSync(SERVER_ENTRY)).toBe(true); // npm test builds before running jest
    deployment = await emptyDeployment();
  });
  afterAll(() => deployment.remove());

  it('then its log lines read as time, level and message, its banner lists /graphiql, and stderr stays empty', async () => {
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        ...deployment.env,
        HOST: '127.0.0.1',
        PORT: '0',
        PUBLIC_BASE_URL: 'http://localhost:4000',
        LOG_FORMAT: 'pretty',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const lines: string[] = [];
    try {
      // The banner ends with its demo log-in, then a blank line.
      const port = await new Promise<number>((resolve, reject) => {
        let listening = 0;
        readline.createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          const m = / INFO {2}listening port=(\d+) /.exec(line);
          if (m) listening = Number(m[1]);
          else if (line.includes('"msg":"listening"')) reject(new Error(`listening logged as JSON: ${line}`));
          if (listening && line.includes('-> authToken')) resolve(listening);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });

      expect(lines.find((l) => l.includes('listening'))).toMatch(
        new RegExp(`${CLOCK.source}INFO  listening port=${port} database=postgresql$`),
      );
      expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
      expect(lines.filter((l) => /^\S/.test(l)).every((l) => CLOCK.test(l))).toBe(true);
      expect(lines).toEqual(
        expect.arrayContaining([
          '  GraphQL (Apollo Sandbox): http://localhost:4000/graphql',
          '  GraphiQL (offline):       http://localhost:4000/graphiql',
        ]),
      );
      const explorer = await fetch(`http://127.0.0.1:${port}/graphiql`);
      expect([explorer.status, explorer.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      // The development identity provider is mounted (the inbound flow's default here) and quiet.
      const discovery = await fetch(`http://127.0.0.1:${port}/dev-idp/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
      expect(stderr).toBe('');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});

describe('LOG_FORMAT', () => {
  const onTerminal = <T>(isTTY: boolean, read: () => T): T => {
    const before = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
    try {
      return read();
    } finally {
      if (before) Object.defineProperty(process.stdout, 'isTTY', before);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
  };

  it('is pretty in development on a terminal, and JSON when piped, under test, in production or when asked', () => {
    const format = (env: Record<string, string>, tty: boolean) => onTerminal(tty, () => loadConfig(env).logFormat);
    expect({
      developmentTerminal: format({ NODE_ENV: 'development' }, true),
      developmentPiped: format({ NODE_ENV: 'development' }, false),
      testTerminal: format({ NODE_ENV: 'test' }, true),
      asked: format({ NODE_ENV: 'development', LOG_FORMAT: 'json' }, true),
      askedPretty: format({ NODE_ENV: 'development', LOG_FORMAT: 'pretty' }, false),
    }).toEqual({ developmentTerminal: 'pretty', developmentPiped: 'json', testTerminal: 'json', asked: 'json', askedPretty: 'pretty' });
  });

  it('pretty writes an error as its type and message, its stack indented below', () => {
    const time = new Date(2026, 11, 1, 9, 5, 7, 42).getTime();
    const record = {
      level: 50,
      time,
      requestId: 'r-1',
      err: {
        type: 'TypeError',
        message: 'x is not a function',
        stack: 'TypeError: x is not a function\n    at f (a.js:1:2)\n    at g (b.js:3:4)',
      },
      msg: 'unhandled error',
    };
    expect(prettyLine(`${JSON.stringify(record)}\n`)).toBe(
      '09:05:07.042 ERROR unhandled error err="TypeError: x is not a function" requestId=r-1\n    at f (a.js:1:2)\n    at g (b.js:3:4)\n',
    );
  });
});
