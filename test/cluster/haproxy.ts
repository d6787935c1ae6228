// Real HAProxy (Debian's package: `apt-get install -y haproxy`) in front of the cluster's instances,
// as an operator would run it: round robin, health checks on /readyz, a connection that fails or an
// answer that never comes retried on another instance (L7 retries with redispatch). Run in the
// foreground from a temporary directory on loopback ports, with a stats listener the test reads to
// see which instances HAProxy counts as up.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../kit';
import { binary, startHelper, tempDir } from '../kit/processes';

/** How often HAProxy asks each instance's /readyz; one failed check takes it out, two good ones put it back. */
export const CHECK_INTERVAL_MS = 500;

export interface HAProxy {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Each server's status as HAProxy sees it (UP, DOWN, ...), by name (s1, s2, ...). */
  status(): Promise<Record<string, string>>;
  /** Resolves once HAProxy counts server `name` as UP. */
  waitUp(name: string, ms?: number): Promise<void>;
  /** HAProxy's own log (abnormal requests and health-check changes). */
  log(): string;
  stop(): Promise<void>;
}

export function haproxyConfig(port: number, statsPort: number, servers: number[]): string {
  return `global
  maxconn 2000
  log stdout format raw local0

defaults
  mode http
  log global
  option httplog
  option dontlog-normal
  option log-health-checks
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout http-keep-alive 4s
  timeout tunnel 1h
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  option forwardfor

frontend pronet
  bind 127.0.0.1:${port}
  default_backend instances

backend instances
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
  default-server check inter ${CHECK_INTERVAL_MS} fall 1 rise 2
${servers.map((p, i) => `  server s${i + 1} 127.0.0.1:${p}`).join('\n')}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /
`;
}

/** HAProxy on a free loopback port in front of the instances listening on `servers` (their ports, in order: s1, s2, ...). */
export async function startHAProxy(servers: number[]): Promise<HAProxy> {
  const dir = tempDir('pronet-haproxy-');
  const [port, statsPort] = [await freePort(), await freePort()];
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, haproxyConfig(port, statsPort, servers));
  // -db: stay in the foreground; -W: master-worker, so SIGTERM stops it at once.
  const helper = await startHelper('haproxy', binary('haproxy', 'haproxy'), ['-db', '-W', '-f', file], port, dir);

  const status = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/;csv`)).text();
    const [header, ...rows] = csv.trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const [px, sv, st] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    const out: Record<string, string> = {};
    for (const row of rows.map((r) => r.split(','))) if (row[px] === 'instances' && /^s\d+$/.test(row[sv])) out[row[sv]] = row[st];
    return out;
  };
  const waitUp = async (name: string, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while ((await status())[name] !== 'UP') {
      if (Date.now() > deadline) throw new Error(`HAProxy does not count ${name} as up: ${JSON.stringify(await status())}`);
      await sleep(50);
    }
  };
  return { baseUrl: `http://127.0.0.1:${port}`, status, waitUp, log: () => helper.output(), stop: () => helper.stop() };
}
