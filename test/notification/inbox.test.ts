// The inbox (issue 20, item 1): the caller's delivered notifications with their read state, over
// REST (getUserNotifications, markNotificationRead, markAllNotificationsRead) and GraphQL
// (User.notifications, User.unreadNotificationCount, markNotificationRead, markNotificationsRead,
// markAllNotificationsRead). Only the owner reads or changes an inbox; the demo tenant gives
// Olivia four items, two of them read.
import { CARA, createCompany, createSystemToken, DEMO, NORTHWIND, OLIVIA, PAT, useTestApp, type Client } from '../kit';
import { PAGING_ERRORS, walkBothWays, type PagingVariables } from '../kit/paging';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const INBOX = '/rest/user/notifications';
const ITEM_FIELDS = 'notificationId type companyId eventUUID brochureId message url read received';
const FEDERATION_TOKEN = 'inbox-router-token';

/** Olivia's demo inbox, newest first, as REST and GraphQL answer it. */
const DEMO_INBOX = [
  {
    notificationId: DEMO.sentIds.event,
    type: 'GE',
    companyId: NORTHWIND,
    eventUUID: DEMO.eventUuidOf(1),
    brochureId: null,
    message: 'Parking at the auditorium is free for attendees of this session.',
    url: null,
    read: false,
    received: Date.parse('2026-11-18T05:00:00Z'),
  },
  {
    notificationId: DEMO.sentIds.scheduled,
    type: 'GT',
    companyId: NORTHWIND,
    eventUUID: null,
    brochureId: null,
    message: 'Reminder: the December rosters are published on the wall.',
    url: null,
    read: false,
    received: Date.parse('2026-11-14T22:00:00Z'), // 09:00 in Sydney on 15 November
  },
  {
    notificationId: DEMO.sentIds.flu,
    type: 'GT',
    companyId: NORTHWIND,
    eventUUID: null,
    brochureId: null,
    message: 'The staff flu vaccination clinic is open all week in the Haymarket building, level 2.',
    url: 'https://northwindhealth.example/flu-clinic',
    read: true,
    received: Date.parse('2026-11-10T01:30:00Z'),
  },
  {
    notificationId: DEMO.sentIds.welcome,
    type: 'GT',
    companyId: NORTHWIND,
    eventUUID: null,
    brochureId: null,
    message: 'Welcome to the Northwind Health wall: events, resources and news for our clinicians.',
    url: null,
    read: true,
    received: Date.parse('2026-11-01T00:00:00Z'),
  },
];

interface Delivery {
  /** Delivery instant (timestamptz text; microseconds allowed). */
  at: string;
  readAt?: string | null;
  companyId?: number;
  type?: string;
  message?: string;
  url?: string | null;
  brochureId?: number | null;
}

/** One sent notification delivered to each of `userIds` (an inbox row each); answers its id. */
async function deliver(userIds: number[], d: Delivery): Promise<number> {
  const [row] = await t.sql(
    `with s as (insert into sent_notification (type, company_id, message, url, brochure_id, successful, total_notifications_sent,
        notification_created, notification_modified, notification_created_by, notification_modified_by)
      values (?, ?, ?, ?, ?, true, ?, ?::timestamptz, ?::timestamptz, '1', '1') returning notification_id)
    insert into notification_inbox (notification_id, user_id, delivered_at, read_at)
      select s.notification_id, u, ?::timestamptz, ?::timestamptz from s, unnest(?::int[]) u returning notification_id`,
    [
      d.type ?? 'GT',
      d.companyId ?? NORTHWIND,
      d.message ?? `Note at ${d.at}`,
      d.url ?? null,
      d.brochureId ?? null,
      userIds.length,
      d.at,
      d.at,
      d.at,
      d.readAt ?? null,
      `{${userIds.join(',')}}`,
    ],
  );
  return row.notification_id;
}

