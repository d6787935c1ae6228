// Trusted documents on the live transports (GRAPHQL_TRUSTED_DOCUMENTS, docs/security.md): the
// WebSocket on /graphql and /graphql/stream apply what /graphql applies. Under `enforce` the
// manifest's subscription (notificationReceived) is served and delivers; another document is
// refused (an error message on the socket, 403 on the stream) unless the connection carries a
// system token with the explore scope in x-api-key; under `log` it is served and logged once.
import { createSystemToken, suffix, useTestApp, type TestApp } from '../kit';
import { liveAudience, openSocket, openStream, SUBSCRIPTION } from '../kit/live';
import { sha256 } from './persisted-queries';
import { NOTIFICATION_RECEIVED_SUBSCRIPTION } from '../../src/graphql/examples';
import { trustedManifest } from '../../src/graphql/trusted-manifest';
import { ROUTES } from '../kit/routes';

const NOT_TRUSTED = {
  message:
    'The document is not in the trusted documents manifest. Send a manifest document (its text, or its id as ' +
    'extensions.persistedQuery.sha256Hash), or a system token with the explore scope in x-api-key.',
  extensions: { code: 'FORBIDDEN', errorCode: 'WSInsufficientPrivilegesException' },
};

/** A subscription outside the manifest: the documentation's curl example selects fewer fields. */
const UNKNOWN = 'subscription { notificationReceived { notificationId type message url read received } }';

const unknownLogs = (t: TestApp) => t.logs.filter((l) => l.msg === 'document not in the trusted documents manifest');

