// The library's edges of the graph (issue "The graph"): SmartLibrary.entries as a cursor
// connection (newest first, keyset cursors both ways, folder and tag filters), SmartEntry.library,
// SmartLibrary.company, Company.smartLibraries and User.smartLibraries. Each follows the rule of
// Query.smartLibrary (or, for a company, of a federation reference), and each costs a fixed number
// of statements whatever the number of its parents.
import crypto from 'node:crypto';
import {
  DEMO,
  NORTHWIND,
  OLIVIA,
  addTerms,
  connect,
  createCompany,
  createLibrary,
  createSystemToken,
  createTeam,
  grantCompanyRole,
  newPublisher,
  useTestApp,
  type Client,
  type NewUser,
  type Publisher,
} from '../kit';
import { createSmartLibrary } from '../../src/modules/library/library.service';
import { encodeCursor } from '../../src/graphql/connection';
import { PAGING_ERRORS, walkBothWays, type PagingVariables } from '../kit/paging';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const { smartLibId: DEMO_LIBRARY, welcomePackEntryId: WELCOME_PACK } = DEMO.library;
/** The demo entry's creation instant (library.seeder.ts). */
const WELCOME_PACK_CREATED = Date.parse('2026-01-05T09:00:00Z');
const FEDERATION_TOKEN = `federation-${crypto.randomUUID()}`;
const ROUTER = t.with({ 'x-api-key': FEDERATION_TOKEN });

/** The cursor the service hands out for an entry: its creation instant (epoch ms) and id, of this list. */
// The key is the creation instant in epoch microseconds (integer text), then the id.
const cursorOf = (createdMs: number, smartEntryId: number) =>
  encodeCursor('SmartLibrary.entries', [String(createdMs * 1000), smartEntryId]);

/** The error of a GraphQL answer, as clients read it. */
const errorOf = (res: { body: { errors?: any[] } }) =>
  res.body.errors?.map((e) => ({ message: e.message, code: e.extensions.errorCode, field: e.extensions.field }));

let n = 0;
/** An entry created through REST, as a client would; its creation instant is set to `createdMs` when given. */
async function createEntry(p: Publisher, o: { tags?: string[]; folders?: string[]; createdMs?: number } = {}): Promise<number> {
  n++;
  const res = await p.rest('POST', '/rest/smartlib/smartentry', {
    body: {
      smartLibId: p.smartLibId,
      smartEntryType: 'URL',
      smartEntryName: `Entry ${n}`,
      smartEntryUrlLink: `https://graph.example/${n}`,
      smartEntryTags: (o.tags ?? []).map((smartTagName) => ({ smartTagName })),
      smartEntryFolders: (o.folders ?? []).map((smartFolderName) => ({ smartFolderName })),
    },
  });
  expect(res.status).toBe(200);
  if (o.createdMs !== undefined)
    await t.sql(
      `update smart_entry set smart_entry_created = timestamptz 'epoch' + ? * interval '1 millisecond' where smart_entry_id = ?`,
      [o.createdMs, res.body.smartEntryId],
    );
  return res.body.smartEntryId;
}

const companyRef = (companyId: number) => ({ __typename: 'Company', companyId });

beforeAll(async () => {
  await createSystemToken(t.orm, ['federation'], { name: 'router', token: FEDERATION_TOKEN });
});