/** `count` notifications delivered to the user a minute apart from 2030-01-01 (oldest first); answers their ids in that order. */
async function deliverMany(userId: number, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await deliver([userId], { at: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString() }));
  return ids;
}

/** The read time of a user's item, epoch ms (null: unread). */
const readAtOf = async (userId: number, notificationId: number): Promise<number | null> =>
  (
    await t.sql(
      `select floor(extract(epoch from read_at) * 1000)::float8 as ms from notification_inbox where user_id = ? and notification_id = ?`,
      [userId, notificationId],
    )
  )[0].ms;

/** Whether a read time was set within the last minute (by the service's clock, the system's in tests). */
const justNow = (ms: number | null) => ms !== null && ms <= Date.now() && ms > Date.now() - 60_000;

const ids = (items: { notificationId: number }[]) => items.map((i) => i.notificationId);

describe('getUserNotifications (GET /rest/user/notifications)', () => {
  it('when Olivia reads her inbox, then the demo items come back newest first with every field and their read state', async () => {
    const res = await olivia.rest('GET', `${INBOX}?version=1`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: DEMO_INBOX });
  });

  it('when unreadOnly is true, then only the unread items come back, in the same order', async () => {
    const res = await olivia.rest('GET', `${INBOX}?version=1&unreadOnly=true`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: DEMO_INBOX.filter((i) => !i.read) });
    expect((await olivia.rest('GET', `${INBOX}?version=1&unreadOnly=false`)).body).toEqual(DEMO_INBOX);
  });

  it('when an inbox holds 51 items, then page 1 holds the 50 newest, page 2 the oldest, page 3 nothing', async () => {
    const u = await t.newUser();
    const delivered = await deliverMany(u.uId, 51);
    const newestFirst = [...delivered].reverse();
    expect(ids((await u.rest('GET', `${INBOX}?version=1`)).body)).toEqual(newestFirst.slice(0, 50));
    expect(ids((await u.rest('GET', `${INBOX}?version=1&pageNum=1`)).body)).toEqual(newestFirst.slice(0, 50));
    expect(ids((await u.rest('GET', `${INBOX}?version=1&pageNum=2`)).body)).toEqual([delivered[0]]);
    expect((await u.rest('GET', `${INBOX}?version=1&pageNum=3`)).body).toEqual([]);
  });

  it('when items share a delivery instant, then the higher notification id comes first; microseconds order items of one millisecond', async () => {
    const u = await t.newUser();
    const a = await deliver([u.uId], { at: '2030-02-01T00:00:00.000100Z' });
    const b = await deliver([u.uId], { at: '2030-02-01T00:00:00.000900Z' });
    const c = await deliver([u.uId], { at: '2030-02-01T00:00:00.000500Z' });
    const d = await deliver([u.uId], { at: '2030-02-01T00:01:00Z' });
    const e = await deliver([u.uId], { at: '2030-02-01T00:01:00Z' });
    const body = (await u.rest('GET', `${INBOX}?version=1`)).body;
    expect(ids(body)).toEqual([e, d, b, c, a]);
    expect(body.map((i: { received: number }) => i.received)).toEqual(
      [60_000, 60_000, 0, 0, 0].map((ms) => Date.parse('2030-02-01T00:00:00Z') + ms),
    );
  });

  it("when another user reads their inbox, then none of Olivia's items are in it; a user with none gets []", async () => {
    const res = await t.as(PAT).rest('GET', `${INBOX}?version=1`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
    const cara = (await t.as(CARA).rest('GET', `${INBOX}?version=1`)).body;
    expect(ids(cara)).toEqual([DEMO.sentIds.scheduled, DEMO.sentIds.flu, DEMO.sentIds.welcome]);
    expect(cara.every((i: { read: boolean }) => !i.read)).toBe(true); // Olivia's read state is hers
  });

  it('when an item came from a company that is now inactive or hides its wall, then it stays in the inbox (the record is the user’s)', async () => {
    const u = await t.newUser();
    const inactive = await createCompany(t.orm, { active: false });
    const hidden = await createCompany(t.orm, { hiddenWall: true });
    const i1 = await deliver([u.uId], {
      at: '2030-03-01T00:00:00Z',
      companyId: inactive.companyId,
      type: 'GA',
      brochureId: 77,
      url: 'app://x',
    });
    const i2 = await deliver([u.uId], { at: '2030-03-02T00:00:00Z', companyId: hidden.companyId, message: 'Hidden wall news' });
    const res = await u.rest('GET', `${INBOX}?version=1`);
    expect(res.body).toEqual([
      {
        notificationId: i2,
        type: 'GT',
        companyId: hidden.companyId,
        eventUUID: null,
        brochureId: null,
        message: 'Hidden wall news',
        url: null,
        read: false,
        received: Date.parse('2030-03-02T00:00:00Z'),
      },
      {
        notificationId: i1,
        type: 'GA',
        companyId: inactive.companyId,
        eventUUID: null,
        brochureId: 77,
        message: 'Note at 2030-03-01T00:00:00Z',
        url: 'app://x',
        read: false,
        received: Date.parse('2030-03-01T00:00:00Z'),
      },
    ]);
  });

  it.each([
    ['version=2', 400, { errorCode: 'WSUnsupportedVersionException', message: 'Only version 1 is supported.', field: 'version' }],
    ['', 400, { errorCode: 'WSInvalidParameterException', message: 'Invalid value for version.', field: 'version' }],
    ['version=x', 400, { errorCode: 'WSInvalidParameterException', message: 'Invalid value for version.', field: 'version' }],
    ['version=1&pageNum=0', 400, { errorCode: 'WSInvalidParameterException', message: 'pageNum must be 1 or more.', field: 'pageNum' }],
    ['version=1&pageNum=-3', 400, { errorCode: 'WSInvalidParameterException', message: 'pageNum must be 1 or more.', field: 'pageNum' }],
    ['version=1&pageNum=x', 400, { errorCode: 'WSInvalidParameterException', message: 'Invalid value for pageNum.', field: 'pageNum' }],
    [
      'version=1&unreadOnly=maybe',
      400,
      { errorCode: 'WSInvalidParameterException', message: 'Invalid value for unreadOnly.', field: 'unreadOnly' },
    ],
  ])('when the query is "%s", then %i with the exact error body', async (query, status, body) => {
    const res = await olivia.rest('GET', `${INBOX}?${query}`);
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
  });

  it('when no credential is sent, then 401 WSInvalidAuthTokenException', async () => {
    const res = await t.rest('GET', `${INBOX}?version=1`);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 401,
      body: { errorCode: 'WSInvalidAuthTokenException', message: expect.any(String) },
    });
  });
});