/** Every client a test opens, closed after it whatever its outcome (an open one would hold the app's stop). */
const clients: { close(): void }[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
const socket = (...args: Parameters<typeof openSocket>) => {
  const s = openSocket(...args);
  clients.push(s);
  return s;
};
const openTracked = async (...args: Parameters<typeof openStream>) => {
  const s = await openStream(...args);
  clients.push(s);
  return s;
};

/** Both sockets are acknowledged; `refused` gets the error message, `served` its subscription registered. */
async function servedAndRefused(served: ReturnType<typeof openSocket>, refused: ReturnType<typeof openSocket>) {
  expect(await served.acked).toBe(true);
  expect(await refused.acked).toBe(true);
  expect(await refused.message('error')).toEqual({ id: '1', type: 'error', payload: [NOT_TRUSTED] });
  await served.settled();
}

it('the manifest holds the subscription the live transports document, by the SHA-256 of its text', () => {
  expect(trustedManifest(ROUTES).operations).toContainEqual({
    id: sha256(NOTIFICATION_RECEIVED_SUBSCRIPTION),
    name: 'notificationReceived',
    type: 'subscription',
    body: NOTIFICATION_RECEIVED_SUBSCRIPTION,
  });
  expect(UNKNOWN).not.toBe(SUBSCRIPTION);
});

describe('GRAPHQL_TRUSTED_DOCUMENTS=enforce on the live transports', () => {
  const t = useTestApp({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'enforce' } });

  it('when the WebSocket subscribes with the manifest subscription, then the item arrives; another document is an error message and nothing', async () => {
    const { users, send } = await liveAudience(t, 1);
    const trusted = socket(t, users[0].token, { query: NOTIFICATION_RECEIVED_SUBSCRIPTION });
    const unknown = socket(t, users[0].token, { query: UNKNOWN });
    await servedAndRefused(trusted, unknown);
    const message = `trusted live ${suffix()}`;
    await send(message);
    expect((await trusted.next())?.item).toMatchObject({ type: 'GT', message, read: false });
    expect(trusted.messages.filter((m) => m.type === 'error')).toEqual([]);
    // The refused subscription receives nothing; its socket stays open for a manifest document.
    expect(await unknown.next(300)).toBeNull();
    expect(unknown.ws.readyState).toBe(unknown.ws.OPEN);
    trusted.close();
    unknown.close();
  });

  it('when an x-api-key with the explore scope is in connectionParams, then another document is served too', async () => {
    const { users, send } = await liveAudience(t, 1);
    const explorer = await createSystemToken(t.orm, ['explore'], { name: 'Analyst' });
    const ingestion = await createSystemToken(t.orm, ['ingestion']);
    const exploring = socket(t, users[0].token, { query: UNKNOWN, extra: { 'x-api-key': explorer } });
    const lacking = socket(t, users[0].token, { query: UNKNOWN, extra: { 'x-api-key': ingestion } });
    await servedAndRefused(exploring, lacking);
    const message = `explored live ${suffix()}`;
    await send(message);
    expect((await exploring.next())?.item).toMatchObject({ type: 'GT', message });
    exploring.close();
    lacking.close();
  });

  it('when a ping follows a subscribe whose x-api-key is looked up, then its pong comes after the subscription is answered', async () => {
    const { users } = await liveAudience(t, 1);
    const ingestion = await createSystemToken(t.orm, ['ingestion']);
    const lacking = socket(t, users[0].token, { query: UNKNOWN, extra: { 'x-api-key': ingestion } });
    expect(await lacking.acked).toBe(true);
    await lacking.settled();
    expect(lacking.messages).toEqual([
      { type: 'connection_ack' },
      { id: '1', type: 'error', payload: [NOT_TRUSTED] },
      { type: 'pong', payload: { n: 1 } },
    ]);
  });

  it('when an event stream asks for another document, then it is 403 before the stream opens; the manifest subscription streams', async () => {
    const { users, send } = await liveAudience(t, 1);
    const refused = await openTracked(t, users[0].token, { query: UNKNOWN });
    expect(refused.res.status).toBe(403);
    expect(await refused.res.json()).toEqual({ errors: [NOT_TRUSTED] });
    // Without a token, the token is refused first, as for every document.
    expect((await openTracked(t, undefined, { query: UNKNOWN })).res.status).toBe(401);

    const explorer = await createSystemToken(t.orm, ['explore']);
    const explored = await openTracked(t, users[0].token, { query: UNKNOWN, extra: { 'x-api-key': explorer } });
    const stream = await openTracked(t, users[0].token, { query: NOTIFICATION_RECEIVED_SUBSCRIPTION });
    for (const s of [explored, stream]) {
      expect(s.res.status).toBe(200);
      expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    }
    // The streams' subscriptions have started once their responses have begun.
    const message = `trusted stream ${suffix()}`;
    await send(message);
    for (const s of [stream, explored]) {
      const event = await s.next();
      expect(event).toMatchObject({ event: 'next', data: { data: { notificationReceived: { type: 'GT', message } } } });
      s.close();
    }
  });
});

describe('GRAPHQL_TRUSTED_DOCUMENTS=log on the live transports', () => {
  const t = useTestApp({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'log' } });

  it('when a document outside the manifest subscribes, then it is served and its id logged once; the manifest one is not logged', async () => {
    const { users, send } = await liveAudience(t, 1);
    const query = `subscription probe${suffix()} { notificationReceived { notificationId message } }`;
    const first = socket(t, users[0].token, { query });
    const stream = await openTracked(t, users[0].token, { query });
    const trusted = socket(t, users[0].token, { query: NOTIFICATION_RECEIVED_SUBSCRIPTION });
    expect(stream.res.status).toBe(200);
    for (const s of [first, trusted]) {
      expect(await s.acked).toBe(true);
      await s.settled();
    }
    const message = `logged live ${suffix()}`;
    await send(message);
    expect((await first.next())?.item).toMatchObject({ message });
    expect(await stream.next()).toMatchObject({ event: 'next', data: { data: { notificationReceived: { message } } } });
    expect((await trusted.next())?.item).toMatchObject({ message });
    expect(unknownLogs(t).filter((l) => l.documentId === sha256(query))).toEqual([
      expect.objectContaining({ level: 40, documentId: sha256(query), apiKey: false }),
    ]);
    expect(unknownLogs(t).filter((l) => l.documentId === sha256(NOTIFICATION_RECEIVED_SUBSCRIPTION))).toEqual([]);
    first.close();
    trusted.close();
    stream.close();
  });
});
