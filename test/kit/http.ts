// Answers as a client sees them (status, headers, bytes, text, and the body parsed when it is
// JSON), and multipart forms. Every caller of the kit reads its answer through toReply.
import http from 'node:http';
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

/** A loopback port nothing listens on (it was free a moment ago): a dead dependency, or a port to serve on. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