describe('markNotificationRead (PUT /rest/user/notifications/{notificationId}/read)', () => {
  it('when the owner marks an item read, then 204 without a body, and the item reads read; again: 204, its first read time kept', async () => {
    const u = await t.newUser();
    const n = await deliver([u.uId], { at: '2030-04-01T00:00:00Z' });
    const res = await u.rest('PUT', `${INBOX}/${n}/read`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 204, body: '' });
    const first = await readAtOf(u.uId, n);
    expect(justNow(first)).toBe(true);
    expect((await u.rest('GET', `${INBOX}?version=1`)).body).toMatchObject([{ notificationId: n, read: true }]);
    const again = await u.rest('PUT', `${INBOX}/${n}/read`);
    expect({ status: again.status, body: again.body }).toEqual({ status: 204, body: '' });
    expect(await readAtOf(u.uId, n)).toEqual(first);
  });

  it('when a notification was delivered to two users and one marks it read, then only their own item changes', async () => {
    const [u, v] = [await t.newUser(), await t.newUser()];
    const n = await deliver([u.uId, v.uId], { at: '2030-04-02T00:00:00Z' });
    expect((await u.rest('PUT', `${INBOX}/${n}/read`)).status).toBe(204);
    expect(justNow(await readAtOf(u.uId, n))).toBe(true);
    expect(await readAtOf(v.uId, n)).toBeNull();
  });

  const notFound = { errorCode: 'WSNotificationNotFoundException', message: "A notification is not in the caller's inbox." };

  it("when the id is another user's notification or unknown, then 404 WSNotificationNotFoundException and nothing changes", async () => {
    const before = await t.rows('notification_inbox', { notification_id: DEMO.sentIds.event });
    for (const [who, id] of [
      [t.as(PAT), DEMO.sentIds.event],
      [t.as(CARA), DEMO.sentIds.event], // Cara did not receive the event note
      [olivia, 2_000_000_000],
      [olivia, 0],
      [olivia, -1],
    ] as [Client, number][]) {
      const res = await who.rest('PUT', `${INBOX}/${id}/read`);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: notFound });
    }
    expect(await t.rows('notification_inbox', { notification_id: DEMO.sentIds.event })).toEqual(before);
  });

  it('when the id is not an integer, then 400 WSInvalidParameterException naming notificationId', async () => {
    for (const id of ['abc', '1.5', '99999999999']) {
      const res = await olivia.rest('PUT', `${INBOX}/${id}/read`);
      expect({ id, status: res.status, body: res.body }).toEqual({
        id,
        status: 400,
        body: { errorCode: 'WSInvalidParameterException', message: 'Invalid value for notificationId.', field: 'notificationId' },
      });
    }
  });

  it('when no credential is sent, then 401 and nothing changes', async () => {
    const res = await t.rest('PUT', `${INBOX}/${DEMO.sentIds.event}/read`);
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 401, errorCode: 'WSInvalidAuthTokenException' });
    expect(await readAtOf(OLIVIA, DEMO.sentIds.event)).toBeNull();
  });
});

