// What a GraphQL client reads of an error (issue 55, item 5): extensions.code is the common
// category its error link branches on, extensions.errorCode the specification's identifier and
// extensions.field the field at fault, as a REST body names them. One error of each category that
// /graphql answers, its exact `extensions`, and the same over the subscription transports.
import crypto from 'node:crypto';
import { createDirectory, createSystemToken, createUserAddress, useTestApp, useWithoutDatabase } from '../kit';
import { openSocket, openStream } from '../kit/live';

const ROUTER_TOKEN = 'error-extensions-router-token';
const t = useTestApp({ demo: false, env: { RATE_LIMIT_RECOMMENDED_PER_MINUTE: '1' } });
const router = t.with({ 'x-api-key': ROUTER_TOKEN });

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId addresses { uuid } } } }';
const UPDATE_ADDRESS = 'mutation($u: String!) { updateUserAddress(addressUUID: $u, input: { uuid: $u, city: "Elsewhere" }) { uuid } }';
const UPDATE_PROFILE = 'mutation($i: UpdateUserProfileInput!) { updateUserProfile(input: $i) { updatedFieldCount } }';
const JOIN = 'mutation($d: String!) { createDirectoryContactRecord(directoryUUID: $d) { uId } }';

beforeAll(async () => {
  await createSystemToken(t.orm, ['federation'], { name: 'router', token: ROUTER_TOKEN });
});

/** The status and the `extensions` of each error of an answer. */
const extensionsOf = (res: { status: number; body: { errors?: { extensions: unknown }[] } }) => ({
  status: res.status,
  extensions: res.body.errors?.map((e) => e.extensions),
});

describe('an error a resolver raised carries its category, its identifier and its field', () => {
  it('UNAUTHENTICATED: no token', async () => {
    expect(extensionsOf(await t.gql('{ me { uId } }'))).toEqual({
      status: 200,
      extensions: [{ code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' }],
    });
  });

  it("FORBIDDEN: another user's addresses through the router's entity reference", async () => {
    const [owner, intruder] = [await t.newUser(), await t.newUser()];
    await createUserAddress(t.orm, owner.uId);
    expect(extensionsOf(await intruder.gql(ENTITIES, { r: [{ __typename: 'User', uId: owner.uId }] }))).toEqual({
      status: 200,
      extensions: [{ code: 'FORBIDDEN', errorCode: 'WSInsufficientPrivilegesException' }],
    });
  });

  it('BAD_USER_INPUT: a field over its length, named as the REST body names it', async () => {
    const u = await t.newUser();
    const uFirstName = 'x'.repeat(101);
    const gql = await u.gql(UPDATE_PROFILE, { i: { uId: u.uId, uFirstName } });
    expect(extensionsOf(gql)).toEqual({
      status: 200,
      extensions: [{ code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'uFirstName' }],
    });
    const rest = await u.rest('PUT', '/rest/user/profile', { body: { uId: u.uId, uFirstName } });
    expect({ status: rest.status, body: rest.body }).toEqual({
      status: 400,
      body: { errorCode: 'WSFieldLengthException', message: gql.body.errors![0].message, field: 'uFirstName' },
    });
  });

  it("NOT_FOUND: another user's address, as REST answers it", async () => {
    const [owner, intruder] = [await t.newUser(), await t.newUser()];
    const { uuid } = await createUserAddress(t.orm, owner.uId);
    const gql = await intruder.gql(UPDATE_ADDRESS, { u: uuid });
    expect(extensionsOf(gql)).toEqual({
      status: 200,
      extensions: [{ code: 'NOT_FOUND', errorCode: 'WSAddressNotFoundException', field: 'addressUUID' }],
    });
    const rest = await intruder.rest('PUT', `/rest/user/addresses/${uuid}`, { body: { uuid, city: 'Elsewhere' } });
    expect({ status: rest.status, errorCode: rest.body.errorCode, field: rest.body.field }).toEqual({
      status: 404,
      errorCode: 'WSAddressNotFoundException',
      field: 'addressUUID',
    });
  });

  it('CONFLICT: joining a directory a second time', async () => {
    const u = await t.newUser();
    const directory = await createDirectory(t.orm, { members: [u.uId] });
    expect((await u.gql(JOIN, { d: directory.uuid })).body.errors).toBeUndefined();
    expect(extensionsOf(await u.gql(JOIN, { d: directory.uuid }))).toEqual({
      status: 200,
      extensions: [{ code: 'CONFLICT', errorCode: 'WSAlreadyExistsException' }],
    });
  });

  it('RATE_LIMITED: past the limit, with retryAfter', async () => {
    const u = await t.newUser();
    const query = '{ recommendedEntities(version: 2, entityType: ["company"]) { entityId } }';
    expect((await u.gql(query)).status).toBe(200);
    const refused = await u.gql(query);
    expect(extensionsOf(refused)).toEqual({
      status: 429,
      extensions: [{ code: 'RATE_LIMITED', errorCode: 'WSLimitExceededException', retryAfter: Number(refused.headers.get('retry-after')) }],
    });
  });

  it('INTERNAL_SERVER_ERROR: a failure of unknown cause, its message hidden', async () => {
    const u = await t.newUser();
    await t.sql(`alter table app_user add constraint error_extensions_refuses check (first_name is distinct from 'Refused')`);
    try {
      const res = await u.gql(UPDATE_PROFILE, { i: { uId: u.uId, uFirstName: 'Refused' } });
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: 'An internal error occurred.',
          extensions: { code: 'INTERNAL_SERVER_ERROR', errorCode: 'WSInternalException' },
        }),
      ]);
    } finally {
      await t.sql('alter table app_user drop constraint error_extensions_refuses');
    }
  });
});

