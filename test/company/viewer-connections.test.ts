// The graph's edges to connections (issue 19): User.connections (the caller's own, as
// myConnections lists them, with its status filter), Company.viewerConnection (the caller's
// connection with a company reached through any edge) and Connection.company, batched: the
// statements of `me { connections { company { ... } } }` do not grow with the connections.
import crypto from 'node:crypto';
import { CARA, connect, createCompany, createCriterion, createSystemToken, DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const { pending: PENDING, hidden: HIDDEN, closed: CLOSED } = DEMO.companies;

const CONNECTION_FIELDS = 'companyId userId status requestedAt pendingAt acceptedAt rejectedAt rejectionReason updatedAt';
const at = (iso: string) => Date.parse(iso);

/** Olivia's two demo connections, newest request first, as the Connection type answers them. */
const OLIVIA_PENDING = {
  companyId: PENDING,
  userId: OLIVIA,
  status: 'pending',
  requestedAt: at('2026-02-01T08:30:00Z'),
  pendingAt: at('2026-02-01T08:30:00Z'),
  acceptedAt: null,
  rejectedAt: null,
  rejectionReason: null,
  updatedAt: expect.any(Number),
};
const OLIVIA_ACCEPTED = {
  companyId: NORTHWIND,
  userId: OLIVIA,
  status: 'accepted',
  requestedAt: at('2026-01-05T09:00:00Z'),
  pendingAt: at('2026-01-05T09:00:00Z'),
  acceptedAt: at('2026-01-06T10:00:00Z'),
  rejectedAt: null,
  rejectionReason: null,
  updatedAt: expect.any(Number),
};

describe('User.connections', () => {
  it('when Olivia asks for her connections with their companies, then both, newest request first', async () => {
    const res = await olivia.gql('{ me { uId connections { status company { companyId companyName } } } }');
    expect(res.body).toEqual({
      data: {
        me: {
          uId: OLIVIA,
          connections: [
            { status: 'pending', company: { companyId: PENDING, companyName: 'Pending Partners' } },
            { status: 'accepted', company: { companyId: NORTHWIND, companyName: 'Northwind Health' } },
          ],
        },
      },
    });
  });

  it('when every field is asked for, then the records and order are those of myConnections', async () => {
    const res = await olivia.gql(`{ me { connections { ${CONNECTION_FIELDS} } } myConnections { ${CONNECTION_FIELDS} } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.me.connections).toEqual([OLIVIA_PENDING, OLIVIA_ACCEPTED]);
    expect(res.body.data.me.connections).toEqual(res.body.data.myConnections);
  });

  it.each([
    ['accepted', [NORTHWIND]],
    ['pending', [PENDING]],
    ['requested', []],
    ['rejected', []],
  ])('when filtered by status %s, then only those', async (status, companyIds) => {
    const res = await olivia.gql('query($s: String) { me { connections(status: $s) { companyId status } } }', { s: status });
    expect(res.body).toEqual({ data: { me: { connections: companyIds.map((companyId) => ({ companyId, status })) } } });
  });

  it('when the status is unknown, then WSInvalidParameterException naming status, as myConnections answers', async () => {
    const res = await olivia.gql('{ me { uId connections(status: "open") { companyId } } }');
    expect(res.body.data).toBeNull();
    expect(res.body.errors!.map((e: any) => [e.path, e.extensions])).toEqual([
      [['me', 'connections'], { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'status' }],
    ]);
    const root = await olivia.gql('{ myConnections(status: "open") { companyId } }');
    expect(root.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'status' });
  });

  it("when another user asks, then only their own connections: never Olivia's", async () => {
    const u = await t.newUser();
    expect((await u.gql('{ me { uId connections { companyId } } }')).body).toEqual({ data: { me: { uId: u.uId, connections: [] } } });
    const company = await createCompany(t.orm);
    await connect(t.orm, u.uId, company.companyId, 'rejected');
    const res = await u.gql('{ me { connections { userId companyId status rejectionReason } } }');
    expect(res.body).toEqual({
      data: { me: { connections: [{ userId: u.uId, companyId: company.companyId, status: 'rejected', rejectionReason: 'declined' }] } },
    });
  });

  describe('on a User reached through _entities', () => {
    const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId connections { companyId } } } }';

    it("when Olivia resolves her own reference, then her connections; another user's reference is refused before any edge", async () => {
      const res = await olivia.gql(ENTITIES, {
        r: [
          { __typename: 'User', uId: OLIVIA },
          { __typename: 'User', uId: CARA },
        ],
      });
      expect(res.body.data).toEqual({
        _entities: [{ uId: OLIVIA, connections: [{ companyId: PENDING }, { companyId: NORTHWIND }] }, null],
      });
      expect(res.body.errors!.map((e: any) => [e.path, e.extensions.errorCode])).toEqual([
        [['_entities', 1], 'WSInsufficientPrivilegesException'],
      ]);
    });

    it("when the router's token resolves a user, then the profile resolves but their connections are refused (WSInsufficientPrivilegesException)", async () => {
      const router = t.with({ 'x-api-key': await createSystemToken(t.orm, ['federation'], { name: `router-${crypto.randomUUID()}` }) });
      const profile = await router.gql('query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId uFirstName } } }', {
        r: [{ __typename: 'User', uId: OLIVIA }],
      });
      expect(profile.body).toEqual({ data: { _entities: [{ uId: OLIVIA, uFirstName: 'Olivia' }] } });
      const res = await router.gql(ENTITIES, { r: [{ __typename: 'User', uId: OLIVIA }] });
      expect(res.body.data).toEqual({ _entities: [null] });
      expect(res.body.errors!.map((e: any) => [e.path, e.extensions.errorCode])).toEqual([
        [['_entities', 0, 'connections'], 'WSInsufficientPrivilegesException'],
      ]);
    });
  });
});

describe('Company.viewerConnection', () => {
  it('when Olivia reaches companies through her connections, then each carries her own connection', async () => {
    const res = await olivia.gql(`{ me { connections { company { companyId viewerConnection { ${CONNECTION_FIELDS} } } } } }`);
    expect(res.body).toEqual({
      data: {
        me: {
          connections: [
            { company: { companyId: PENDING, viewerConnection: OLIVIA_PENDING } },
            { company: { companyId: NORTHWIND, viewerConnection: OLIVIA_ACCEPTED } },
          ],
        },
      },
    });
  });

  it('when Olivia reaches companies through recommendedEntities, then her pending request shows and the others are null', async () => {
    const res = await olivia.gql(
      '{ recommendedEntities(version: 2, entityType: ["company"]) { entityId company { companyId viewerConnection { status } } } }',
    );
    expect(res.body.errors).toBeUndefined();
    const seen = res.body.data.recommendedEntities.map((e: any) => [e.company.companyId, e.company.viewerConnection]);
    expect(seen).toEqual([
      [PENDING, { status: 'pending' }],
      [DEMO.companies.southgate, null],
      [DEMO.companies.eastwood, null],
    ]);
  });

  it("when Cara (Northwind's admin) lists Northwind's connections, then the company's viewerConnection is hers, never Olivia's", async () => {
    const res = await t
      .as(CARA)
      .gql(
        '{ companyConnections(companyId: 1001, status: "accepted") { userId company { companyId viewerConnection { userId status } } } }',
      );
    expect(res.body.errors).toBeUndefined();
    const rows = res.body.data.companyConnections;
    expect(rows.map((r: any) => r.userId).sort()).toEqual([OLIVIA, CARA].sort());
    for (const row of rows) expect(row.company).toEqual({ companyId: NORTHWIND, viewerConnection: { userId: CARA, status: 'accepted' } });
  });

  it('when a user without a connection reaches a company, then null; with one to a hidden wall or an inactive company, then theirs', async () => {
    const u = await t.newUser();
    await connect(t.orm, u.uId, HIDDEN, 'rejected');
    await connect(t.orm, u.uId, CLOSED, 'pending');
    const res = await u.gql('{ me { connections { company { companyId viewerConnection { userId companyId status } } } } }');
    expect(res.body.data.me.connections.map((c: any) => c.company)).toEqual(
      expect.arrayContaining([
        { companyId: HIDDEN, viewerConnection: { userId: u.uId, companyId: HIDDEN, status: 'rejected' } },
        { companyId: CLOSED, viewerConnection: { userId: u.uId, companyId: CLOSED, status: 'pending' } },
      ]),
    );
    const northwind = await u.gql(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { companyId viewerConnection { userId } } } }',
      { r: [{ __typename: 'Company', companyId: NORTHWIND }] },
    );
    expect(northwind.body).toEqual({ data: { _entities: [{ companyId: NORTHWIND, viewerConnection: null }] } });
  });

  it("when the router's token resolves a company, then viewerConnection is null", async () => {
    const router = t.with({ 'x-api-key': await createSystemToken(t.orm, ['federation'], { name: `router-${crypto.randomUUID()}` }) });
    const res = await router.gql(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { companyId viewerConnection { userId } } } }',
      { r: [{ __typename: 'Company', companyId: NORTHWIND }] },
    );
    expect(res.body).toEqual({ data: { _entities: [{ companyId: NORTHWIND, viewerConnection: null }] } });
  });

  it('when a request is made, then the answer carries the new connection as the viewer connection', async () => {
    const u = await t.newUser({ countryCode: 'AU' });
    const company = await createCompany(t.orm, { vetsConnections: false });
    await createCriterion(t.orm, company.companyId, { countries: ['AU'] });
    const res = await u.gql('mutation($c: Int!) { requestConnection(companyId: $c) { status company { viewerConnection { status } } } }', {
      c: company.companyId,
    });
    expect(res.body).toEqual({
      data: { requestConnection: { status: 'accepted', company: { viewerConnection: { status: 'accepted' } } } },
    });
  });
});

describe('statements', () => {
  const HOME = `{ me { connections { status company { companyId companyName viewerConnection { status } } } } }`;

  /** The statements of one query (the caller's token already cached), with its answer. */
  async function measured(who: { gql: (q: string) => Promise<any> }, query: string) {
    let res: any;
    const statements = await t.countStatements(async () => (res = await who.gql(query)));
    expect(res.body.errors).toBeUndefined();
    return { statements, data: res.body.data };
  }

  it('when a user has 1 or 50 connections, then me.connections.company costs the same three statements (principal, connections, companies)', async () => {
    const u = await t.newUser();
    const first = await createCompany(t.orm);
    await connect(t.orm, u.uId, first.companyId, 'accepted');
    await u.gql('{ me { uId } }'); // caches the token
    const one = await measured(u, HOME);
    expect(one.data.me.connections).toEqual([
      {
        status: 'accepted',
        company: { companyId: first.companyId, companyName: first.companyName, viewerConnection: { status: 'accepted' } },
      },
    ]);

    const tag = crypto.randomUUID();
    const made = await t.sql(
      `insert into company (company_name) select 'Bulk ' || g || ' ' || ? from generate_series(1, 49) g returning company_id`,
      [tag],
    );
    await t.sql(
      `insert into company_connection (user_id, company_id, status, requested_at, pending_at)
       select ?, company_id, 'pending', now() - make_interval(secs => company_id), now() from company where company_name like ?`,
      [u.uId, `Bulk % ${tag}`],
    );
    expect(made).toHaveLength(49);
    const fifty = await measured(u, HOME);
    expect(fifty.data.me.connections).toHaveLength(50);
    expect(fifty.data.me.connections.filter((c: any) => c.company.viewerConnection.status === c.status)).toHaveLength(50);
    expect(fifty.statements).toBe(one.statements);
    expect(one.statements).toBe(3);
  });

  it('when a user reaches 1 or many companies, then viewerConnection costs one statement for all of them', async () => {
    const u = await t.newUser();
    const companies = [await createCompany(t.orm), await createCompany(t.orm), await createCompany(t.orm)];
    await connect(t.orm, u.uId, companies[1].companyId, 'requested');
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Company { companyId viewerConnection { status } } } }';
    const reps = (ids: number[]) => ({ r: ids.map((companyId) => ({ __typename: 'Company', companyId })) });
    await u.gql('{ me { uId } }');
    const count = async (ids: number[]) => {
      let res: any;
      const n = await t.countStatements(async () => (res = await u.gql(query, reps(ids))));
      return { n, body: res.body };
    };
    const single = await count([companies[0].companyId]);
    expect(single.body).toEqual({ data: { _entities: [{ companyId: companies[0].companyId, viewerConnection: null }] } });
    const many = await count(companies.map((c) => c.companyId));
    expect(many.body).toEqual({
      data: {
        _entities: [
          { companyId: companies[0].companyId, viewerConnection: null },
          { companyId: companies[1].companyId, viewerConnection: { status: 'requested' } },
          { companyId: companies[2].companyId, viewerConnection: null },
        ],
      },
    });
    // The principal, the companies, the connections.
    expect(many.n).toBe(single.n);
    expect(single.n).toBe(3);
  });
});
