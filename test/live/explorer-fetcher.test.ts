// The explorer's fetcher runs the subscription: a subscription streams from /graphql/stream (SSE,
// same origin) and GraphiQL gets each event as it arrives; queries still go to POST /graphql.
import { createCompany, createTeam, createUser, grantCompanyRole, tokenFor, useTestApp } from '../kit';
import { createLiveFetcher } from '../../src/explorer/page/fetcher';

const t = useTestApp();

it('when a subscription runs in the explorer, then each notification arrives as an event; without a token it is refused', async () => {
  const fetcher = createLiveFetcher(`${t.baseUrl}/graphql`);
  const company = await createCompany(t.orm);
  const pusher = await t.newUser();
  await grantCompanyRole(t.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
  const { uId } = await createUser(t.orm);
  const team = await createTeam(t.orm, company.companyId, [uId]);
  const headers = { 'x-service-authtoken': await tokenFor(t.orm, uId) };

  const stream = await fetcher(
    { query: 'subscription Live { notificationReceived { type message read } }', operationName: 'Live' },
    { headers },
  );
  expect(Symbol.asyncIterator in stream).toBe(true);
  const events = stream as AsyncGenerator<Record<string, unknown>>;
  // (The fetcher returns once the stream's head came, which is sent after the subscription started.)
  const first = events.next();
  const sent = await pusher.rest('POST', '/rest/notification/send', {
    body: { companyId: company.companyId, broadcastType: 'GT', valueIds: [String(team.teamId)], message: 'From the explorer.' },
  });
  expect(sent.status).toBe(200);
  expect((await first).value).toEqual({ data: { notificationReceived: { type: 'GT', message: 'From the explorer.', read: false } } });
  await events.return(undefined);

  expect(await fetcher({ query: 'subscription { notificationReceived { type } }' }, { headers: { 'x-service-authtoken': '' } })).toEqual({
    errors: [
      {
        message: 'The auth token is missing or invalid.',
        extensions: { code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' },
      },
    ],
  });
  expect(await fetcher({ query: '{ authSession { userId } }' }, { headers })).toEqual({ data: { authSession: { userId: uId } } });
});