describe('markAllNotificationsRead (PUT /rest/user/notifications/read)', () => {
  it('when the owner marks all read, then {updated} counts the unread ones, read ones keep their time, other inboxes are untouched', async () => {
    const [u, v] = [await t.newUser(), await t.newUser()];
    const read = await deliver([u.uId], { at: '2030-05-01T00:00:00Z', readAt: '2030-05-01T01:00:00Z' });
    const shared = await deliver([u.uId, v.uId], { at: '2030-05-02T00:00:00Z' });
    await deliver([u.uId], { at: '2030-05-03T00:00:00Z' });
    const res = await u.rest('PUT', `${INBOX}/read`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { updated: 2 } });
    expect(await readAtOf(u.uId, read)).toBe(Date.parse('2030-05-01T01:00:00Z'));
    expect(await readAtOf(v.uId, shared)).toBeNull();
    expect((await u.rest('GET', `${INBOX}?version=1&unreadOnly=true`)).body).toEqual([]);
    const again = await u.rest('PUT', `${INBOX}/read`);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: { updated: 0 } });
  });

  it('when the inbox is empty, then {updated: 0}; without a credential 401', async () => {
    const res = await t.as(PAT).rest('PUT', `${INBOX}/read`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { updated: 0 } });
    const anon = await t.rest('PUT', `${INBOX}/read`);
    expect({ status: anon.status, errorCode: anon.body.errorCode }).toEqual({ status: 401, errorCode: 'WSInvalidAuthTokenException' });
  });
});

