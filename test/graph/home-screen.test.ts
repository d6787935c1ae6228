// The home screen of a new mobile client in one GraphQL round trip (issue "The graph"): the
// caller's connections, each company's next events and its libraries' newest entries. It answers
// the demo user Olivia with her Northwind connection, and costs the same number of statements with
// 1 and with 50 connections, at most 10.
import {
  useTestApp,
  DEMO,
  NORTHWIND,
  OLIVIA,
  nodeId,
  connect,
  createCompany,
  createEvent,
  createLibrary,
  invite,
  type GqlBody,
  type NewUser,
} from '../kit';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';

const t = useTestApp();

describe('for the demo user Olivia', () => {
  it('answers her connections with Northwind Health, five of its events and its library entries', async () => {
    // Her invitations by start time, as the root operation lists them: the first five are the page.
    const root = await t.as(OLIVIA).gql(`{ userEvents(cId: ${NORTHWIND}, version: 1) { eventUUID eName } }`);
    const company = { id: nodeId('Company', NORTHWIND), companyId: NORTHWIND };
    const firstFive = root.body.data.userEvents
      .slice(0, 5)
      .map((e: { eventUUID: string; eName: string }) => ({ node: { id: nodeId('Event', e.eventUUID), eName: e.eName, company } }));

    const res = await t.as(OLIVIA).gql(HOME_SCREEN_QUERY);
    expect(res.body.errors).toBeUndefined();
    const connections = res.body.data.me.connections;
    const northwind = connections.find((c: { company: { companyName: string } }) => c.company.companyName === 'Northwind Health');
    expect(res.body.data.me.id).toBe(nodeId('User', OLIVIA));
    const library = { id: nodeId('SmartLibrary', DEMO.library.smartLibId), smartLibId: DEMO.library.smartLibId };
    const welcomePack = { id: nodeId('SmartEntry', DEMO.library.welcomePackEntryId), smartEntryName: 'Welcome pack', library };
    expect(northwind).toEqual({
      status: 'accepted',
      company: {
        id: company.id,
        companyName: 'Northwind Health',
        events: { edges: firstFive, pageInfo: { hasNextPage: true, endCursor: expect.any(String) } },
        smartLibraries: [{ id: library.id, entries: { edges: [{ node: welcomePack }] } }],
      },
    });
    // Her pending request to Pending Partners is listed too, with nothing of its wall for her.
    expect(connections).toContainEqual({
      status: 'pending',
      company: {
        id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        companyName: 'Pending Partners',
        events: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
        smartLibraries: [],
      },
    });
    expect(connections).toHaveLength(2);
  });

  it('walks me.events seven at a time through each of her 25 invitations exactly once', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const { body }: { body: GqlBody } = await t
        .as(OLIVIA)
        .gql(
          `query($after: String) { me { events(first: 7, after: $after) { totalCount edges { node { eventUUID } } pageInfo { hasNextPage endCursor } } } }`,
          { after },
        );
      expect(body.errors).toBeUndefined();
      const events: {
        totalCount: number;
        edges: { node: { eventUUID: string } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string };
      } = body.data.me.events;
      expect(events.totalCount).toBe(DEMO.eventCount);
      seen.push(...events.edges.map((e: { node: { eventUUID: string } }) => e.node.eventUUID));
      if (!events.pageInfo.hasNextPage) break;
      after = events.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(DEMO.eventCount);
    expect(new Set(seen)).toEqual(new Set(Array.from({ length: DEMO.eventCount }, (_, i) => DEMO.eventUuidOf(i + 1))));
  });
});

describe('statements', () => {
  /** A company the user is connected to, with six events they are invited to and a library they publish with one entry. */
  async function connectedCompany(user: NewUser): Promise<void> {
    const company = await createCompany(t.orm);
    await connect(t.orm, user.uId, company.companyId, 'accepted');
    for (let i = 0; i < 6; i++) {
      const event = await createEvent(t.orm, company.companyId, { utcStart: new Date(Date.UTC(2030, 0, 1 + i)) });
      await invite(t.orm, event.eId, user.uId);
    }
    const smartLibId = await createLibrary(t.orm, { companyId: company.companyId, publishers: [user.uId] });
    const entry = await user.rest('POST', '/rest/smartlib/smartentry', {
      body: {
        smartLibId,
        cId: company.companyId,
        smartEntryType: 'URL',
        smartEntryName: `Entry of ${company.companyId}`,
        smartEntryUrlLink: 'https://example.org/',
        smartEntryDownloadOrig: 'N',
        smartEntryDownloadPdf: 'N',
      },
    });
    expect(entry.status).toBe(200);
  }

  async function homeScreen(user: NewUser) {
    let body: GqlBody = {};
    const statements = await t.countStatements(async () => (body = (await user.gql(HOME_SCREEN_QUERY)).body));
    expect(body.errors).toBeUndefined();
    return { statements, connections: body.data.me.connections };
  }

  it('are the same with 1 and with 50 connections, at most 10', async () => {
    const user = await t.newUser();
    await connectedCompany(user);
    const one = await homeScreen(user);
    expect(one.connections).toHaveLength(1);
    expect(one.connections[0].company.events.edges).toHaveLength(5);
    expect(one.connections[0].company.events.pageInfo.hasNextPage).toBe(true);
    expect(one.connections[0].company.smartLibraries[0].entries.edges).toHaveLength(1);

    for (let i = 1; i < 50; i++) await connectedCompany(user);
    const fifty = await homeScreen(user);
    expect(fifty.connections).toHaveLength(50);
    for (const c of fifty.connections) {
      expect(c.company.events.edges).toHaveLength(5);
      expect(c.company.smartLibraries[0].entries.edges).toHaveLength(1);
    }
    expect(fifty.statements).toBe(one.statements);
    // At most 10 by the issue; 7 today: the caller's token and row, the connections, their
    // companies, every company's events page, the libraries and every library's entries page.
    expect(one.statements).toBe(7);
  });
});
