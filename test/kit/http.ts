// Answers as a client sees them (status, headers, bytes, text, and the body parsed when it is
// JSON), and multipart forms. Every caller of the kit reads its answer through toReply.
import http from 'node:http';
import fs from 'node:fs';
import net from 'node:net';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  bytes: Buffer;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  rawBody?: string | Buffer;
}

/** A file part of a multipart form. */
export interface FilePart {
  content: Buffer;
  filename: string;
  /** The part's content type; none by default, as most clients send files. */
  type?: string;
}

/** Text parts and file parts by name, in order; an undefined value leaves the part out. */
export type FormParts = Record<string, string | FilePart | undefined>;
/** Parts exactly in the order given, a name as often as given. */
export type FormEntries = [name: string, part: string | FilePart][];

/** The one response parser. */
export function toReply(status: number, headers: Headers, bytes: Buffer): Reply {
  const text = bytes.toString('utf8');
  const body = (headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status, headers, body, text, bytes };
}

export async function readReply(res: Response): Promise<Reply> {
  return toReply(res.status, res.headers, Buffer.from(await res.arrayBuffer()));
}

export function toForm(parts: FormData | FormParts | FormEntries): FormData {
  if (parts instanceof FormData) return parts;
  const form = new FormData();
  for (const [name, part] of Array.isArray(parts) ? parts : Object.entries(parts)) {
    if (part === undefined) continue;
    if (typeof part === 'string') form.append(name, part);
    else form.append(name, new Blob([new Uint8Array(part.content)], part.type ? { type: part.type } : {}), part.filename);
  }
  return form;
}

/**
 * POSTs a multipart form on a connection of its own: a pooled keep-alive connection the server
 * is just closing would reset a request whose body cannot be replayed.
 */
export async function postForm(url: string, form: FormData, headers: Record<string, string> = {}): Promise<Reply> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          const responseHeaders = new Headers(
            Object.entries(res.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
          );
          resolve(toReply(res.statusCode!, responseHeaders, Buffer.concat(parts)));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The form of a GraphQL multipart request (the GraphQL multipart request spec): `files` maps variable paths (e.g. "input.teamImageFile") to
 * files.
 */
export function gqlForm(query: string, variables: Record<string, unknown>, files: Record<string, FilePart>): FormData {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables }));
  form.append('map', JSON.stringify(Object.fromEntries(Object.keys(files).map((p, i) => [String(i), [`variables.${p}`]]))));
  Object.values(files).forEach((f, i) => form.append(String(i), new Blob([new Uint8Array(f.content)]), f.filename));
  return form;
}

/** Binds `port` on loopback (0: any free one) and releases it at once: the port bound, or null when it is taken. */
async function bindAndRelease(port: number): Promise<number | null> {
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!bound) return null;
  const { port: got } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return got;
}

/** A loopback port nothing listens on (it was free a moment ago): a dead dependency, or a port to serve on. */
export async function freePort(): Promise<number> {
  const port = await bindAndRelease(0);
  if (port === null) throw new Error('no free loopback port');
  return port;
}

const EPHEMERAL_RANGE = '/proc/sys/net/ipv4/ip_local_port_range';

/**
 * A free loopback port below the kernel's ephemeral range, for a server stopped and started again
 * on the same port. A port from freePort lies in that range: while its server is down, the kernel
 * may hand it to any outgoing connection or listen(0) on the machine, and the server's next start
 * then fails with EADDRINUSE.
 */
export async function restartablePort(): Promise<number> {
  const low = fs.existsSync(EPHEMERAL_RANGE) ? Number(fs.readFileSync(EPHEMERAL_RANGE, 'utf8').trim().split(/\s+/)[0]) : 32768;
  // From 10000: clear of the well-known ports of servers a test may start later (5432, 6379, 8080).
  const below = Math.max(low || 32768, 12000);
  for (let tries = 0; tries < 100; tries++) {
    const port = await bindAndRelease(10000 + Math.floor(Math.random() * (below - 10000)));
    if (port !== null) return port;
  }
  throw new Error(`no free port below ${below} in 100 tries`);
}