describe('the OpenAPI document', () => {
  it('lists the three inbox routes with their operations, answers and errors', async () => {
    const doc = (await t.rest('GET', '/openapi.json')).body;
    const list = doc.paths[INBOX].get;
    expect(list.operationId).toBe('getUserNotifications');
    expect(
      list.parameters.map((p: { name: string; in: string; required: boolean; $ref?: string }) => p.$ref ?? [p.name, p.in, p.required]),
    ).toEqual([
      ['version', 'query', true],
      ['pageNum', 'query', false],
      ['unreadOnly', 'query', false],
      '#/components/parameters/IfNoneMatch',
    ]);
    const schemaOf = (s: { $ref?: string }) => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);
    expect(list.responses['200'].content['application/json'].schema.items).toEqual({ $ref: '#/components/schemas/InboxNotification' });
    const item = schemaOf(list.responses['200'].content['application/json'].schema.items);
    expect(item.required).toEqual(ITEM_FIELDS.split(' '));
    expect(list.responses['400'].description).toBe('WSInvalidParameterException, WSUnsupportedVersionException');
    const one = doc.paths[`${INBOX}/{notificationId}/read`].put;
    expect(one.operationId).toBe('markNotificationRead');
    expect(Object.keys(one.responses)).toEqual(['204', '400', '401', '404', '409', '422', '503']);
    expect(one.responses['404'].description).toBe('WSNotificationNotFoundException');
    expect(one.parameters).toEqual([
      expect.objectContaining({ name: 'notificationId', in: 'path', required: true, schema: { type: 'integer' } }),
      { $ref: '#/components/parameters/IdempotencyKey' },
    ]);
    const all = doc.paths[`${INBOX}/read`].put;
    expect(all.operationId).toBe('markAllNotificationsRead');
    expect(schemaOf(all.responses['200'].content['application/json'].schema)).toMatchObject({ required: ['updated'] });
  });
});

const CONNECTION = `notifications(first: $first, after: $after, last: $last, before: $before, unreadOnly: $unreadOnly) {
  totalCount edges { cursor node { ${ITEM_FIELDS} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }`;
const USER_INBOX = `query($first: Int, $after: String, $last: Int, $before: String, $unreadOnly: Boolean) {
  userProfile { uId unreadNotificationCount ${CONNECTION} } }`;

async function connection(who: Client, variables: Record<string, unknown> = {}) {
  const res = await who.gql(USER_INBOX, { unreadOnly: false, ...('last' in variables ? {} : { first: 20 }), ...variables });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.userProfile;
}

