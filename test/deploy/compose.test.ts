// The compose files' shape (CI validates their syntax with docker-compose itself, in .ci/run): the
// production file publishes the balancer's ports only, the replicas reach PostgreSQL through the
// pooler and wait for the migration job, every variable the service is given is one it knows, the
// env file example names every value the file asks for (its placeholders are the ones production
// refuses), every file it mounts is in the repository; the development file keeps its keys on a
// volume and PostgreSQL off the host. The balancer's start script is run on deploy/nginx/pronet.conf,
// and the site it writes is checked by nginx when nginx is installed (.ci/run installs it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ENV_EXAMPLE_PLACEHOLDERS, VARIABLES } from '../../src/config';
import { exampleValues } from './compose-env';

const ROOT = path.join(__dirname, '../..');
const PROD = 'deploy/compose/docker-compose.prod.yml';

interface Service {
  image?: string;
  build?: { context: string } | string;
  command?: string[];
  restart?: string;
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
  profiles?: string[];
  stop_grace_period?: string;
}

const load = (file: string) =>
  parseYaml(fs.readFileSync(path.join(ROOT, file), 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes?: object };
const prod = load(PROD).services;
const dev = load('docker-compose.yml');

/** The services that run the image this repository's Dockerfile builds. */
const ours = Object.entries(prod).filter(([, s]) => typeof s.build === 'object' && s.build.context === '../..');
const replicas = ours.filter(([, s]) => !s.command).map(([name]) => name);
/** host:port of a connection URL whose password is still a ${...} of compose (not a URL yet). */
const hostOf = (url: string) => /@([\w.-]+:\d+)(\/|$)/.exec(url)?.[1];

describe('the production compose file', () => {
  it('publishes host ports on the balancer only', () => {
    expect(
      Object.entries(prod)
        .filter(([, s]) => s.ports)
        .map(([name]) => name),
    ).toEqual(['balancer']);
  });

  it('runs two replicas and a migration job of the image, pinned images for the rest', () => {
    expect(replicas).toEqual(['pronet-1', 'pronet-2']);
    expect(ours.filter(([, s]) => s.command).map(([name, s]) => [name, s.command])).toEqual([
      ['migrate', ['node', '--enable-source-maps', 'dist/scripts/migrate.js']],
    ]);
    for (const [name, s] of Object.entries(prod)) {
      if (s.build) continue;
      expect({ name, image: s.image }).toEqual({ name, image: expect.stringMatching(/^[\w./-]+:[\w.-]*\d[\w.-]*$/) });
    }
  });

  it('restarts and health-checks every long-running service (the image has its own HEALTHCHECK)', () => {
    for (const [name, s] of Object.entries(prod)) {
      if (name === 'migrate') {
        expect([s.restart, s.healthcheck]).toEqual(['no', { disable: true }]);
        continue;
      }
      expect({ name, restart: s.restart }).toEqual({ name, restart: 'unless-stopped' });
      if (!replicas.includes(name)) expect({ name, test: s.healthcheck?.test?.[0] }).toEqual({ name, test: expect.stringMatching(/^CMD/) });
    }
  });

  it('has the replicas use the pooler in transaction mode, PostgreSQL directly for sessions, and wait for the migration job', () => {
    for (const name of replicas) {
      const { environment: env, depends_on: dependsOn, stop_grace_period: grace } = prod[name];
      expect(env).toMatchObject({
        NODE_ENV: 'production',
        MIGRATE_ON_START: 'false',
        DATABASE_POOLING: 'transaction',
        TRUST_PROXY_HOPS: '1',
      });
      expect(hostOf(env!.DATABASE_URL)).toBe('pgbouncer:5432');
      expect(hostOf(env!.DATABASE_DIRECT_URL)).toBe('postgres:5432');
      expect(hostOf(env!.REDIS_URL)).toBe('redis:6379');
      // Reads on the streaming replica, directly (a session: nothing to pool there).
      expect(hostOf(env!.DATABASE_REPLICA_URLS)).toBe('postgres-replica:5432');
      expect(dependsOn).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        pgbouncer: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      // SHUTDOWN_DRAIN_MS (5 s in production) and SHUTDOWN_TIMEOUT_MS (10 s) fit in it.
      expect(grace).toBe('30s');
    }
    expect(prod.pgbouncer.environment).toMatchObject({ POOL_MODE: 'transaction', DB_HOST: 'postgres' });
    // The replica: a base backup of postgres on its first start, on a volume of its own; postgres admits its replication connection.
    expect(prod['postgres-replica']).toMatchObject({
      entrypoint: ['sh', '/etc/pronet/replica.sh'],
      depends_on: { postgres: { condition: 'service_healthy' } },
    });
    expect(fs.readFileSync(path.join(ROOT, 'deploy/compose/replica.sh'), 'utf8')).toContain(
      'pg_basebackup -h postgres -U pronet -D "$PGDATA" -R',
    );
    expect(prod.postgres.volumes).toContain('./primary-replication.sh:/docker-entrypoint-initdb.d/primary-replication.sh:ro');
    // The migration job goes straight to PostgreSQL.
    expect(prod.migrate.environment).toMatchObject({ DATABASE_POOLING: 'session' });
    expect(hostOf(prod.migrate.environment!.DATABASE_URL)).toBe('postgres:5432');
  });

  it('gives the service only variables it declares (src/config.ts)', () => {
    for (const [name, s] of ours) {
      const unknown = Object.keys(s.environment ?? {}).filter((v) => !(v in VARIABLES));
      expect({ name, unknown }).toEqual({ name, unknown: [] });
    }
  });

  it('takes every value from the env file, whose example names each, the required ones with a value', () => {
    const text = fs.readFileSync(path.join(ROOT, PROD), 'utf8');
    const used = new Map<string, boolean>();
    for (const m of text.matchAll(/(?<!\$)\$\{(\w+)(:?[?-])?/g)) used.set(m[1], used.get(m[1]) || m[2] === ':?');
    const example = new Map(
      fs
        .readFileSync(path.join(ROOT, 'deploy/compose/.env.example'), 'utf8')
        .split('\n')
        .filter((l) => /^\w+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
    );
    expect([...used.keys()].filter((v) => !example.has(v))).toEqual([]);
    expect([...used].filter(([v, required]) => required && !example.get(v)).map(([v]) => v)).toEqual([]);
    // The secrets are required: a missing one stops compose before anything starts.
    for (const secret of ['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'AUTH_SIGNING_KEYS', 'LOGIN_CLIENT_SECRET', 'VAPID_PRIVATE_KEY'])
      expect({ secret, required: used.get(secret) }).toEqual({ secret, required: true });
  });

  it("has as placeholders exactly the values production refuses (src/config.ts's ENV_EXAMPLE_PLACEHOLDERS)", () => {
    const placeholders = [...new Set([...exampleValues().values()].filter((v) => v.startsWith('replace-with-')))].sort();
    expect(placeholders.length).toBeGreaterThan(0);
    expect([...ENV_EXAMPLE_PLACEHOLDERS].sort()).toEqual(placeholders);
  });

  it('mounts only files and folders the repository holds (the router needs no rover run first)', () => {
    const missing = Object.entries(prod).flatMap(([name, s]) =>
      (s.volumes ?? [])
        .map((v) => v.split(':')[0])
        .filter((source) => source.startsWith('.'))
        .filter((source) => !fs.existsSync(path.resolve(ROOT, 'deploy/compose', source)))
        .map((source) => `${name}: ${source}`),
    );
    expect(missing).toEqual([]);
  });

  it('fronts the replicas with deploy/nginx/pronet.conf, and keeps the router behind its profile', () => {
    const balancer = prod.balancer;
    expect(balancer.environment?.PRONET_UPSTREAMS.split(' ')).toEqual(replicas.map((r) => `${r}:4000`));
    expect(balancer.volumes).toContain('../nginx/pronet.conf:/etc/pronet/pronet.conf:ro');
    // The router's own way in (port 8080) stays inside the compose network.
    expect(balancer.ports).toEqual(['${PRONET_HTTP_PORT:-80}:80', '${PRONET_ROUTER_PORT:-4000}:4000']);
    expect(prod.router.profiles).toEqual(['router']);
  });
});

describe('the balancer start script', () => {
  /** Runs the script into a fresh folder with two replicas; the folder is removed after `check`. */
  function written(check: (dir: string) => void) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'balancer-'));
    try {
      fs.writeFileSync(path.join(dir, 'default.conf'), 'server { listen 80; }\n');
      const r = spawnSync('sh', [path.join(ROOT, 'deploy/compose/balancer.sh'), 'true'], {
        env: {
          PATH: process.env.PATH,
          PRONET_SITE_IN: path.join(ROOT, 'deploy/nginx/pronet.conf'),
          PRONET_ROUTER_SITE_IN: path.join(ROOT, 'deploy/compose/router.nginx.conf'),
          PRONET_SITE_DIR: dir,
          PRONET_UPSTREAMS: '127.0.0.1:4101 127.0.0.1:4102',
        },
        encoding: 'utf8',
      });
      expect([r.status, r.stderr]).toEqual([0, '']);
      check(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('writes pronet.conf with the upstream replaced by the replicas, the router site, and no default site', () => {
    written((dir) => {
      expect(fs.readdirSync(dir).sort()).toEqual(['pronet.conf', 'router.conf']);
      const original = fs.readFileSync(path.join(ROOT, 'deploy/nginx/pronet.conf'), 'utf8');
      const site = fs.readFileSync(path.join(dir, 'pronet.conf'), 'utf8');
      expect(site).toBe(original.replace(/^ {2}server 127\.0\.0\.1:4000;\n/m, '  server 127.0.0.1:4101;\n  server 127.0.0.1:4102;\n'));
    });
  });

  // Needs Debian's nginx, which .ci/run installs before any test: under CI its absence fails.
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  (nginx || process.env.CI ? it : it.skip)('writes sites that nginx -t accepts (needs nginx)', () => {
    if (!nginx) throw new Error('nginx is not installed: .ci/run installs it before the tests');
    written((dir) => {
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp { access_log off; include ${dir}/pronet.conf; include ${dir}/router.conf; }\n`,
      );
      const t = spawnSync(nginx, ['-t', '-c', path.join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
      expect([t.status, t.stderr]).toEqual([0, expect.stringContaining('test is successful')]);
    });
  });
});

describe('the development compose file', () => {
  it('keeps PostgreSQL off the host and the generated keys on a named volume', () => {
    expect(dev.services.postgres.ports).toBeUndefined();
    expect(dev.services.service.volumes).toContain('data:/app/.data');
    expect(dev.volumes).toHaveProperty('data');
    expect(dev.services.service.environment).toMatchObject({ NODE_ENV: 'development' });
  });
});