describe('an error raised before the operation runs carries the category of its status', () => {
  it('PAYLOAD_TOO_LARGE: representations weighing more than their bound (413)', async () => {
    const pad = 'x'.repeat(3000);
    const users = Array.from({ length: 100 }, (_v, i) => ({ __typename: 'User', uId: 1_000_000 + i, pad }));
    expect(extensionsOf(await router.gql(ENTITIES, { r: users }))).toEqual({
      status: 413,
      extensions: [{ code: 'PAYLOAD_TOO_LARGE', errorCode: 'WSLimitExceededException', field: 'representations' }],
    });
  });

  it("BAD_USER_INPUT: a variable graphql-js cannot coerce, with Apollo's category and the variable named", async () => {
    const res = await t.gql('query($p: Int) { specialties(professionId: $p) { specialtyId } }', { p: 'x' });
    expect(extensionsOf(res)).toEqual({
      status: 400,
      extensions: [{ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'p' }],
    });
  });

  it("GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED: Apollo's categories, the document an invalid parameter", async () => {
    expect(extensionsOf(await t.gql('{'))).toEqual({
      status: 400,
      extensions: [{ code: 'GRAPHQL_PARSE_FAILED', errorCode: 'WSInvalidParameterException' }],
    });
    expect(extensionsOf(await t.gql('{ noSuchField }'))).toEqual({
      status: 400,
      extensions: [{ code: 'GRAPHQL_VALIDATION_FAILED', errorCode: 'WSInvalidParameterException' }],
    });
  });

  it("the protocol's own refusals (persisted queries, a request without a query) keep Apollo's code alone", async () => {
    const post = (body: unknown) => t.rest('POST', '/graphql', { body });
    const unknown = { version: 1, sha256Hash: sha256(crypto.randomUUID()) };
    expect(extensionsOf(await post({ extensions: { persistedQuery: unknown } }))).toEqual({
      status: 200,
      extensions: [{ code: 'PERSISTED_QUERY_NOT_FOUND' }],
    });
    const mismatch = { version: 1, sha256Hash: sha256('{ me { uId } }') };
    expect(extensionsOf(await post({ query: '{ __typename }', extensions: { persistedQuery: mismatch } }))).toEqual({
      status: 400,
      extensions: [{ code: 'PERSISTED_QUERY_HASH_MISMATCH' }],
    });
    expect(extensionsOf(await post({ variables: {} }))).toEqual({ status: 400, extensions: [{ code: 'BAD_REQUEST' }] });
  });
});