// First in the file: nothing made by the later tests is Olivia's to read.
describe('for the demo user Olivia', () => {
  it('User.smartLibraries lists the demo library with its company and its entries, each linking back to the library', async () => {
    const res = await olivia.gql(`{ userProfile { uId smartLibraries {
      smartLibId smartLibName companyId company { companyId companyName }
      entries(first: 3) { totalCount edges { cursor node { smartEntryId smartEntryName library { smartLibId smartLibName } } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`);
    const cursor = cursorOf(WELCOME_PACK_CREATED, WELCOME_PACK);
    expect(res.body).toEqual({
      data: {
        userProfile: {
          uId: OLIVIA,
          smartLibraries: [
            {
              smartLibId: DEMO_LIBRARY,
              smartLibName: 'Northwind Health library',
              companyId: NORTHWIND,
              company: { companyId: NORTHWIND, companyName: 'Northwind Health' },
              entries: {
                totalCount: 1,
                edges: [
                  {
                    cursor,
                    node: {
                      smartEntryId: WELCOME_PACK,
                      smartEntryName: 'Welcome pack',
                      library: { smartLibId: DEMO_LIBRARY, smartLibName: 'Northwind Health library' },
                    },
                  },
                ],
                pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: cursor, endCursor: cursor },
              },
            },
          ],
        },
      },
    });
  });

  it('Company.smartLibraries of Northwind (reached from a library, and as a federation reference) is the demo library', async () => {
    const fromLibrary = await olivia.gql(
      `{ smartLibrary(smartLibId: ${DEMO_LIBRARY}) { company { companyId smartLibraries { smartLibId } } } }`,
    );
    expect(fromLibrary.body).toEqual({
      data: { smartLibrary: { company: { companyId: NORTHWIND, smartLibraries: [{ smartLibId: DEMO_LIBRARY }] } } },
    });
    const fromReference = await olivia.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { companyId smartLibraries { smartLibName } } } }`,
      { r: [companyRef(NORTHWIND)] },
    );
    expect(fromReference.body).toEqual({
      data: { _entities: [{ companyId: NORTHWIND, smartLibraries: [{ smartLibName: 'Northwind Health library' }] }] },
    });
  });

  it('Query.smartEntry reaches its library', async () => {
    const res = await olivia.gql(`{ smartEntry(smartEntryId: ${WELCOME_PACK}) { smartEntryName library { smartLibId companyId } } }`);
    expect(res.body).toEqual({
      data: { smartEntry: { smartEntryName: 'Welcome pack', library: { smartLibId: DEMO_LIBRARY, companyId: NORTHWIND } } },
    });
  });
});

const ENTRIES = `query($id: Int!, $first: Int, $after: String, $last: Int, $before: String, $folderId: Int, $tagName: String) {
  smartLibrary(smartLibId: $id) { entries(first: $first, after: $after, last: $last, before: $before, folderId: $folderId, tagName: $tagName) {
    totalCount edges { cursor node { smartEntryId smartEntryTags { smartTagName } smartEntryFolders { smartFolderName } } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

describe('SmartLibrary.entries', () => {
  let p: Publisher;
  /** Entry ids, newest first; two of them share their creation instant (the id then orders them). */
  let ids: number[];
  const base = Date.parse('2030-03-01T00:00:00Z');
  beforeAll(async () => {
    p = await newPublisher(t, { companyId: (await createCompany(t.orm)).companyId });
    await addTerms(t.orm, p.smartLibId, 'folder', ['Shelf', 'Archive']);
    // Seven entries: times base+6s .. base, except that the 4th and 5th share base+3s.
    const made: { id: number; at: number }[] = [];
    for (let i = 0; i < 7; i++) {
      const at = base + (i === 4 ? 3 : i) * 1000 + 123;
      const o = { createdMs: at, tags: i % 2 ? ['Alpha'] : ['beta'], folders: i < 3 ? ['Shelf'] : [] };
      made.push({ id: await createEntry(p, o), at });
    }
    ids = made.sort((a, b) => b.at - a.at || b.id - a.id).map((m) => m.id);
  });

  const page = async (vars: Record<string, unknown>) => {
    const res = await p.gql(ENTRIES, { id: p.smartLibId, ...vars });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.smartLibrary.entries;
  };
  const nodeIds = (pg: { edges: { node: { smartEntryId: number } }[] }) => pg.edges.map((e) => e.node.smartEntryId);

  it('walks the list newest first, each entry once, ties ordered by id, with the whole count on every page', async () => {
    const seen: number[] = [];
    let after: string | null = null;
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const pg = await page({ first: 3, after });
      counts.push(pg.totalCount);
      seen.push(...nodeIds(pg));
      expect(pg.pageInfo.hasPreviousPage).toBe(after !== null);
      expect(pg.pageInfo.startCursor).toBe(pg.edges[0].cursor);
      expect(pg.pageInfo.endCursor).toBe(pg.edges.at(-1).cursor);
      if (!pg.pageInfo.hasNextPage) break;
      after = pg.pageInfo.endCursor;
    }
    expect(seen).toEqual(ids);
    expect(counts).toEqual([7, 7, 7]);
  });

  it('walks the list back with last and before: the forward walk in reverse page order, pageInfo exact, filters kept', async () => {
    const read = (vars: Record<string, unknown>) => async (variables: PagingVariables) => {
      const pg = await page({ ...vars, ...variables });
      return { ...pg, edges: pg.edges.map((e: any) => ({ cursor: e.cursor, node: e.node.smartEntryId })) };
    };
    const { backward } = await walkBothWays(read({}), 3, ids);
    expect(backward.map((pg) => pg.edges.map((e: { node: number }) => e.node))).toEqual([ids.slice(4), ids.slice(1, 4), ids.slice(0, 1)]);
    expect(backward.map((pg) => pg.totalCount)).toEqual([7, 7, 7]);
    // The two entries that share their instant are split across pages one way and the other.
    for (const size of [1, 2, 4, 7]) await walkBothWays(read({}), size, ids);
    // Only those with the tag, and only those in the folder.
    await walkBothWays(
      read({ tagName: 'ALPHA' }),
      2,
      ids.filter((_, i) => [1, 3, 5].includes(i)),
    );
    const [shelf] = await t.rows('smart_folder', { smart_lib_id: p.smartLibId, smart_folder_name: 'Shelf' });
    await walkBothWays(read({ folderId: shelf.smart_folder_id }), 2, ids.slice(4));
  });

  it('is stable when an entry arrives between pages: the next page starts right after the cursor', async () => {
    const first = await page({ first: 3 });
    expect(nodeIds(first)).toEqual(ids.slice(0, 3));
    // A new entry, newest of all (before the cursor: not on the next pages), and one dated between
    // the 4th and 5th (after the cursor: listed in its place).
    const newest = await createEntry(p, { createdMs: base + 60_000 });
    const between = await createEntry(p, { createdMs: base + 2500 });
    try {
      const second = await page({ first: 3, after: first.pageInfo.endCursor });
      expect(nodeIds(second)).toEqual([ids[3], between, ids[4]]);
      expect(second.totalCount).toBe(9);
      const rest = await page({ first: 10, after: second.pageInfo.endCursor });
      expect(nodeIds(rest)).toEqual(ids.slice(5));
      expect(rest.pageInfo.hasNextPage).toBe(false);
      expect(nodeIds(await page({ first: 1 }))).toEqual([newest]);
    } finally {
      await t.sql('delete from smart_entry where smart_entry_id in (?, ?)', [newest, between]);
    }
  });

  it('folderId keeps the entries of that folder, tagName those of that tag (any case and spacing), both together', async () => {
    const [shelf] = await t.rows('smart_folder', { smart_lib_id: p.smartLibId, smart_folder_name: 'Shelf' });
    const [archive] = await t.rows('smart_folder', { smart_lib_id: p.smartLibId, smart_folder_name: 'Archive' });
    const inShelf = await page({ folderId: shelf.smart_folder_id });
    expect(nodeIds(inShelf)).toEqual(ids.filter((id) => ids.indexOf(id) >= 4));
    expect(inShelf.totalCount).toBe(3);
    expect(inShelf.edges.every((e: any) => e.node.smartEntryFolders[0].smartFolderName === 'Shelf')).toBe(true);

    const alpha = await page({ tagName: '  ALPHA ', first: 2 });
    expect(alpha.totalCount).toBe(3);
    expect(alpha.edges.map((e: any) => e.node.smartEntryTags)).toEqual([[{ smartTagName: 'Alpha' }], [{ smartTagName: 'Alpha' }]]);
    const alphaRest = await page({ tagName: 'alpha', first: 2, after: alpha.pageInfo.endCursor });
    const alphaIds = [...nodeIds(alpha), ...nodeIds(alphaRest)];
    expect(alphaRest.pageInfo.hasNextPage).toBe(false);

    const both = await page({ tagName: 'alpha', folderId: shelf.smart_folder_id });
    expect(nodeIds(both)).toEqual(alphaIds.filter((id) => nodeIds(inShelf).includes(id)));
    expect(both.totalCount).toBe(1);

    expect(await page({ folderId: archive.smart_folder_id })).toEqual({
      totalCount: 0,
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
    expect((await page({ tagName: 'no such tag' })).totalCount).toBe(0);
    // A folder of another library holds none of these entries.
    const other = await newPublisher(t);
    await addTerms(t.orm, other.smartLibId, 'folder', ['Shelf']);
    const [otherFolder] = await t.rows('smart_folder', { smart_lib_id: other.smartLibId });
    expect((await page({ folderId: otherFolder.smart_folder_id })).totalCount).toBe(0);
  });

  it('refuses first or last outside 1..100, both at once, and cursors that are not of this list, naming the argument', async () => {
    const ask = (vars: Record<string, unknown>) => p.gql(ENTRIES, { id: p.smartLibId, ...vars });
    const refused = (which: keyof typeof PAGING_ERRORS) => [{ ...PAGING_ERRORS[which], code: 'WSInvalidParameterException' }];
    const firstError = [{ message: 'first must be from 1 to 100.', code: 'WSInvalidParameterException', field: 'first' }];
    expect(errorOf(await ask({ first: 0 }))).toEqual(firstError);
    expect(errorOf(await ask({ first: 101 }))).toEqual(firstError);
    expect((await ask({ first: 100 })).body.errors).toBeUndefined();
    expect(errorOf(await ask({ last: 0 }))).toEqual(refused('last'));
    expect(errorOf(await ask({ last: 101 }))).toEqual(refused('last'));
    expect((await ask({ last: 100 })).body.errors).toBeUndefined();
    expect(errorOf(await ask({ first: 3, last: 3 }))).toEqual(refused('both'));
    const afterError = [{ message: 'after is not a cursor of this list.', code: 'WSInvalidParameterException', field: 'after' }];
    for (const after of [
      encodeCursor('Company.events', [base, ids[0]]),
      encodeCursor('SmartLibrary.entries', [base]),
      encodeCursor('SmartLibrary.entries', ['2030-03-01', ids[0]]),
      'not a cursor!',
      Buffer.from('[1,2').toString('base64url'),
      // Instants no timestamp holds: past PostgreSQL's bigint, or years beyond 9999 and before 1.
      encodeCursor('SmartLibrary.entries', ['9999999999999999999', ids[0]]),
      encodeCursor('SmartLibrary.entries', ['-9999999999999999999', ids[0]]),
      encodeCursor('SmartLibrary.entries', ['253402300800000000', ids[0]]),
      encodeCursor('SmartLibrary.entries', ['-62135596800000001', ids[0]]),
    ]) {
      expect(errorOf(await ask({ after }))).toEqual(afterError);
      expect(errorOf(await ask({ last: 2, before: after }))).toEqual(refused('before'));
    }
    // An id past PostgreSQL's integer is still a key: the page after it starts with the newest
    // entry, whose instant the cursor names and whose id is below it; nothing comes before it.
    const far = await ask({ first: 1, after: cursorOf(base + 6000 + 123, 2 ** 40) });
    expect(far.body.errors).toBeUndefined();
    expect(nodeIds(far.body.data.smartLibrary.entries)).toEqual([ids[0]]);
    expect(far.body.data.smartLibrary.entries.pageInfo.hasPreviousPage).toBe(false);
    const farBack = await ask({ last: 1, before: cursorOf(base + 6000 + 123, 2 ** 40) });
    expect(farBack.body.data.smartLibrary.entries).toMatchObject({ edges: [], pageInfo: { hasNextPage: true, hasPreviousPage: false } });
  });
});

describe('statements', () => {
  const HOME = `{ userProfile { smartLibraries { smartLibId smartLibName
    entries(first: 3) { totalCount edges { node { smartEntryId smartEntryName library { smartLibId } smartEntryTags { smartTagName } smartFiles { smartFileType } } } }
    company { companyId smartLibraries { smartLibId entries(first: 3) { edges { node { smartEntryId library { smartLibName } } } } } } } } }`;

  /** A user who publishes to `count` libraries, each of its own company, each with two entries. */
  async function readerOf(count: number): Promise<NewUser> {
    const user = await t.newUser();
    for (let i = 0; i < count; i++) {
      const { companyId } = await createCompany(t.orm);
      const smartLibId = await createLibrary(t.orm, { companyId, publishers: [user.uId] });
      for (let j = 0; j < 2; j++) await createEntry(Object.assign(user, { smartLibId }), { tags: ['x'] });
    }
    return user;
  }

  it('User.smartLibraries with their entries, libraries and companies cost the same with 1 and with 6 libraries', async () => {
    const one = await readerOf(1);
    const six = await readerOf(6);
    await one.gql(HOME); // warms the token cache and the sliding expiry
    await six.gql(HOME);
    let small: any;
    let large: any;
    const smallCount = await t.countStatements(async () => (small = await one.gql(HOME)));
    const largeCount = await t.countStatements(async () => (large = await six.gql(HOME)));
    expect(small.body.errors).toBeUndefined();
    expect(large.body.errors).toBeUndefined();
    const libraries = large.body.data.userProfile.smartLibraries;
    expect(libraries).toHaveLength(6);
    for (const library of libraries) {
      expect(library.entries.totalCount).toBe(2);
      expect(library.entries.edges.map((e: any) => e.node.library.smartLibId)).toEqual([library.smartLibId, library.smartLibId]);
      expect(library.company.smartLibraries).toEqual([
        {
          smartLibId: library.smartLibId,
          entries: {
            edges: library.entries.edges.map((e: any) => ({
              node: { smartEntryId: e.node.smartEntryId, library: { smartLibName: library.smartLibName } },
            })),
          },
        },
      ]);
    }
    expect(largeCount).toBe(smallCount);
    // The caller, their libraries, every library's page of entries with the entries' lists, the
    // companies, the companies' readable libraries. The companies' pages of entries are the pages
    // already read (same arguments, same loader) and SmartEntry.library is primed: no statement.
    expect(smallCount).toBe(5);
  });

  it('Company.smartLibraries with their entries cost the same under 1 and under 8 companies', async () => {
    const reader = await t.newUser();
    const companies: number[] = [];
    for (let i = 0; i < 8; i++) {
      const { companyId } = await createCompany(t.orm);
      companies.push(companyId);
      await grantCompanyRole(t.orm, reader.uId, companyId, 'ADMIN');
      for (let j = 0; j < 2; j++) {
        const smartLibId = await createLibrary(t.orm, { companyId, publishers: [reader.uId] });
        await createEntry(Object.assign(reader, { smartLibId }));
      }
    }
    // Forward and backward alike.
    for (const paging of ['first: 2', 'last: 2']) {
      const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { companyId
        smartLibraries { smartLibId entries(${paging}) { totalCount edges { node { smartEntryName library { smartLibId } } } } } } } }`;
      const few = { r: [companyRef(companies[0])] };
      const many = { r: companies.map(companyRef) };
      await reader.gql(query, few);
      let small: any;
      let large: any;
      const smallCount = await t.countStatements(async () => (small = await reader.gql(query, few)));
      const largeCount = await t.countStatements(async () => (large = await reader.gql(query, many)));
      expect(small.body.data._entities).toHaveLength(1);
      expect(large.body.data._entities).toHaveLength(8);
      for (const company of large.body.data._entities) {
        expect(company.smartLibraries).toHaveLength(2);
        for (const library of company.smartLibraries)
          expect(library.entries.edges.map((e: any) => e.node.library.smartLibId)).toEqual([library.smartLibId]);
      }
      expect(largeCount).toBe(smallCount);
      // The caller, the companies (visibility), their libraries, the entries of every library: the
      // libraries and entries part is two statements, and SmartEntry.library none.
      expect([paging, smallCount]).toEqual([paging, 4]);
    }
  });
});

describe('authorization', () => {
  it('a library the caller may not read never appears: another company, another team, another user', async () => {
    const { companyId } = await createCompany(t.orm);
    const reader = await t.newUser();
    await connect(t.orm, reader.uId, companyId, 'accepted');
    const companyWide = await createLibrary(t.orm, { companyId });
    const em = t.orm.em.fork();
    const ownTeam = await createTeam(t.orm, companyId, [reader.uId]);
    const otherTeam = await createTeam(t.orm, companyId, []);
    const teamLibrary = (await createSmartLibrary(em, { companyId, teamId: ownTeam.teamId, smartLibName: 'A team shelf' })).smartLibId;
    // Another team's library, which the reader may not read though connected to the company.
    await createSmartLibrary(em, { companyId, teamId: otherTeam.teamId, smartLibName: 'B team shelf' });
    // Another company's library, and another user's (they publish to it; the reader has no tie).
    const otherCompany = (await createCompany(t.orm)).companyId;
    const elsewhere = await newPublisher(t, { companyId: otherCompany });

    const mine = await reader.gql(`{ userProfile { smartLibraries { smartLibId } } }`);
    expect(mine.body).toEqual({
      data: { userProfile: { smartLibraries: [{ smartLibId: teamLibrary }, { smartLibId: companyWide }] } },
    });
    const ofCompany = await reader.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { smartLibraries { smartLibId } } } }`,
      { r: [companyRef(companyId), companyRef(otherCompany)] },
    );
    expect(ofCompany.body.data._entities[0]).toEqual({ smartLibraries: [{ smartLibId: teamLibrary }, { smartLibId: companyWide }] });
    expect(ofCompany.body.data._entities[1]).toEqual({ smartLibraries: [] });
    // The publisher elsewhere sees their own library, not the reader's.
    const theirs = await elsewhere.gql(`{ userProfile { smartLibraries { smartLibId } } }`);
    expect(theirs.body).toEqual({ data: { userProfile: { smartLibraries: [{ smartLibId: elsewhere.smartLibId }] } } });
  });

  it("User.smartLibraries of another user (the router's reference) is WSInsufficientPrivilegesException", async () => {
    const res = await ROUTER.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId smartLibraries { smartLibId } } } }`,
      { r: [{ __typename: 'User', uId: OLIVIA }] },
    );
    expect(errorOf(res)).toEqual([
      { message: 'Only the user themselves may read their libraries.', code: 'WSInsufficientPrivilegesException', field: undefined },
    ]);
    expect(res.body.data).toEqual({ _entities: [null] });
    // The router reads no library of a company either.
    const company = await ROUTER.gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { companyId smartLibraries { smartLibId } } } }`,
      { r: [companyRef(NORTHWIND)] },
    );
    expect(company.body).toEqual({ data: { _entities: [{ companyId: NORTHWIND, smartLibraries: [] }] } });
  });

  describe('SmartLibrary.company', () => {
    const COMPANY = `query($id: Int!) { smartLibrary(smartLibId: $id) { smartLibId companyId company { companyId } } }`;

    it.each([
      ['a hidden wall', { hiddenWall: true }],
      ['an inactive company', { active: false }],
    ])('of %s is null for a reader with no tie to it (a publisher, a team member), and the company for its ADMIN', async (_, data) => {
      const { companyId } = await createCompany(t.orm, data);
      const publisher = await newPublisher(t, { companyId });
      const member = await t.newUser();
      const team = await createTeam(t.orm, companyId, [member.uId]);
      const teamLibrary = (await createSmartLibrary(t.orm.em.fork(), { companyId, teamId: team.teamId, smartLibName: 'Team' })).smartLibId;
      const admin = await t.newUser();
      await grantCompanyRole(t.orm, admin.uId, companyId, 'ADMIN');

      const seen = async (who: Client, id: number) => (await who.gql(COMPANY, { id })).body;
      expect(await seen(publisher, publisher.smartLibId)).toEqual({
        data: { smartLibrary: { smartLibId: publisher.smartLibId, companyId, company: null } },
      });
      expect(await seen(member, teamLibrary)).toEqual({ data: { smartLibrary: { smartLibId: teamLibrary, companyId, company: null } } });
      expect(await seen(admin, teamLibrary)).toEqual({
        data: { smartLibrary: { smartLibId: teamLibrary, companyId, company: { companyId } } },
      });
    });

    it('of an active company that is not a hidden wall is the company for any reader', async () => {
      const { companyId } = await createCompany(t.orm);
      const publisher = await newPublisher(t, { companyId });
      expect((await publisher.gql(COMPANY, { id: publisher.smartLibId })).body).toEqual({
        data: { smartLibrary: { smartLibId: publisher.smartLibId, companyId, company: { companyId } } },
      });
    });
  });
});
