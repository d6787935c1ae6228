// Real nginx (Debian's package: `apt-get install -y nginx`) in front of a test app: the deployable
// deploy/nginx/pronet.conf with its upstream and listen port replaced, run in the foreground from
// a temporary directory on a free loopback port (no system service, nothing outside that
// directory written). Clients reach it from a loopback address of their choice, so that two
// clients on one machine are two addresses to nginx (Linux routes all of 127.0.0.0/8 to lo).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort, type Reply, type TestApp } from '../kit';
import { toReply } from '../kit/http';
import { binary, startHelper, tempDir } from '../kit/processes';

export const SITE_CONF = path.join(__dirname, '../../deploy/nginx/pronet.conf');

/** How long a request may take to be answered through nginx. */
const REQUEST_MS = 15_000;

export interface Nginx {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  port: number;
  /** What nginx wrote to its error log so far. */
  errorLog(): string;
  stop(): Promise<void>;
}

/** `conf` with `pattern` replaced once; the file must hold exactly one such line, or the test would run something else. */
export function replaceOne(conf: string, pattern: RegExp, replacement: string): string {
  const hits = conf.match(new RegExp(pattern.source, 'gm')) ?? [];
  if (hits.length !== 1) throw new Error(`${SITE_CONF}: expected one line matching ${pattern}, found ${hits.length}`);
  return conf.replace(new RegExp(pattern.source, 'm'), replacement);
}

/** The site file pointed at `upstream` (host:port) and listening on 127.0.0.1:`port`. */
export function siteFor(conf: string, upstream: string, port: number): string {
  const pointed = replaceOne(conf, /^(\s*server\s+)[^\s;{]+;/, `$1${upstream};`);
  return replaceOne(pointed, /^(\s*listen\s+)[^;]+;/, `$1127.0.0.1:${port};`);
}

/** The main file around the site: what Debian's /etc/nginx/nginx.conf gives it, with every path in `dir`. */
function mainConf(dir: string, site: string): string {
  return `worker_processes 1;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${site};
}
`;
}

export interface NginxOptions {
  /** A change to the site file after its upstream and port are set: a control that shows what a line is for. */
  edit?: (site: string) => string;
}

/** nginx in front of the service at `upstreamUrl` (http://host:port), listening once this resolves. */
export async function startNginx(upstreamUrl: string, { edit = (site) => site }: NginxOptions = {}): Promise<Nginx> {
  // Started as root, nginx runs its workers as an unprivileged user, who must reach the temporary paths.
  const dir = tempDir('pronet-nginx-');
  const port = await freePort();
  const site = path.join(dir, 'pronet.conf');
  const main = path.join(dir, 'nginx.conf');
  fs.writeFileSync(site, edit(siteFor(fs.readFileSync(SITE_CONF, 'utf8'), new URL(upstreamUrl).host, port)));
  fs.writeFileSync(main, mainConf(dir, site));
  const errorLogFile = path.join(dir, 'error.log');
  const errorLog = () => (fs.existsSync(errorLogFile) ? fs.readFileSync(errorLogFile, 'utf8') : '');
  // SIGTERM is nginx's fast shutdown: the master stops its workers and exits.
  const nginx = await startHelper(
    'nginx',
    binary('nginx', 'nginx'),
    ['-p', dir, '-c', main, '-g', `daemon off; pid ${dir}/nginx.pid; error_log ${errorLogFile} notice;`],
    port,
    dir,
  );
  return { baseUrl: `http://127.0.0.1:${port}`, port, errorLog, stop: () => nginx.stop() };
}

/** nginx in front of `t` for this describe block, started in beforeAll once the app is, stopped in afterAll. */
export function useNginx(t: TestApp, options: NginxOptions = {}): () => Nginx {
  let nginx: Nginx | undefined;
  beforeAll(async () => {
    nginx = await startNginx(t.baseUrl, options);
  });
  afterAll(() => nginx?.stop());
  return () => {
    if (!nginx) throw new Error('useNginx: nginx starts in beforeAll');
    return nginx;
  };
}

export interface ProxiedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * A request to `url` on a new connection from the loopback address `from` (127.0.0.2, ...): the
 * client nginx sees at `$remote_addr`. Rejects when no answer comes within 15 s.
 */
export function requestFrom(from: string, url: string, { method = 'GET', headers = {}, body }: ProxiedRequest = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        localAddress: from,
        agent: false,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(REQUEST_MS),
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const replyHeaders = new Headers(
            Object.entries(res.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
          );
          resolve(toReply(res.statusCode!, replyHeaders, Buffer.concat(parts)));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