describe('without automatic persisted queries', () => {
  const off = useTestApp({ demo: false, env: { GRAPHQL_APQ_CACHE_BYTES: '0' } });

  it('PERSISTED_QUERY_NOT_SUPPORTED', async () => {
    const res = await off.rest('POST', '/graphql', {
      body: { extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ a }') } } },
    });
    expect(extensionsOf(res)).toEqual({ status: 200, extensions: [{ code: 'PERSISTED_QUERY_NOT_SUPPORTED' }] });
  });
});

describe('when the database does not answer', () => {
  const down = useWithoutDatabase();

  it("SERVICE_UNAVAILABLE: the module's service exception", async () => {
    const res = await fetch(`${down.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ conditions { conditionId } }' }),
    });
    expect({ status: res.status, extensions: ((await res.json()) as any).errors.map((e: any) => e.extensions) }).toEqual({
      status: 200,
      extensions: [{ code: 'SERVICE_UNAVAILABLE', errorCode: 'WSRefDataServiceException' }],
    });
  });
});

describe('over the subscription transports', () => {
  it('an event stream refused for its token answers 401 with the same extensions', async () => {
    const stream = await openStream(t);
    expect({ status: stream.res.status, body: await stream.res.json() }).toEqual({
      status: 401,
      body: {
        errors: [
          {
            message: 'The auth token is missing or invalid.',
            extensions: { code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' },
          },
        ],
      },
    });
  });

  it('a graphql-ws subscription that does not validate carries the extensions /graphql gives', async () => {
    const u = await t.newUser();
    const socket = openSocket(t, await u.token(), { query: 'subscription { noSuchField }' });
    try {
      expect(await socket.acked).toBe(true);
      const error = await socket.message('error');
      expect(error).toEqual({
        id: '1',
        type: 'error',
        payload: [
          {
            message: 'Cannot query field "noSuchField" on type "Subscription".',
            locations: [{ line: 1, column: 16 }],
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED', errorCode: 'WSInvalidParameterException' },
          },
        ],
      });
    } finally {
      socket.close();
    }
  });

  // The same document sent to /graphql, to the event stream and over graphql-ws: one answer, the
  // place in the text included (an editor marks it there).
  const DOCUMENT_ERRORS: [string, string, object][] = [
    [
      'does not parse',
      'subscription {\n  notificationReceived { notificationId\n',
      {
        message: 'Syntax Error: Expected Name, found <EOF>.',
        locations: [{ line: 3, column: 1 }],
        extensions: { code: 'GRAPHQL_PARSE_FAILED', errorCode: 'WSInvalidParameterException' },
      },
    ],
    [
      'does not validate',
      'subscription {\n  notificationReceived { notificationId nope }\n}',
      {
        message: 'Cannot query field "nope" on type "InboxNotification". Did you mean "type"?',
        locations: [{ line: 2, column: 41 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', errorCode: 'WSInvalidParameterException' },
      },
    ],
  ];

  it.each(DOCUMENT_ERRORS)(
    'a subscription that %s is refused alike on /graphql, the event stream and graphql-ws',
    async (_, query, error) => {
      const u = await t.newUser();
      const token = await u.token();
      const graphql = await u.gql(query);
      const stream = await openStream(t, token, { query });
      const socket = openSocket(t, token, { query });
      try {
        expect(await socket.acked).toBe(true);
        expect({
          graphql: { status: graphql.status, body: graphql.body },
          stream: { status: stream.res.status, body: await stream.res.json() },
          socket: (await socket.message('error')).payload,
        }).toEqual({
          graphql: { status: 400, body: { errors: [error] } },
          stream: { status: 400, body: { errors: [error] } },
          socket: [error],
        });
      } finally {
        socket.close();
      }
    },
  );
});
