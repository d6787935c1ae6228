// The backup drill of docs/deployment.md ("Backup and restore"): the compiled service on a
// database holding users, a library entry with an uploaded file, notifications and a scheduled
// notification's job; `pg_dump -Fc` taken while a user keeps adding addresses; `pg_restore` into a
// fresh database; a service started on the copy answers the same REST bodies and the same file
// bytes, holds a consistent prefix of the writes made during the dump, keeps the sessions, and
// runs the scheduled job once when its time comes. PostgreSQL's tools need a PostgreSQL server:
// on the embedded database (no DATABASE_URL) the drill is skipped, visibly.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onePagePdf } from '../kit/files';
import { jobIdOf, QUEUE_SCHEMA } from '../kit/src';
import { emptyDatabase, type EmptyDatabase } from '../kit/production';
import { SERVER_ENTRY, spawnService, type SpawnedService } from '../kit/spawn';

const server = Boolean(process.env.DATABASE_URL);
const PASSWORD = 'Demo-Passw0rd!';
const CLIENT = { client_id: 'demo-mobile', client_secret: 'demo-mobile-secret' };
const NORTHWIND = 1001;
const TEAM = '1101';
const LIBRARY = 3001;

/** Runs a PostgreSQL tool to its end; resolves with its exit code and what it wrote to stderr. */
function tool(command: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

interface Answer {
  status: number;
  body: any;
  bytes: Buffer;
}

async function call(base: string, method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${url}`, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') && bytes.length ? JSON.parse(bytes.toString('utf8')) : null;
  return { status: res.status, body: json, bytes };
}

/** Signs in as the app does: the password grant, then the legacy login that answers an auth token. */
async function signIn(base: string, email: string): Promise<Record<string, string>> {
  const grant = await fetch(`${base}/as/token.oauth2`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', scope: 'sso', ...CLIENT, username: email, password: PASSWORD }),
  });
  expect(grant.status).toBe(200);
  const { access_token } = (await grant.json()) as { access_token: string };
  const login = await call(base, 'POST', '/rest/user/login', { authorization: `Bearer ${access_token}` });
  expect(login.status).toBe(200);
  return { 'x-service-authtoken': login.body.authToken };
}

/** Sydney's wall-clock time of an instant, as scheduleLocalDateTime spells it (minutes). */
function sydneyLocal(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Australia/Sydney',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The most addresses written while the dump runs (with Olivia's own and the three after it, under the limit of 50). */
const WRITES_DURING_DUMP = 20;

(server ? describe : describe.skip)('backup and restore with pg_dump and pg_restore (PostgreSQL server only)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-drill-'));
  const dumpFile = path.join(dataDir, 'pronet.dump');
  let source: EmptyDatabase | undefined;
  let copy: EmptyDatabase | undefined;
  const services: SpawnedService[] = [];
  const start = async (db: EmptyDatabase) => {
    // Both services share the data directory, as a restored deployment keeps its configuration and keys.
    const service = await spawnService({ NODE_ENV: 'development', DATABASE_URL: db.url, DATA_DIR: dataDir, DEV_IDP: 'false' });
    services.push(service);
    return service;
  };

  afterAll(async () => {
    for (const s of services) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await source?.drop();
    await copy?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a dump taken during writes is restored into a fresh database, then a service on it answers the same bodies and bytes, a consistent prefix of the writes, and runs the scheduled job once', async () => {
    expect(fs.existsSync(SERVER_ENTRY)).toBe(true); // npm test builds before running jest
    source = await emptyDatabase();
    const a = await start(source);
    const olivia = await signIn(a.baseUrl, 'olivia@demo.example');
    const cara = await signIn(a.baseUrl, 'cara@demo.example');

    // A library entry with an uploaded file.
    const pdf = onePagePdf(`Drill ${Date.now()}`);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'drill.pdf');
    const uploaded = await call(a.baseUrl, 'POST', '/rest/smartlib/upload/file', olivia, form);
    expect(uploaded.status).toBe(200);
    const entry = await call(a.baseUrl, 'POST', '/rest/smartlib/smartentry', olivia, {
      smartLibId: LIBRARY,
      smartEntryType: 'PDF',
      smartEntryName: 'Backup drill',
      smartFileInfo: { tempFilename: uploaded.body.tempFilename, originalFilename: 'drill.pdf' },
    });
    expect(entry.status).toBe(200);
    const fileId: number = entry.body.smartFiles[0].smartFileId;

    // A notification sent now, and one scheduled a minute or two ahead (after the dump and the stop of A).
    const sent = await call(a.baseUrl, 'POST', '/rest/notification/send', cara, {
      broadcastType: 'GT',
      companyId: NORTHWIND,
      valueIds: [TEAM],
      message: 'Drill: sent before the backup',
    });
    expect(sent.status).toBe(200);
    const due = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
    const scheduled = await call(a.baseUrl, 'POST', '/rest/notification/send', cara, {
      broadcastType: 'GT',
      companyId: NORTHWIND,
      valueIds: [TEAM],
      message: 'Drill: scheduled before the backup',
      scheduleLocalDateTime: sydneyLocal(due),
      scheduleTimezoneId: 'Australia/Sydney',
    });
    expect(scheduled.status).toBe(200);
    const scheduleId: number = scheduled.body.scheduledNotification.notificationScheduleId;

    // What a client reads before the backup; the copy must answer the same.
    const reads = [
      [olivia, '/rest/user/profile'],
      [olivia, '/rest/user/notifications?version=1'],
      [cara, `/rest/notification/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}`],
      [cara, `/rest/notification/scheduled/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}`],
      [olivia, `/rest/smartlib/files/${fileId}/content`],
    ] as const;
    const before = await Promise.all(reads.map(([who, url]) => call(a.baseUrl, 'GET', url, who)));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(before[4].bytes.equals(pdf)).toBe(true);

    // Olivia keeps adding addresses, one after the other, while the dump runs: at most
    // WRITES_DURING_DUMP of them, then she waits for its end (a user keeps at most 50 addresses,
    // and a slow dump must not run her into that limit), and three more after it.
    const written: string[] = [];
    let writing = true;
    let dumped = false;
    const pause = () => new Promise((r) => setTimeout(r, 20));
    const writer = (async () => {
      while (writing) {
        if (!dumped && written.length >= WRITES_DURING_DUMP) {
          await pause();
          continue;
        }
        const res = await call(a.baseUrl, 'POST', '/rest/user/addresses', olivia, {
          typeCode: 'O',
          name: `Drill ${written.length}`,
          city: 'Sydney',
          countryCode: 'au',
        });
        expect(res.status).toBe(200);
        written.push(res.body.uuid);
      }
    })();
    // A writer that failed fails the wait at once, with its own error.
    const until = async (enough: () => boolean) => {
      while (!enough()) await Promise.race([pause(), writer]);
    };
    await until(() => written.length >= 3);
    const dump = await tool('pg_dump', ['--format=custom', `--file=${dumpFile}`, source.url]);
    dumped = true;
    const atDumpEnd = written.length;
    await until(() => written.length >= atDumpEnd + 3);
    writing = false;
    await writer;
    expect(dump).toEqual({ code: 0, stderr: '' });

    // A stops before the scheduled time: the job is the copy's to run.
    expect(Date.now()).toBeLessThan(due.getTime());
    expect(await a.stop()).toBe(0);

    copy = await emptyDatabase();
    expect(await tool('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${copy.url}`, dumpFile])).toEqual({ code: 0, stderr: '' });
    // Row for row the source as it was, but for the addresses written after the dump's snapshot.
    const counts = async (db: EmptyDatabase) => {
      const tables = await db.query<{ name: string }>(
        `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
          where table_schema in ('public', '${QUEUE_SCHEMA}') and table_type = 'BASE TABLE' order by 1`,
      );
      const rows = await Promise.all(tables.map(({ name }) => db.query<{ n: number }>(`select count(*)::int as n from ${name}`)));
      return Object.fromEntries(tables.map(({ name }, i) => [name, rows[i][0].n]));
    };
    const [was, restored] = [await counts(source), await counts(copy)];
    expect(Object.keys(restored).length).toBeGreaterThan(40);
    const addressesAfterSnapshot =
      written.length - (await copy.query(`select 1 from user_address where uuid = any($1::uuid[])`, [written])).length;
    expect(addressesAfterSnapshot).toBeGreaterThanOrEqual(3);
    expect(restored).toEqual({ ...was, 'public.user_address': was['public.user_address'] - addressesAfterSnapshot });

    const b = await start(copy);

    // The same bodies, the same bytes, with the sessions of before.
    const after = await Promise.all(reads.map(([who, url]) => call(b.baseUrl, 'GET', url, who)));
    expect(after.map((r) => ({ status: r.status, body: r.body }))).toEqual(before.map((r) => ({ status: r.status, body: r.body })));
    expect(after[4].bytes.equals(pdf)).toBe(true);

    // The addresses written during the dump: the copy holds the first k of them, nothing out of order.
    const addresses = await call(b.baseUrl, 'GET', '/rest/user/addresses', olivia);
    expect(addresses.status).toBe(200);
    const kept = new Set((addresses.body as { uuid: string }[]).map((x) => x.uuid));
    const k = written.filter((uuid) => kept.has(uuid)).length;
    expect(written.map((uuid) => kept.has(uuid))).toEqual(written.map((_uuid, i) => i < k));
    expect(k).toBeGreaterThanOrEqual(3);
    expect(k).toBeLessThanOrEqual(atDumpEnd);

    // The scheduled notification is delivered by the copy, once.
    const scheduledSent = async () => {
      const list = await call(b.baseUrl, 'GET', `/rest/notification/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}`, cara);
      return (list.body as { notificationScheduleId?: number }[]).filter((n) => n.notificationScheduleId === scheduleId);
    };
    const deadline = due.getTime() + 90_000;
    while ((await scheduledSent()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1_000));
    const job = async () =>
      (
        await copy!.query<{ state: string }>(`select state from ${QUEUE_SCHEMA}.job where id = $1`, [
          jobIdOf('notification-scheduled', String(scheduleId)),
        ])
      )
        .map((row) => row.state)
        .join();
    while ((await job()) !== 'completed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await job()).toBe('completed');
    expect(await scheduledSent()).toHaveLength(1);
    const inbox = await call(b.baseUrl, 'GET', '/rest/user/notifications?version=1', olivia);
    expect((inbox.body as { message: string }[]).filter((n) => n.message === 'Drill: scheduled before the backup')).toHaveLength(1);
    expect(await b.stop()).toBe(0);
  }, 300_000);
});
