// A push service on loopback for tests: HTTPS on 127.0.0.1 with a self-signed certificate made
// for the test (openssl), recording each message (path, headers, body) and answering by path:
// /gone/... 410, /missing/... 404, /broken/... 500, anything else 201 Created.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PushMessage {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushServer {
  origin: string;
  /** The certificate, for an https.Agent that trusts this server. */
  ca: string;
  messages: PushMessage[];
  close(): Promise<void>;
}

export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function startPushServer(): Promise<PushServer> {
  const { key, cert } = selfSignedCertificate();
  const messages: PushMessage[] = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      messages.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const status = req.url?.startsWith('/gone/')
        ? 410
        : req.url?.startsWith('/missing/')
          ? 404
          : req.url?.startsWith('/broken/')
            ? 500
            : 201;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    ca: cert,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
