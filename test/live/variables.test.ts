// A subscription's variables are refused as /graphql refuses them, over graphql-ws and
// /graphql/stream alike: liveSubscribe (src/http/live-sessions.ts) starts a subscription with
// graphql-js, which checks them, and graphql-jit only executes its events. One wrong value reads
// the same either way ("Invalid value for on.", event-stream.test.ts); where they part is
// graphql-js's limit of 50 errors, past which its "Too many errors" takes the 51st place
// (answered, as on /graphql, as WSInvalidParameterException on `variables`), where graphql-jit
// would name every variable.
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { useTestApp } from '../kit';
import { liveAudience, openSocket, openStream } from '../kit/live';

const app = useTestApp();

/** 51 variables of type Boolean!, each given a string. */
const NAMES = Array.from({ length: 51 }, (_, i) => `v${i + 1}`);
const VARIABLES = Object.fromEntries(NAMES.map((name) => [name, 'yes']));
const DEFINITIONS = NAMES.map((name) => `$${name}: Boolean!`).join(', ');
// Each variable decides a spread of one fragment: graphql-armor counts the directives of a
// fragment's spreads at its first spread only, so the document passes its limit of 20.
const spreads = (fragment: string) => NAMES.map((name) => `...${fragment} @include(if: $${name})`).join(' ');
const SUBSCRIPTION = `subscription (${DEFINITIONS}) { notificationReceived { ${spreads('Item')} } } fragment Item on InboxNotification { message }`;
const QUERY = `query (${DEFINITIONS}) { timezones { ${spreads('Zone')} } } fragment Zone on Timezone { timezoneId }`;

const REFUSED = {
  errors: [
    ...NAMES.slice(0, 50).map((name) => ({
      message: `Invalid value for ${name}.`,
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: name },
    })),
    {
      message: 'Too many invalid variables: the first 50 are answered.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'variables' },
    },
  ],
};

/** REFUSED with each variable's place in `document` (its definition), as /graphql and both transports answer it. */
const refusedIn = (document: string) => ({
  errors: REFUSED.errors.map((error, i) =>
    i < 50 ? { ...error, locations: [{ line: 1, column: document.indexOf(`$${NAMES[i]}:`) + 1 }] } : error,
  ),
});

/** What both transports' own clients have in common. */
interface LiveClient {
  subscribe(
    payload: { query: string; variables: Record<string, unknown> },
    sink: { next(value: unknown): void; error(err: unknown): void; complete(): void },
  ): () => void;
  dispose(): unknown;
}

const TRANSPORTS: [string, (token: string) => LiveClient][] = [
  [
    'graphql-ws',
    (token) =>
      createWsClient({
        url: `${app.baseUrl.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'x-service-authtoken': token },
        retryAttempts: 0,
      }),
  ],
  [
    'graphql-sse',
    (token) =>
      createSseClient({
        url: `${app.baseUrl}/graphql/stream`,
        singleConnection: false,
        retryAttempts: 0,
        headers: { 'x-service-authtoken': token },
      }),
  ],
];

/** Every result the subscription answers until it completes; the client is disposed of after. */
async function resultsOf(client: LiveClient, payload: { query: string; variables: Record<string, unknown> }): Promise<unknown[]> {
  const results: unknown[] = [];
  try {
    await new Promise<void>((resolve, reject) =>
      client.subscribe(payload, {
        next: (value) => void results.push(value),
        error: (err) => reject(new Error(`the subscription failed: ${JSON.stringify(err)}`)),
        complete: resolve,
      }),
    );
  } finally {
    await client.dispose();
  }
  return results;
}

describe('when a subscription is sent 51 variables, each of them invalid', () => {
  it("then /graphql, given the same variables in a query, names the first 50 and then its error limit (a client's error: nothing logged as the service's)", async () => {
    const logged = app.logs.length;
    const res = await app.gql(QUERY, VARIABLES);
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 400, errors: refusedIn(QUERY).errors });
    expect(app.logs.slice(logged).filter((line) => line.level >= 50)).toEqual([]);
  });

  it.each(TRANSPORTS)('then over %s it is refused with those errors, in one result', async (_transport, connect) => {
    const user = await app.newUser();
    expect(await resultsOf(connect(await user.token()), { query: SUBSCRIPTION, variables: VARIABLES })).toEqual([refusedIn(SUBSCRIPTION)]);
  });
});

describe("when a subscription's variable has a default and none is sent", () => {
  // As /graphql runs a query, the default stands for the value not sent (graphql-js's coercion);
  // graphql-jit, given the variables as sent, refuses a non-null one that is missing.
  const WITH_DEFAULT = 'subscription ($on: Boolean! = true) { notificationReceived { message @include(if: $on) } }';

  it('then each item is executed with the default, over graphql-ws and /graphql/stream alike', async () => {
    const { users, send } = await liveAudience(app, 1);
    const socket = openSocket(app, users[0].token, { query: WITH_DEFAULT });
    expect(await socket.acked).toBe(true);
    const stream = await openStream(app, users[0].token, { query: WITH_DEFAULT });
    try {
      expect(stream.res.status).toBe(200);
      await socket.settled();

      await send('With the default');
      expect((await socket.next())?.item).toEqual({ message: 'With the default' });
      let event = await stream.next();
      while (event?.event !== 'next' && event !== null) event = await stream.next();
      expect(event?.data).toEqual({ data: { notificationReceived: { message: 'With the default' } } });
    } finally {
      socket.close();
      stream.close();
    }
  });
});
