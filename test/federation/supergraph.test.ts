// The service composes into a supergraph: an Apollo gateway introspects it over loopback
// (IntrospectAndCompose) and answers queries through it.
import { ApolloServer } from '@apollo/server';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { useTestApp } from '../kit';

const t = useTestApp();
let gateway: ApolloServer;
beforeAll(async () => {
  const gw = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({ subgraphs: [{ name: 'pronet', url: `${t.baseUrl}/graphql` }] }),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  gateway = new ApolloServer({ gateway: gw });
  await gateway.start();
  t.onClose(() => gateway.stop());
});

it('answers a query through the gateway', async () => {
  const res = await gateway.executeOperation({
    query: '{ timezones(countryCode: "AU") { timezoneId offsetHours } conditionsVersion { version } }',
  });
  const body = res.body as any;
  expect(body.singleResult.errors).toBeUndefined();
  expect(body.singleResult.data.timezones).toContainEqual({ timezoneId: 'Australia/Sydney', offsetHours: 10 });
  expect(body.singleResult.data.conditionsVersion).toEqual({ version: 1 });
});

it('passes the subgraph error codes through', async () => {
  const res = await gateway.executeOperation({ query: '{ timezones(countryCode: "AUS") { timezoneId } }' });
  const body = res.body as any;
  expect(body.singleResult.errors[0].extensions.errorCode).toBe('WSInvalidParameterException');
});
