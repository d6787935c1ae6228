// A PostgreSQL primary and a streaming replica of its own (test:replica, and the cluster test's
// set-up with a replica), made with Debian's server binaries (initdb, pg_basebackup -R, pg_ctl) in
// temporary folders, listening on free loopback ports and on sockets in those folders: the
// machine's own cluster (5432) and its configuration are never touched. The replica applies each
// commit `applyDelayMs` late (recovery_min_apply_delay), which makes replication lag visible.
// PostgreSQL refuses to run as root: as root the binaries run as the `postgres` user (runuser), in
// folders it owns.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './http';

const run = promisify(execFile);

/** The newest installed server's binaries (/usr/lib/postgresql/<major>/bin). */
function serverBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => fs.existsSync(path.join(root, d, 'bin', 'initdb'))) : [];
  if (!majors.length)
    throw new Error('a primary and replica of its own need PostgreSQL server binaries under /usr/lib/postgresql/<major>/bin');
  return path.join(root, majors.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

export interface Node {
  port: number;
  dir: string;
  url(database: string): string;
  start(): Promise<void>;
  /** pg_ctl stop -m fast: open connections are ended. */
  stop(): Promise<void>;
  /**
   * SIGSTOP to the server and each of its processes: the kernel still accepts connections, and
   * nothing answers on them or on those already open. Until `resume`.
   */
  hang(): Promise<void>;
  /** SIGCONT to the processes `hang` stopped; nothing when none are. */
  resume(): void;
}

export interface Pair {
  primary: Node;
  replica: Node;
  close(): Promise<void>;
}

export async function startPair(applyDelayMs: number): Promise<Pair> {
  const bin = serverBin();
  const asRoot = process.getuid?.() === 0;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-replica-'));
  fs.chmodSync(base, 0o755);
  if (asRoot) await run('chown', ['postgres:postgres', base]);
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args);
  const write = async (file: string, text: string) => {
    fs.appendFileSync(file, text);
    if (asRoot) await run('chown', ['postgres:postgres', file]);
  };

  const node = (name: string, port: number): Node => {
    const dir = path.join(base, name);
    let stopped: number[] = [];
    return {
      port,
      dir,
      url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
      start: async () => void (await tool('pg_ctl', ['-D', dir, '-l', path.join(base, `${name}.log`), '-w', '-t', '30', 'start'])),
      stop: async () => void (await tool('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop'])),
      async hang() {
        // The server first, so it starts no process after the list is taken.
        const server = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(server, 'SIGSTOP');
        stopped = [server];
        const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(server)]);
        for (const pid of stdout.split('\n').map(Number).filter(Boolean)) {
          process.kill(pid, 'SIGSTOP');
          stopped.push(pid);
        }
      },
      resume() {
        for (const pid of stopped.reverse()) {
          try {
            process.kill(pid, 'SIGCONT');
          } catch {
            // Gone already.
          }
        }
        stopped = [];
      },
    };
  };
  const primary = node('primary', await freePort());
  const replica = node('replica', await freePort());
  const settings = (port: number) =>
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${base}'`,
      // A test's throwaway data: no waiting for the disk.
      'fsync = off',
      'full_page_writes = off',
      'wal_level = replica',
      'max_wal_senders = 4',
      'shared_buffers = 32MB',
      // The cluster test's three instances: up to 10 each to the primary, plus their job queues and the test's own.
      'max_connections = 120',
      '',
    ].join('\n');

  await tool('initdb', ['-D', primary.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C.UTF-8']);
  await write(path.join(primary.dir, 'postgresql.conf'), settings(primary.port));
  await primary.start();
  await tool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    replica.dir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  await write(
    path.join(replica.dir, 'postgresql.conf'),
    `${settings(replica.port)}hot_standby = on\nrecovery_min_apply_delay = '${applyDelayMs}ms'\n`,
  );
  await replica.start();
  return {
    primary,
    replica,
    close: async () => {
      for (const n of [replica, primary]) n.resume();
      for (const n of [replica, primary]) await tool('pg_ctl', ['-D', n.dir, '-m', 'immediate', 'stop']).catch(() => undefined);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