describe('User.notifications and User.unreadNotificationCount', () => {
  it('when Olivia asks for her first two, then the two newest come with cursors, the total and her unread count', async () => {
    const me = await connection(olivia, { first: 2 });
    expect(me.unreadNotificationCount).toBe(2);
    expect(me.notifications.totalCount).toBe(4);
    expect(me.notifications.edges.map((e: { node: unknown }) => e.node)).toEqual(DEMO_INBOX.slice(0, 2));
    const cursors = me.notifications.edges.map((e: { cursor: string }) => e.cursor);
    expect(me.notifications.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: cursors[0],
      endCursor: cursors[1],
    });
    const rest = await connection(olivia, { first: 5, after: cursors[1] });
    expect(rest.notifications.edges.map((e: { node: unknown }) => e.node)).toEqual(DEMO_INBOX.slice(2));
    expect(rest.notifications.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const unread = await connection(olivia, { unreadOnly: true });
    expect(unread.notifications.edges.map((e: { node: unknown }) => e.node)).toEqual(DEMO_INBOX.filter((i) => !i.read));
    expect(unread.notifications.totalCount).toBe(2);
  });

  it('when a user walks 51 items (ties and items of one millisecond among them) by cursor, then each comes once, in the REST order', async () => {
    const u = await t.newUser();
    await deliverMany(u.uId, 45);
    for (const at of ['2030-06-01T00:00:00.000100Z', '2030-06-01T00:00:00.000900Z', '2030-06-01T00:00:00.000500Z'])
      await deliver([u.uId], { at });
    for (let i = 0; i < 3; i++) await deliver([u.uId], { at: '2030-06-02T00:00:00Z', readAt: i === 1 ? '2030-06-03T00:00:00Z' : null });
    const restOrder = [
      ...ids((await u.rest('GET', `${INBOX}?version=1`)).body),
      ...ids((await u.rest('GET', `${INBOX}?version=1&pageNum=2`)).body),
    ];
    expect(restOrder).toHaveLength(51);
    const walked: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const me = await connection(u, { first: 7, after });
      expect(me.notifications.totalCount).toBe(51);
      walked.push(...ids(me.notifications.edges.map((e: { node: { notificationId: number } }) => e.node)));
      if (!me.notifications.pageInfo.hasNextPage) break;
      after = me.notifications.pageInfo.endCursor;
    }
    expect(walked).toEqual(restOrder);
    expect((await connection(u)).unreadNotificationCount).toBe(50);
    // Back from the oldest with last: 7 and before: the same edges, the pages in reverse order, pageInfo exact.
    const read = (unreadOnly: boolean) => async (variables: PagingVariables) => {
      const { notifications } = await connection(u, { ...variables, unreadOnly });
      expect(notifications.totalCount).toBe(unreadOnly ? 50 : 51);
      return { ...notifications, edges: notifications.edges.map((e: any) => ({ cursor: e.cursor, node: e.node.notificationId })) };
    };
    const { backward } = await walkBothWays(read(false), 7, restOrder);
    expect(backward.map((p) => p.edges.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 2]);
    // The unread ones only: the item read is in neither walk.
    const unread = (await u.rest('GET', `${INBOX}?version=1&unreadOnly=true&pageNum=1`)).body;
    const unreadRest = (await u.rest('GET', `${INBOX}?version=1&unreadOnly=true&pageNum=2`)).body;
    await walkBothWays(read(true), 10, ids([...unread, ...unreadRest]));
  });

  it('when first, last, after or before is not acceptable, or first and last come together, then WSInvalidParameterException naming it', async () => {
    const forged = (key: unknown[]) => Buffer.from(JSON.stringify(['inbox', ...key])).toString('base64url');
    const { first, last, both, after, before } = PAGING_ERRORS;
    const notCursors = [
      'nonsense',
      forged([1, 2]), // a number where the microsecond text belongs
      forged(['1 or 1=1', 2]),
      forged(['17', 2.5]),
      Buffer.from(JSON.stringify(['companyEvents', '1', 2])).toString('base64url'),
    ];
    for (const [variables, { message, field }] of [
      [{ first: 0 }, first],
      [{ first: 101 }, first],
      [{ first: null, last: 0 }, last],
      [{ first: null, last: 101 }, last],
      [{ first: 20, last: 20 }, both],
      ...notCursors.map((cursor) => [{ after: cursor }, after]),
      ...notCursors.map((cursor) => [{ first: null, last: 5, before: cursor }, before]),
    ] as [Record<string, unknown>, { message: string; field: string }][]) {
      const res = await olivia.gql(USER_INBOX, { first: 20, unreadOnly: false, ...variables });
      expect({
        variables,
        errors: res.body.errors?.map((e: any) => [e.message, e.extensions.code, e.extensions.errorCode, e.extensions.field]),
      }).toEqual({
        variables,
        errors: [[message, 'BAD_USER_INPUT', 'WSInvalidParameterException', field]],
      });
    }
  });

  it('when the User is another user (a federation reference resolved by the router token), then both fields are refused', async () => {
    await createSystemToken(t.orm, ['federation'], { name: 'inbox-router', token: FEDERATION_TOKEN });
    const entities = (fields: string) => `query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId ${fields} } } }`;
    for (const field of ['notifications { totalCount }', 'unreadNotificationCount']) {
      const res = await t.gql(entities(field), { r: [{ __typename: 'User', uId: OLIVIA }] }, { 'x-api-key': FEDERATION_TOKEN });
      expect(res.body).toEqual({
        data: { _entities: [null] },
        errors: [
          expect.objectContaining({
            message: 'Only the user themselves may read their notifications.',
            path: ['_entities', 0, field.split(' ')[0]],
            extensions: { code: 'FORBIDDEN', errorCode: 'WSInsufficientPrivilegesException' },
          }),
        ],
      });
    }
    const query = entities('unreadNotificationCount notifications { totalCount }');
    // Her own reference, with her own token: her inbox.
    const own = await olivia.gql(query, { r: [{ __typename: 'User', uId: OLIVIA }] });
    expect(own.body).toEqual({ data: { _entities: [{ uId: OLIVIA, unreadNotificationCount: 2, notifications: { totalCount: 4 } }] } });
  });
});

