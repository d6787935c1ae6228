// The event edges of the graph: User.events (the caller's invitations as a cursor connection),
// Company.events (a wall's events the caller may see) and the company of an event (Event.company,
// UserEvent.company), on the real database: exact pages for Olivia, walking to the end once, cursors
// stable when invitations arrive between pages, walking back with last/before (the forward walk in
// reverse page order), argument errors, visibility (another user's invitations, managers against
// invitees, hidden walls and inactive companies) and statement counts that do not grow with the
// number of parents, forward or backward.
import {
  connect,
  createCompany,
  createEvent,
  createSystemToken,
  DEMO,
  grantCompanyRole,
  invite,
  NORTHWIND,
  OLIVIA,
  useDemoApp,
  type Caller,
} from '../kit';
import { encodeCursor } from '../../src/graphql/connection';
import { PAGING_ERRORS, walkBothWays, withoutEdges, type PagingVariables } from '../kit/paging';
import { USER_EVENT_FIELDS } from '../../src/modules/event/event.routes';

const { t, olivia, cara } = useDemoApp();
const FEDERATION_TOKEN = `router-${Date.now()}`;
const ROUTER = t.with({ 'x-api-key': FEDERATION_TOKEN });

beforeAll(async () => {
  await createSystemToken(t.orm, ['federation'], { name: 'router', token: FEDERATION_TOKEN });
});

const PAGE_INFO = 'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
const DAY = 86_400_000;
// The key is the start instant in epoch microseconds (integer text; the events start on whole seconds), then the id.
const userCursor = (e: { eUTCStartDateTime: number; eId: number }) =>
  encodeCursor('UserEvent', [String(e.eUTCStartDateTime * 1000), e.eId]);
const companyCursor = (e: { eUTCStartDateTime: number; eId: number }) =>
  encodeCursor('CompanyEvent', [String(e.eUTCStartDateTime * 1000), e.eId]);

/** The caller's invitations through userProfile (or `me`), with the node fields asked. */
function userEvents(who: Caller, variables: Record<string, unknown>, node = 'eventUUID', root = 'userProfile') {
  return who.gql(
    `query($first: Int, $after: String, $last: Int, $before: String, $companyId: Int) { ${root} {
      events(first: $first, after: $after, last: $last, before: $before, companyId: $companyId) {
      ${PAGE_INFO} edges { cursor node { ${node} } } } } }`,
    variables,
  );
}

/** Companies as federation references, each with a page of its events. */
function companyEvents(who: Pick<Caller, 'gql'>, companyIds: number[], variables: Record<string, unknown> = {}, node = 'eventUUID') {
  return who.gql(
    `query($r: [_Any!]!, $first: Int, $after: String, $last: Int, $before: String) { _entities(representations: $r) {
      ... on Company { companyId events(first: $first, after: $after, last: $last, before: $before) {
      ${PAGE_INFO} edges { cursor node { ${node} } } } } } }`,
    { r: companyIds.map((companyId) => ({ __typename: 'Company', companyId })), ...variables },
  );
}

const uuids = (connection: { edges: { node: { eventUUID: string } }[] }) => connection.edges.map((e) => e.node.eventUUID);

/** A company with events starting 1..n days from now (or at the given days), in that order. */
async function wall(days: number[], data: Parameters<typeof createCompany>[1] = {}) {
  const company = await createCompany(t.orm, data);
  const events = [];
  for (const d of days) events.push(await createEvent(t.orm, company.companyId, { utcStart: new Date(Date.now() + d * DAY) }));
  return { companyId: company.companyId, events };
}

/** Olivia's 25 invitations as the REST events list answers them (pages 1 and 2), by start time. */
async function oliviasList(): Promise<any[]> {
  const path = (page: number) => `/rest/user/mi/${NORTHWIND}/events?version=1&pageNum=${page}`;
  return [...(await olivia.rest('GET', path(1))).body, ...(await olivia.rest('GET', path(2))).body];
}

