// Cross-entity queries through a real gateway: a second subgraph (started here on loopback)
// references our User and Company by key, so the gateway fetches them from this service with
// `_entities`, 100 representations at a time, which this service resolves in a constant
// number of SQL statements and in order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createCompany, createSystemToken, createUser, useTestApp } from '../kit';

const FEDERATION_TOKEN = 'test-federation-token';

const t = useTestApp();
let other: http.Server;
let gateway: ApolloServer;
const userIds: number[] = [];
const companyIds: number[] = [];

/** A "memberships" subgraph: pairs of a user and a company, known to it only by key. */
function startOtherSubgraph(): Promise<string> {
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(`
        extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
        type User @key(fields: "uId", resolvable: false) { uId: Int! }
        type Company @key(fields: "companyId", resolvable: false) { companyId: Int! }
        type Membership { user: User! company: Company! }
        type Query { memberships(count: Int!): [Membership!]! }
      `),
      resolvers: {
        Query: {
          memberships: (_: unknown, { count }: { count: number }) =>
            Array.from({ length: count }, (_v, i) => ({ user: { uId: userIds[i] }, company: { companyId: companyIds[i] } })),
        },
      },
    },
  ]);
  const server = new ApolloServer({ schema, plugins: [ApolloServerPluginInlineTraceDisabled()] });
  return server.start().then(async () => {
    const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      const result = await server.executeOperation({ query: body.query, variables: body.variables });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify((result.body as any).singleResult));
    };
    other = http.createServer((req, res) => void answer(req, res));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(other.address() as AddressInfo).port}/graphql`;
  });
}

beforeAll(async () => {
  // The router authenticates to this subgraph with a system token of the federation scope.
  await createSystemToken(t.orm, ['federation'], { name: 'router', token: FEDERATION_TOKEN });
  for (let i = 0; i < 100; i++) {
    const u = await createUser(t.orm, { firstName: `U${i}` });
    await t.sql(
      `insert into user_address (uuid, type_code, city, country_code, user_id) values (gen_random_uuid(), 'W', 'City ${i}', 'AU', ${u.uId})`,
    );
    userIds.push(u.uId);
    companyIds.push((await createCompany(t.orm, { companyName: `Company ${String(i).padStart(3, '0')}` })).companyId);
  }
  const otherUrl = await startOtherSubgraph();
  const gw = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({
      subgraphs: [
        { name: 'pronet', url: `${t.baseUrl}/graphql` },
        { name: 'memberships', url: otherUrl },
      ],
    }),
    buildService: ({ url }) =>
      new RemoteGraphQLDataSource({
        url,
        willSendRequest({ request }) {
          request.http?.headers.set('x-api-key', FEDERATION_TOKEN);
        },
      }),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  gateway = new ApolloServer({ gateway: gw });
  await gateway.start();
  t.onClose(async () => {
    await gateway.stop();
    await new Promise<void>((r) => other.close(() => r()));
  });
});

const QUERY = `query($n: Int!) { memberships(count: $n) { user { uId firstName: uFirstName addresses { city } } company { companyId companyName criteria { criteriaId } } } }`;

async function run(n: number): Promise<{ statements: number; data: any }> {
  let data: any;
  const statements = await t.countStatements(async () => {
    const res = await gateway.executeOperation({ query: QUERY, variables: { n } });
    const single = (res.body as any).singleResult;
    expect(single.errors).toBeUndefined();
    data = single.data;
  });
  return { statements, data };
}

it('resolves users with their addresses and companies with their criteria across subgraphs, in order', async () => {
  const { data } = await run(3);
  expect(data.memberships).toEqual(
    [0, 1, 2].map((i) => ({
      user: { uId: userIds[i], firstName: `U${i}`, addresses: [{ city: `City ${i}` }] },
      company: { companyId: companyIds[i], companyName: `Company ${String(i).padStart(3, '0')}`, criteria: [] },
    })),
  );
});

it('100 representations cost this service the statements 1 does, and come back in order', async () => {
  const one = await run(1);
  const hundred = await run(100);
  expect(hundred.data.memberships.map((m: any) => m.user.uId)).toEqual(userIds);
  expect(hundred.data.memberships.map((m: any) => m.company.companyId)).toEqual(companyIds);
  expect(hundred.statements).toBe(one.statements);
});
