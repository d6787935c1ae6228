// The inbox's statement counts do not grow with the items: a REST page, the User.notifications
// connection and the unread count, and marking read each take the statements of one item with
// fifty. User.notifications goes through the request's loaders: the same arguments asked
// several times (aliases, the same User reached again) cost one statement; each other argument set one more.
import { NORTHWIND, useTestApp, type NewUser } from '../kit';
import { readDeliveredItems } from '../../src/modules/notification/inbox.reads';

const t = useTestApp();
const INBOX = '/rest/user/notifications';

/** A fresh user with `count` unread items, a minute apart; answers the user and the notification ids, oldest first. */
async function inboxOf(count: number): Promise<{ u: NewUser; ids: number[] }> {
  const u = await t.newUser();
  const rows = await t.sql(
    `with s as (insert into sent_notification (type, company_id, message, successful, total_notifications_sent,
        notification_created, notification_modified, notification_created_by, notification_modified_by)
      select 'GT', ?, 'Item ' || g, true, 1, x.at, x.at, '1', '1'
      from generate_series(1, ?) g, lateral (select timestamptz '2031-01-01' + g * interval '1 minute' as at) x
      returning notification_id, notification_created)
    insert into notification_inbox (notification_id, user_id, delivered_at)
      select notification_id, ?, notification_created from s order by notification_id returning notification_id`,
    [NORTHWIND, count, u.uId],
  );
  // One unmeasured request puts the caller's token where later requests find it.
  await u.rest('GET', '/rest/user/addresses');
  return { u, ids: rows.map((r: { notification_id: number }) => r.notification_id).sort((a: number, b: number) => a - b) };
}

/** Statements of fn, and what it answered (a failing answer fails the test). */
async function measured(fn: () => Promise<{ status: number; body: any }>): Promise<{ statements: number; body: any }> {
  let res: { status: number; body: any } | undefined;
  const statements = await t.countStatements(async () => (res = await fn()));
  expect(res!.status).toBeLessThan(300);
  expect(res!.body?.errors).toBeUndefined();
  return { statements, body: res!.body };
}

const CONNECTION_QUERY = `query($first: Int, $last: Int, $before: String) { userProfile { unreadNotificationCount
  notifications(first: $first, last: $last, before: $before) {
  totalCount edges { cursor node { notificationId type companyId eventUUID brochureId message url read received } } } } }`;