describe('User.events', () => {
  it("when Olivia walks me { events(first: 7) } to the end, then each of her 25 invitations comes once, in the list's order", async () => {
    const listed = await oliviasList();
    expect(listed).toHaveLength(DEMO.eventCount);
    const node = `${USER_EVENT_FIELDS.text()} company { companyId companyName }`;
    const pages: any[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res = await userEvents(olivia, { first: 7, after }, node, 'me');
      expect(res.body.errors).toBeUndefined();
      const page: any = res.body.data!.me.events;
      pages.push(page);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages.map((p) => p.edges.length)).toEqual([7, 7, 7, 4]);
    expect(pages.map((p) => p.totalCount)).toEqual([25, 25, 25, 25]);
    expect(pages.map((p) => [p.pageInfo.hasNextPage, p.pageInfo.hasPreviousPage])).toEqual([
      [true, false],
      [true, true],
      [true, true],
      [false, true],
    ]);
    // Every node is the row the REST list shows for it, with the wall's company, and each cursor is its row's key.
    const edges = pages.flatMap((p) => p.edges);
    expect(edges).toEqual(
      listed.map((row) => ({
        cursor: userCursor(row),
        node: { ...row, company: { companyId: NORTHWIND, companyName: 'Northwind Health' } },
      })),
    );
    expect(new Set(edges.map((e) => e.node.eventInviteUUID)).size).toBe(25);
    expect(pages[1].pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: true,
      startCursor: userCursor(listed[7]),
      endCursor: userCursor(listed[13]),
    });
    // userProfile is the same User: the same first page.
    const viaProfile = await userEvents(olivia, { first: 7 }, node);
    expect(viaProfile.body.data!.userProfile.events).toEqual(pages[0]);
    // Without first: 20 a page.
    const byDefault = await userEvents(olivia, {});
    expect(byDefault.body.data!.userProfile.events.edges).toHaveLength(20);
  });

  it("when Olivia walks her 25 invitations back with last: 7 and before, then she meets the forward walk's edges in reverse page order", async () => {
    const listed = await oliviasList();
    const read = async (variables: PagingVariables) => {
      const res = await userEvents(olivia, variables, 'eventUUID eventInviteUUID', 'me');
      expect(res.body.errors).toBeUndefined();
      return res.body.data!.me.events;
    };
    const expected = listed.map((row) => ({ eventUUID: row.eventUUID, eventInviteUUID: row.eventInviteUUID }));
    const { backward } = await walkBothWays(read, 7, expected);
    // The last page holds the 4 latest; each page keeps the list's order (by start time) and the total.
    expect(backward.map((p) => p.edges.length)).toEqual([7, 7, 7, 4]);
    expect(backward[0].edges.map((e: any) => e.cursor)).toEqual(listed.slice(18).map(userCursor));
    expect(backward.map((p) => p.totalCount)).toEqual([25, 25, 25, 25]);
    // Between two cursors: last takes the end of the rows between them; hasNextPage tells of the rows from before on.
    const between = (await read({ last: 2, before: userCursor(listed[10]) })).pageInfo;
    expect(between).toEqual({
      hasNextPage: true,
      hasPreviousPage: true,
      startCursor: userCursor(listed[8]),
      endCursor: userCursor(listed[9]),
    });
    const res = await userEvents(olivia, { after: userCursor(listed[3]), last: 3, before: userCursor(listed[7]) }, 'eventUUID', 'me');
    expect(res.body.data!.me.events).toEqual({
      totalCount: 25,
      pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: userCursor(listed[4]), endCursor: userCursor(listed[6]) },
      edges: listed.slice(4, 7).map((row) => ({ cursor: userCursor(row), node: { eventUUID: row.eventUUID } })),
    });
  });

  it('when an invitation arrives between pages, then the next page starts right after the cursor: nothing skipped or repeated', async () => {
    const user = await t.newUser();
    const { companyId, events } = await wall([1, 2, 3, 4, 5]);
    for (const e of events) await invite(t.orm, e.eId, user.uId);
    const first = (await userEvents(user, { first: 2 })).body.data!.userProfile.events;
    expect(uuids(first)).toEqual([events[0].eventUUID, events[1].eventUUID]);
    expect(first.totalCount).toBe(5);
    // One before the cursor (half a day from now) and one after it (two and a half days).
    const before = await createEvent(t.orm, companyId, { utcStart: new Date(Date.now() + DAY / 2) });
    const between = await createEvent(t.orm, companyId, { utcStart: new Date(Date.now() + 2.5 * DAY) });
    await invite(t.orm, before.eId, user.uId);
    await invite(t.orm, between.eId, user.uId);
    const second = (await userEvents(user, { first: 2, after: first.pageInfo.endCursor })).body.data!.userProfile.events;
    expect(uuids(second)).toEqual([between.eventUUID, events[2].eventUUID]);
    expect(second.totalCount).toBe(7);
    const third = (await userEvents(user, { first: 2, after: second.pageInfo.endCursor })).body.data!.userProfile.events;
    expect(uuids(third)).toEqual([events[3].eventUUID, events[4].eventUUID]);
    expect(third.pageInfo.hasNextPage).toBe(false);
    // The page after the last edge is empty and still knows the total.
    const past = (await userEvents(user, { first: 2, after: third.pageInfo.endCursor })).body.data!.userProfile.events;
    expect(past).toEqual(withoutEdges(7, true));
  });

  it('when invitations are on several walls, then they are listed across walls by start time; companyId keeps to one; cancelled ones never show', async () => {
    const user = await t.newUser();
    const a = await wall([1, 3]);
    const b = await wall([2]);
    const cancelled = await createEvent(t.orm, a.companyId, { status: 'C', utcStart: new Date(Date.now() + 1.5 * DAY) });
    for (const e of [...a.events, ...b.events, cancelled]) await invite(t.orm, e.eId, user.uId);
    const all = (await userEvents(user, {}, 'eventUUID cId')).body.data!.userProfile.events;
    expect(all.edges.map((e: any) => [e.node.eventUUID, e.node.cId])).toEqual([
      [a.events[0].eventUUID, a.companyId],
      [b.events[0].eventUUID, b.companyId],
      [a.events[1].eventUUID, a.companyId],
    ]);
    expect(all.totalCount).toBe(3);
    const onA = (await userEvents(user, { companyId: a.companyId })).body.data!.userProfile.events;
    expect(uuids(onA)).toEqual([a.events[0].eventUUID, a.events[1].eventUUID]);
    expect(onA.totalCount).toBe(2);
    const nowhere = (await userEvents(user, { companyId: 999999 })).body.data!.userProfile.events;
    expect(nowhere).toEqual(withoutEdges(0));
  });

  it("when another user is invited to Olivia's events, then each sees only their own invitations", async () => {
    const other = await t.newUser();
    const nobody = await t.newUser();
    const row = await invite(t.orm, DEMO.eventIdBase + 3, other.uId);
    const theirs = (await userEvents(other, {}, 'eventUUID eventInviteUUID')).body.data!.userProfile.events;
    expect(theirs.totalCount).toBe(1);
    expect(theirs.edges.map((e: any) => e.node)).toEqual([{ eventUUID: DEMO.eventUuidOf(3), eventInviteUUID: row.inviteUUID }]);
    const hers = (await userEvents(olivia, { first: 100 }, 'eventInviteUUID')).body.data!.userProfile.events;
    expect(hers.totalCount).toBe(25);
    expect(hers.edges.map((e: any) => e.node.eventInviteUUID)).toEqual(Array.from({ length: 25 }, (_, i) => DEMO.inviteUuidOf(i + 1)));
    expect((await userEvents(nobody, {})).body.data!.userProfile.events).toMatchObject({ totalCount: 0, edges: [] });
  });

  it("when the User is not the caller (the router's reference to Olivia), then events is refused with WSInsufficientPrivilegesException", async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId events { totalCount } } } }`;
    const r = [{ __typename: 'User', uId: OLIVIA }];
    const res = await ROUTER.gql(query, { r });
    // The connection is non-null, so the refused field nulls its User.
    expect(res.body.data!._entities).toEqual([null]);
    expect(res.body.errors!.map((e: any) => [e.path, e.extensions.errorCode])).toEqual([
      [['_entities', 0, 'events'], 'WSInsufficientPrivilegesException'],
    ]);
    // Her own reference, with her token, lists them.
    const own = await olivia.gql(query, { r });
    expect(own.body).toEqual({ data: { _entities: [{ uId: OLIVIA, events: { totalCount: 25 } }] } });
  });

  it('when first or last is outside 1..100, both are given, or after or before is not a cursor of this list, then WSInvalidParameterException names the argument', async () => {
    const listed = await oliviasList();
    const { first, last, both, after, before } = PAGING_ERRORS;
    const cases: [Record<string, unknown>, { message: string; field: string }][] = [
      [{ first: 0 }, first],
      [{ first: 101 }, first],
      [{ first: -1 }, first],
      [{ last: 0 }, last],
      [{ last: 101 }, last],
      [{ last: -1 }, last],
      [{ first: 5, last: 5 }, both],
      [{ after: companyCursor(listed[0]) }, after],
      [{ after: 'not-a-cursor' }, after],
      [{ after: encodeCursor('UserEvent', [1]) }, after],
      [{ last: 5, before: companyCursor(listed[0]) }, before],
      [{ last: 5, before: 'not-a-cursor' }, before],
      [{ before: encodeCursor('UserEvent', [1]) }, before],
      [{ companyId: 0 }, { message: 'companyId must be a positive company id.', field: 'companyId' }],
    ];
    for (const [variables, { message, field }] of cases) {
      const res = await userEvents(olivia, variables);
      // The connection and userProfile are non-null: the error nulls the whole answer.
      expect([variables, res.body.data, res.body.errors!.map((e: any) => [e.message, e.extensions])]).toEqual([
        variables,
        null,
        [[message, { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field }]],
      ]);
    }
    // 100 is allowed, either way.
    expect((await userEvents(olivia, { first: 100 })).body.data!.userProfile.events.edges).toHaveLength(25);
    expect((await userEvents(olivia, { last: 100 })).body.data!.userProfile.events.edges).toHaveLength(25);
  });

  it('when a user has 1 invitation on 1 wall or 50 on 50 walls, then the page and their companies cost the same statements', async () => {
    const one = await t.newUser();
    const many = await t.newUser();
    const walls = await manyWalls(50, 1);
    await inviteAll(many.uId, walls);
    await inviteAll(one.uId, walls.slice(0, 1));
    const node = 'eName company { companyId }';
    await userEvents(one, { first: 50 }, node); // warms the token
    await userEvents(many, { first: 50 }, node);
    const bodies: any[] = [];
    const a = await t.countStatements(async () => bodies.push((await userEvents(one, { first: 50 }, node)).body));
    const b = await t.countStatements(async () => bodies.push((await userEvents(many, { first: 50 }, node)).body));
    expect(bodies.map((body) => body.data.userProfile.events.edges.length)).toEqual([1, 50]);
    expect(bodies[1].data.userProfile.events.edges.map((e: any) => e.node.company.companyId)).toEqual(walls);
    // The caller's user row, the page (invitations, events and company names) and the visible companies.
    expect([a, b]).toEqual([3, 3]);
    // Backward, before the last invitation: the same statements, the page in the list's order.
    const before = bodies[1].data.userProfile.events.edges[49].cursor;
    const c = await t.countStatements(async () => bodies.push((await userEvents(many, { last: 40, before }, node)).body));
    expect(bodies[2].data.userProfile.events.edges.map((e: any) => e.node.company.companyId)).toEqual(walls.slice(9, 49));
    expect(c).toBe(3);
  });
});

/** `n` active companies (their ids, in creation order), each with `perWall` events a day apart, named `Event <wall>.<k>`. */
async function manyWalls(n: number, perWall: number): Promise<number[]> {
  const rows = await t.sql(
    `insert into company (company_name, company_country_code) select 'Wall ' || g || ' ' || md5(random()::text), 'AU'
     from generate_series(1, ?) g order by g returning company_id`,
    [n],
  );
  const ids = rows.map((r) => r.company_id as number);
  await t.sql(
    `insert into event (event_uuid, company_id, name, timezone_id, utc_start, utc_end)
     select gen_random_uuid(), c.id, 'Event ' || c.ord || '.' || k, 'Australia/Sydney',
            now() + ((c.ord * ? + k) || ' days')::interval, now() + ((c.ord * ? + k) || ' days')::interval + interval '1 hour'
     from unnest(?::int[]) with ordinality c(id, ord), generate_series(1, ?) k`,
    [perWall, perWall, `{${ids.join(',')}}`, perWall],
  );
  return ids;
}

async function inviteAll(userId: number, companyIds: number[]) {
  await t.sql(
    `insert into event_attendee (invite_uuid, event_id, user_id) select gen_random_uuid(), e.e_id, ? from event e where e.company_id = any(?::int[])`,
    [userId, `{${companyIds.join(',')}}`],
  );
}

describe('Company.events', () => {
  it("when Olivia reads Northwind's events, then the first five come by start time with hasNextPage and their company", async () => {
    const listed = await oliviasList();
    const res = await companyEvents(olivia, [NORTHWIND], { first: 5 }, 'eventUUID eName company { companyId }');
    expect(res.body).toEqual({
      data: {
        _entities: [
          {
            companyId: NORTHWIND,
            events: {
              totalCount: 25,
              pageInfo: {
                hasNextPage: true,
                hasPreviousPage: false,
                startCursor: companyCursor(listed[0]),
                endCursor: companyCursor(listed[4]),
              },
              edges: listed.slice(0, 5).map((row) => ({
                cursor: companyCursor(row),
                node: { eventUUID: row.eventUUID, eName: row.eName, company: { companyId: NORTHWIND } },
              })),
            },
          },
        ],
      },
    });
    // Walking on with first 10 reaches every one of the 25 once.
    const seen: string[] = uuids(res.body.data!._entities[0].events);
    let after = res.body.data!._entities[0].events.pageInfo.endCursor;
    for (;;) {
      const page = (await companyEvents(olivia, [NORTHWIND], { first: 10, after })).body.data!._entities[0].events;
      seen.push(...uuids(page));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(listed.map((row) => row.eventUUID));
  });

  it("when Olivia walks Northwind's events back with last: 10 and before, then she meets the forward walk's edges in reverse page order", async () => {
    const listed = await oliviasList();
    const read = async (variables: PagingVariables) => {
      const res = await companyEvents(olivia, [NORTHWIND], variables, 'eventUUID eName');
      expect(res.body.errors).toBeUndefined();
      return res.body.data!._entities[0].events;
    };
    const { forward, backward } = await walkBothWays(
      read,
      10,
      listed.map((row) => ({ eventUUID: row.eventUUID, eName: row.eName })),
    );
    expect([forward.map((p) => p.edges.length), backward.map((p) => p.edges.length)]).toEqual([
      [10, 10, 5],
      [10, 10, 5],
    ]);
    expect(backward[2].edges.map((e: any) => e.cursor)).toEqual(listed.slice(0, 5).map(companyCursor));
  });

  it('when the caller only has invitations, then they see those; an ADMIN or PUSH_NOTIFICATION sees every active event; a stranger none', async () => {
    const { companyId, events } = await wall([1, 2, 3]);
    const cancelled = await createEvent(t.orm, companyId, { status: 'C' });
    const [invitee, admin, sender, stranger] = [await t.newUser(), await t.newUser(), await t.newUser(), await t.newUser()];
    await invite(t.orm, events[1].eId, invitee.uId);
    await invite(t.orm, cancelled.eId, invitee.uId);
    await invite(t.orm, events[2].eId, stranger.uId);
    await grantCompanyRole(t.orm, admin.uId, companyId, 'ADMIN');
    await grantCompanyRole(t.orm, sender.uId, companyId, 'PUSH_NOTIFICATION');
    const seen = async (who: Caller) => {
      const res = await companyEvents(who, [companyId]);
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data!._entities[0].events;
      return [uuids(page), page.totalCount];
    };
    const all = events.map((e) => e.eventUUID);
    expect(await seen(invitee)).toEqual([[events[1].eventUUID], 1]);
    expect(await seen(admin)).toEqual([all, 3]);
    expect(await seen(sender)).toEqual([all, 3]);
    expect(await seen(stranger)).toEqual([[events[2].eventUUID], 1]);
    // A manager of another company sees nothing here; Cara (Northwind's ADMIN) is invited to none of them.
    expect(await seen(cara)).toEqual([[], 0]);
    // The router resolves the company but sees no event.
    const router = await companyEvents(ROUTER, [companyId]);
    expect(router.body).toEqual({
      data: {
        _entities: [
          {
            companyId,
            events: withoutEdges(0),
          },
        ],
      },
    });
  });

  it('when events(first: 5) hangs under 1 or 50 companies, then the statements are the same: one for every page', async () => {
    const user = await t.newUser();
    const walls = await manyWalls(50, 6);
    await inviteAll(user.uId, walls);
    const node = 'eName company { companyId }';
    await companyEvents(user, walls.slice(0, 1), { first: 5 }, node); // warms the token
    let one: any;
    let fifty: any;
    const a = await t.countStatements(async () => (one = (await companyEvents(user, walls.slice(0, 1), { first: 5 }, node)).body));
    const b = await t.countStatements(async () => (fifty = (await companyEvents(user, walls, { first: 5 }, node)).body));
    expect(one.errors).toBeUndefined();
    expect(fifty.errors).toBeUndefined();
    expect(
      fifty.data._entities.map((c: any) => [c.companyId, c.events.edges.length, c.events.totalCount, c.events.pageInfo.hasNextPage]),
    ).toEqual(walls.map((id) => [id, 5, 6, true]));
    expect(fifty.data._entities[7].events.edges.map((e: any) => e.node)).toEqual(
      [1, 2, 3, 4, 5].map((k) => ({ eName: `Event 8.${k}`, company: { companyId: walls[7] } })),
    );
    // The caller's user row, the companies (the references; Event.company reuses them) and one window for every page.
    expect([a, b]).toEqual([3, 3]);
    // Backward, from the end and from a cursor (the 4th event of the 8th wall, for every wall): the same statements.
    let back: any;
    let fromCursor: any;
    const before = fifty.data._entities[7].events.edges[3].cursor;
    const c = await t.countStatements(async () => (back = (await companyEvents(user, walls, { last: 5 }, node)).body));
    const d = await t.countStatements(async () => (fromCursor = (await companyEvents(user, walls, { last: 2, before }, node)).body));
    expect([c, d]).toEqual([3, 3]);
    expect(
      back.data._entities.map((c: any) => [c.events.edges.length, c.events.pageInfo.hasPreviousPage, c.events.pageInfo.hasNextPage]),
    ).toEqual(walls.map(() => [5, true, false]));
    expect(back.data._entities[7].events.edges.map((e: any) => e.node.eName)).toEqual([2, 3, 4, 5, 6].map((k) => `Event 8.${k}`));
    // Walls 1 to 7 start before the cursor: their last two, and rows from the cursor on only on walls 8 to 50.
    const pageOf = (c: any) => [
      c.events.edges.map((e: any) => e.node.eName),
      c.events.pageInfo.hasPreviousPage,
      c.events.pageInfo.hasNextPage,
    ];
    expect(fromCursor.data._entities.slice(6, 9).map(pageOf)).toEqual([
      [['Event 7.5', 'Event 7.6'], true, false],
      [['Event 8.2', 'Event 8.3'], true, true],
      [[], false, true],
    ]);
    // A second argument set is one more statement, whatever the number of companies.
    const two = await t.countStatements(() =>
      user.gql(
        `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { a: events(first: 5) { totalCount } b: events(first: 2) { totalCount } } } }`,
        { r: walls.map((companyId) => ({ __typename: 'Company', companyId })) },
      ),
    );
    expect(two).toBe(4);
  });

  it('when a paging argument is invalid, then WSInvalidParameterException names it (the non-null connection nulls its company)', async () => {
    const listed = await oliviasList();
    const { first, last, both, after, before } = PAGING_ERRORS;
    for (const [variables, { message, field }] of [
      [{ first: 0 }, first],
      [{ first: 101 }, first],
      [{ last: 0 }, last],
      [{ last: 101 }, last],
      [{ first: 1, last: 1 }, both],
      [{ after: userCursor(listed[0]) }, after],
      [{ last: 2, before: userCursor(listed[0]) }, before],
      [{ before: 'not a cursor!' }, before],
    ] as const) {
      const res = await companyEvents(olivia, [NORTHWIND], variables);
      expect(res.body.data!._entities).toEqual([null]);
      expect(res.body.errors!.map((e: any) => [e.message, e.extensions])).toEqual([
        [message, { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field }],
      ]);
    }
  });
});

describe('Event.company and UserEvent.company', () => {
  it('when an event is on a hidden wall or an inactive company the invitee is not tied to, then its company is null; tied, it shows', async () => {
    const user = await t.newUser();
    const hidden = await wall([1], { hiddenWall: true });
    const inactive = await wall([2], { active: false });
    const open = await wall([3]);
    for (const w of [hidden, inactive, open]) await invite(t.orm, w.events[0].eId, user.uId);
    const companies = async () => {
      const list = (await userEvents(user, {}, 'cId company { companyId }')).body.data!.userProfile.events;
      const one = async (uuid: string) =>
        (await user.gql(`query($u: String!) { event(eventUUID: $u) { company { companyId } } }`, { u: uuid })).body.data!.event.company;
      const viaEvent = [];
      for (const w of [hidden, inactive, open]) viaEvent.push(await one(w.events[0].eventUUID));
      return { list: list.edges.map((e: any) => [e.node.cId, e.node.company]), viaEvent };
    };
    expect(await companies()).toEqual({
      list: [
        [hidden.companyId, null],
        [inactive.companyId, null],
        [open.companyId, { companyId: open.companyId }],
      ],
      viaEvent: [null, null, { companyId: open.companyId }],
    });
    // Nor can the invitee reach the hidden company as a reference, so not its events either.
    expect((await companyEvents(user, [hidden.companyId, inactive.companyId])).body.data!._entities).toEqual([null, null]);
    // Tied: a connection of any status to the hidden wall, the ADMIN role on the inactive company.
    await connect(t.orm, user.uId, hidden.companyId, 'pending');
    await grantCompanyRole(t.orm, user.uId, inactive.companyId, 'ADMIN');
    expect(await companies()).toEqual({
      list: [hidden, inactive, open].map((w) => [w.companyId, { companyId: w.companyId }]),
      viaEvent: [hidden, inactive, open].map((w) => ({ companyId: w.companyId })),
    });
    const reached = (await companyEvents(user, [hidden.companyId, inactive.companyId])).body.data!._entities;
    expect(reached.map((c: any) => [c.companyId, uuids(c.events)])).toEqual([
      [hidden.companyId, [hidden.events[0].eventUUID]],
      [inactive.companyId, [inactive.events[0].eventUUID]],
    ]);
  });
});