describe('markNotificationsRead, markNotificationRead and markAllNotificationsRead (GraphQL)', () => {
  const MARK = `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) { updated } }`;

  it('when every id is in the caller’s inbox, then the unread ones are marked and counted; duplicates count once', async () => {
    const u = await t.newUser();
    const [a, b, c] = await deliverMany(u.uId, 3);
    await t.sql(`update notification_inbox set read_at = '2030-01-05T00:00:00Z' where notification_id = ?`, [c]);
    const res = await u.gql(MARK, { ids: [a, b, b, c] });
    expect(res.body).toEqual({ data: { markNotificationsRead: { updated: 2 } } });
    expect(await readAtOf(u.uId, c)).toBe(Date.parse('2030-01-05T00:00:00Z'));
    expect((await connection(u)).unreadNotificationCount).toBe(0);
    expect((await u.gql(MARK, { ids: [] })).body).toEqual({ data: { markNotificationsRead: { updated: 0 } } });
  });

  it('when one id is not the caller’s, then WSNotificationNotFoundException and none is marked', async () => {
    const [u, v] = [await t.newUser(), await t.newUser()];
    const mine = await deliver([u.uId], { at: '2030-07-01T00:00:00Z' });
    const theirs = await deliver([v.uId], { at: '2030-07-01T00:00:00Z' });
    const res = await u.gql(MARK, { ids: [mine, theirs] });
    expect(res.body).toEqual({
      data: null,
      errors: [
        expect.objectContaining({
          message: "A notification is not in the caller's inbox.",
          path: ['markNotificationsRead'],
          extensions: { code: 'NOT_FOUND', errorCode: 'WSNotificationNotFoundException' },
        }),
      ],
    });
    expect([await readAtOf(u.uId, mine), await readAtOf(v.uId, theirs)]).toEqual([null, null]);
  });

  it('when more than 100 ids are named, then WSLimitExceededException naming ids', async () => {
    const res = await olivia.gql(MARK, { ids: Array.from({ length: 101 }, (_, i) => i + 1) });
    expect(res.body.errors?.map((e: any) => [e.extensions.errorCode, e.extensions.field, e.message])).toEqual([
      ['WSLimitExceededException', 'ids', 'ids holds at most 100 items.'],
    ]);
  });

  it('markNotificationRead answers 1, then 0; markAllNotificationsRead counts the rest', async () => {
    const u = await t.newUser();
    const [a] = await deliverMany(u.uId, 3);
    const one = `mutation($id: Int!) { markNotificationRead(notificationId: $id) { updated } }`;
    expect((await u.gql(one, { id: a })).body).toEqual({ data: { markNotificationRead: { updated: 1 } } });
    expect((await u.gql(one, { id: a })).body).toEqual({ data: { markNotificationRead: { updated: 0 } } });
    expect((await u.gql(`mutation { markAllNotificationsRead { updated } }`)).body).toEqual({
      data: { markAllNotificationsRead: { updated: 2 } },
    });
  });

  it('when the mutations are called without a credential, then WSInvalidAuthTokenException', async () => {
    const res = await t.gql(`mutation { markAllNotificationsRead { updated } }`);
    expect(res.body.errors?.map((e: any) => e.extensions.errorCode)).toEqual(['WSInvalidAuthTokenException']);
  });
});