describe('reading the inbox', () => {
  it('GET /rest/user/notifications: 1 item and a page of 50 (of 51) each take 2 statements (the credential, the page)', async () => {
    const one = await inboxOf(1);
    const many = await inboxOf(51);
    const a = await measured(() => one.u.rest('GET', `${INBOX}?version=1`));
    const b = await measured(() => many.u.rest('GET', `${INBOX}?version=1`));
    expect({ items: [a.body.length, b.body.length], statements: [a.statements, b.statements] }).toEqual({
      items: [1, 50],
      statements: [2, 2],
    });
  });

  it('User.notifications with unreadNotificationCount: 1 item and 50 of 51 each take 3 statements (credential, page with total, count)', async () => {
    const one = await inboxOf(1);
    const many = await inboxOf(51);
    const shape = (body: any) => [body.data.userProfile.notifications.edges.length, body.data.userProfile.notifications.totalCount];
    const oldest = (await many.u.gql(CONNECTION_QUERY, { last: 1 })).body.data.userProfile.notifications.edges[0].cursor;
    // Forward, backward from the end of the list, and backward from many's oldest item (one's only
    // item, delivered at that instant with a lower id, comes after it).
    for (const [variables, sizes] of [
      [{ first: 50 }, [1, 50]],
      [{ last: 50 }, [1, 50]],
      [{ last: 50, before: oldest }, [0, 50]],
    ] as const) {
      const a = await measured(() => one.u.gql(CONNECTION_QUERY, variables));
      const b = await measured(() => many.u.gql(CONNECTION_QUERY, variables));
      expect({ variables, pages: [shape(a.body), shape(b.body)], statements: [a.statements, b.statements] }).toEqual({
        variables,
        pages: [
          [sizes[0], 1],
          [sizes[1], 51],
        ],
        statements: [3, 3],
      });
    }
  });

  it('the same User reached 1 and 20 times (federation representations of the caller) costs the same statements', async () => {
    const { u } = await inboxOf(5);
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on User { unreadNotificationCount
      notifications(first: 3) { totalCount edges { node { notificationId } } } } } }`;
    const reps = (n: number) => Array.from({ length: n }, () => ({ __typename: 'User', uId: u.uId }));
    const a = await measured(() => u.gql(query, { r: reps(1) }));
    const b = await measured(() => u.gql(query, { r: reps(20) }));
    expect(b.body.data._entities).toHaveLength(20);
    expect(b.body.data._entities[19]).toEqual(a.body.data._entities[0]);
    expect({ one: a.statements, twenty: b.statements }).toEqual({ one: 4, twenty: 4 });
  });

  it('aliases with the same arguments share one statement; another argument set adds one', async () => {
    const { u } = await inboxOf(5);
    const base = await measured(() => u.gql(`{ userProfile { a: notifications(first: 2) { totalCount } } }`));
    const same = await measured(() =>
      u.gql(`{ userProfile { a: notifications(first: 2) { totalCount } b: notifications(first: 2) { edges { cursor } } } }`),
    );
    const other = await measured(() =>
      u.gql(`{ userProfile { a: notifications(first: 2) { totalCount } b: notifications(first: 2, unreadOnly: true) { totalCount } } }`),
    );
    expect({ base: base.statements, same: same.statements, other: other.statements }).toEqual({ base: 2, same: 2, other: 3 });
  });
});

describe('marking read', () => {
  const MARK = `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) { updated } }`;

  it('markNotificationsRead of 1 id and of 50 ids each take 2 statements (the credential, one update)', async () => {
    const one = await inboxOf(1);
    const many = await inboxOf(50);
    const a = await measured(() => one.u.gql(MARK, { ids: one.ids }));
    const b = await measured(() => many.u.gql(MARK, { ids: many.ids }));
    expect({ updated: [a.body.data.markNotificationsRead.updated, b.body.data.markNotificationsRead.updated] }).toEqual({
      updated: [1, 50],
    });
    expect({ one: a.statements, fifty: b.statements }).toEqual({ one: 2, fifty: 2 });
  });

  it('PUT /rest/user/notifications/{id}/read takes 2 statements; PUT /rest/user/notifications/read takes 2 with 1 or 51 unread', async () => {
    const one = await inboxOf(1);
    const single = await measured(() => one.u.rest('PUT', `${INBOX}/${one.ids[0]}/read`));
    expect(single.statements).toBe(2);
    const a = await inboxOf(1);
    const b = await inboxOf(51);
    const allA = await measured(() => a.u.rest('PUT', `${INBOX}/read`));
    const allB = await measured(() => b.u.rest('PUT', `${INBOX}/read`));
    expect({ updated: [allA.body.updated, allB.body.updated], statements: [allA.statements, allB.statements] }).toEqual({
      updated: [1, 51],
      statements: [2, 2],
    });
  });
});

describe("live delivery's read", () => {
  it('one statement answers one item for every recipient with the same read state, and one for those who read it', async () => {
    const [a, b, c, outsider] = [await t.newUser(), await t.newUser(), await t.newUser(), await t.newUser()];
    const [{ notification_id: id }] = await t.sql(
      `with s as (insert into sent_notification (type, company_id, message, successful, total_notifications_sent,
          notification_created, notification_modified, notification_created_by, notification_modified_by)
        values ('JN', ?, 'To all', true, 3, timestamptz '2031-02-03 04:05:06.789', timestamptz '2031-02-03 04:05:06.789', '1', '1')
        returning notification_id, notification_created)
      insert into notification_inbox (notification_id, user_id, delivered_at, read_at)
        select notification_id, u, notification_created, case when u = ? then timestamptz '2031-02-03 05:00:00' end
        from s, unnest(?::int[]) u returning notification_id`,
      [NORTHWIND, b.uId, `{${[a.uId, b.uId, c.uId].join(',')}}`],
    );
    let found: Awaited<ReturnType<typeof readDeliveredItems>> = [];
    const statements = await t.countStatements(async () => {
      found = await readDeliveredItems(t.orm.em.fork(), id, [a.uId, b.uId, c.uId, outsider.uId]);
    });
    const item = { notificationId: id, type: 'JN', companyId: NORTHWIND, eventUUID: null, brochureId: null, message: 'To all', url: null };
    const received = new Date('2031-02-03T04:05:06.789Z');
    expect({
      statements,
      found: found
        .map((f) => ({ ...f, owners: [...f.owners].sort((x, y) => x - y) }))
        .sort((x, y) => Number(x.item.read) - Number(y.item.read)),
    }).toEqual({
      statements: 1,
      found: [
        { owners: [a.uId, c.uId].sort((x, y) => x - y), item: { ...item, read: false, received } },
        { owners: [b.uId], item: { ...item, read: true, received } },
      ],
    });
  });
});
