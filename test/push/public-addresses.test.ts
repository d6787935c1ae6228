// The service's push connections go to public addresses only: an endpoint is the browser's to
// choose, so one whose name leads into the service's own network (localhost, a private range) is
// never connected to, and the subscription is dropped as gone.
import https from 'node:https';
import { isPublicAddress, publicOnlyAgent, PushSender } from '../../src/modules/push/push.sender';
import { vapidSettings } from '../kit/production';
import { browserKeys } from './keys';
import { startPushServer, type PushServer } from './push-server';

let server: PushServer;
beforeAll(async () => {
  server = await startPushServer();
});
afterAll(() => server.close());

it('tells public addresses from this host, private networks and their IPv4-mapped forms', () => {
  const notPublic = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'];
  const alsoNot = ['224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'];
  for (const address of [...notPublic, ...alsoNot]) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  for (const address of ['8.8.8.8', '172.32.0.1', '142.250.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
    expect([address, isPublicAddress(address)]).toEqual([address, true]);
});

it('does not connect to an endpoint whose name resolves to loopback, and answers it as gone', async () => {
  const settings = vapidSettings();
  const vapid = { publicKey: settings.VAPID_PUBLIC_KEY, privateKey: settings.VAPID_PRIVATE_KEY };
  const keys = browserKeys();
  const target = {
    endpoint: server.origin.replace('127.0.0.1', 'localhost') + '/ok/private',
    keys: { p256dh: keys.p256dh, auth: keys.auth },
  };
  const guarded = new PushSender({ vapid, subject: 'mailto:ops@example.org', agent: publicOnlyAgent() });
  await expect(guarded.send(target, '{}')).resolves.toBe('gone');
  expect(server.messages).toEqual([]);
  // The same endpoint through an agent without the guard (and trusting the test server) is reached: the guard is what refused it.
  const open = new PushSender({
    vapid,
    subject: 'mailto:ops@example.org',
    agent: new https.Agent({ ca: server.ca, checkServerIdentity: () => undefined }),
  });
  await open.send(target, '{}').catch(() => undefined);
  expect(server.messages.map((m) => m.path)).toEqual(['/ok/private']);
});
