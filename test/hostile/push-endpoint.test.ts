// A push endpoint's host is judged as the name it resolves as: every spelling of a refused host
// (trailing dots, case, escapes) is refused alike, where `https://localhost./x` used to be taken
// (201) and its jobs retried against it. An accepted host is stored without its trailing dots,
// so each spelling of one endpoint is one row. Outside tests (here: development), where local
// hosts are refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OLIVIA, useTestApp } from '../kit';
import { subscriptionJson } from '../push/keys';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-endpoint-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const t = useTestApp({ env: { NODE_ENV: 'development', DATA_DIR: dataDir } });
const olivia = t.as(OLIVIA);
const PATH = '/rest/user/push-subscriptions';

const REFUSED = {
  errorCode: 'WSInvalidParameterException',
  message: 'endpoint must name a push service by its host name.',
  field: 'endpoint',
};

describe('POST /rest/user/push-subscriptions', () => {
  it.each([
    'https://localhost/x',
    'https://localhost./x',
    'https://LOCALHOST./x',
    'https://localhost.../x',
    'https://local%68ost./x',
    'https://a.localhost./x',
    'https://A.LocalHost../x',
    'https://127.0.0.1/x',
    'https://127.0.0.1./x',
    'https://127.0.0.1../x',
    'https://0x7f.1./x',
    'https://[::1]/x',
    'https://./x',
  ])('when the endpoint is %s, then 400 names endpoint', async (endpoint) => {
    const res = await olivia.rest('POST', PATH, { body: subscriptionJson(endpoint) });
    expect([res.status, res.body]).toEqual([400, REFUSED]);
  });

  it('when a push service is named with trailing dots or capitals, then it is stored without them, one row for every spelling', async () => {
    const id = `${Date.now()}`;
    const stored = `https://push.example.org/send/${id}`;
    for (const spelling of [`https://push.example.org./send/${id}`, `https://Push.Example.ORG../send/${id}`, stored]) {
      const res = await olivia.rest('POST', PATH, { body: subscriptionJson(spelling) });
      expect([res.status, res.body]).toEqual([201, { endpoint: stored, registered: expect.any(Number) }]);
    }
    expect(await t.sql('select user_id, endpoint from push_subscription where endpoint like ?', [`%/send/${id}`])).toEqual([
      { user_id: OLIVIA, endpoint: stored },
    ]);
    // Removed by any of its spellings.
    expect((await olivia.rest('DELETE', `${PATH}?endpoint=${encodeURIComponent(`https://push.example.org./send/${id}`)}`)).status).toBe(
      204,
    );
    expect(await t.sql('select 1 from push_subscription where endpoint = ?', [stored])).toEqual([]);
  });
});

describe('subscribePush', () => {
  it('when the endpoint is https://localhost./x, then WSInvalidParameterException names endpoint', async () => {
    const res = await olivia.gql('mutation($s: PushSubscriptionInput!) { subscribePush(subscription: $s) { endpoint } }', {
      s: subscriptionJson('https://localhost./x'),
    });
    expect(res.body).toEqual({
      data: null,
      errors: [
        {
          message: REFUSED.message,
          locations: [{ line: 1, column: 40 }],
          path: ['subscribePush'],
          extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'endpoint' },
        },
      ],
    });
  });
});
