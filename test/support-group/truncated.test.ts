// A multipart body that breaks off between file parts is a failure, not a form with fewer
// files: nothing of the support group is stored.
import net from 'node:net';
import { CARA, DEMO, fingerprint, NORTHWIND, png, useTestApp } from '../kit';

const t = useTestApp();
/** Cara (administrator of Northwind) with Northwind's active API key. */
const admin = t.as(CARA).with({ 'x-service-company-api-key': DEMO.companyApiKey });

it('when the connection drops after the first file part, then nothing is stored', async () => {
  const before = await fingerprint(t.orm);
  const headers = await admin.headers();
  const boundary = 'xTRUNCATEDx';
  const text: Record<string, string> = {
    companyId: String(NORTHWIND),
    supportGroupPrefix: 'CUT',
    supportGroupName: 'Cut off',
    teamAdminUserEmails: 'olivia@demo.example',
    directoryType: 'UNRESTRICTED',
    directoryOrder: 'FL',
    directoryFieldIds: '3,9',
    directoryConsents: JSON.stringify([{ consentType: 'DS', name: 'Listing', desc: 'List me.', required: true }]),
    assetName1: 'Guide',
    assetType1: 'html',
    assetName2: 'Library',
    assetType2: 'smartlib',
  };
  const parts = Object.entries(text).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const image = await png(32, 32);
  const head = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="assetImageFile1"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    image,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="assetImageFile2"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    image.subarray(0, 10),
  ]);
  const { port } = new URL(t.baseUrl);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      const lines = [
        'POST /rest/company/support-group HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${head.length + 100000}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ];
      socket.write(lines.join('\r\n'));
      socket.write(head, () =>
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 300),
      );
    });
    socket.on('error', reject);
  });
  // Give the service time to notice and roll back.
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const rows = await t
      .sql(`select count(*)::int as n from pg_stat_activity where state = 'idle in transaction' and datname = current_database()`)
      .catch(() => [{ n: 0 }]);
    if (rows[0].n === 0) break;
  }
  expect(await fingerprint(t.orm)).toEqual(before);
  // The service still answers.
  expect((await t.rest('GET', '/healthz')).status).toBe(200);
});
