// Real PgBouncer (Debian's package: `apt-get install -y pgbouncer`) in transaction pooling, in front
// of the PostgreSQL server the tests use: its own ini and user list in a temporary directory, a free
// loopback port, run in the foreground. Debian bookworm's 1.18 knows nothing of prepared statements
// (protocol-level support came in 1.21, and stays off unless max_prepared_statements is set), as
// with most transaction poolers: a named statement made on one server connection is missing on the
// next, so the service must send none (DATABASE_POOLING=transaction).
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../kit';
import { binary, startHelper, tempDir } from '../kit/processes';

export interface PgBouncer {
  /** `server` (a postgres:// URL) with its host and port replaced by PgBouncer's. */
  urlFor(server: string): string;
  log(): string;
  stop(): Promise<void>;
}

/** PgBouncer in transaction pooling in front of the server of `serverUrl` (any database on it; trust, as the server's own loopback). */
export async function startPgBouncer(serverUrl: string): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const dir = tempDir('pronet-pgbouncer-');
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  fs.writeFileSync(
    ini,
    `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${dir}/userlist.txt
pool_mode = transaction
default_pool_size = 12
max_client_conn = 500
server_lifetime = 3600
ignore_startup_parameters = extra_float_digits
log_connections = 0
log_disconnections = 0
`,
  );
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o644);
  // PgBouncer refuses to run as root: started as root, it switches to an unprivileged user.
  const asUser = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const helper = await startHelper('pgbouncer', binary('pgbouncer', 'pgbouncer'), [...asUser, ini], port, dir);
  return {
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    log: () => helper.output(),
    stop: () => helper.stop(),
  };
}
