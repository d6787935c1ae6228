// What an idle live session holds (issue 57): the same subscription text from many clients is one
// document, parsed and validated once, and a session keeps no request context between events, so
// each event, and a second subscribe on a socket, is served from one made for it. A document that
// fails validation is refused each time it is sent, never kept.
import { suffix, useTestApp } from '../kit';
import { liveAudience, openSocket, openStream } from '../kit/live';
import { liveDocumentsKept } from '../../src/http/live-sessions';

const app = useTestApp();

/** A subscription text no other test sends (a comment of its own), every field of an item but two. */
const freshSubscription = () => `subscription { notificationReceived { notificationId type companyId message read } } # ${suffix()}`;

it('when two sockets and a stream subscribe with one text, then one document is kept for it, and each has every item sent', async () => {
  const { users, send } = await liveAudience(app, 3);
  const query = freshSubscription();
  const kept = liveDocumentsKept(app.app.schema);
  const [first, second] = [openSocket(app, users[0].token, { query }), openSocket(app, users[1].token, { query })];
  expect(await first.acked).toBe(true);
  expect(await second.acked).toBe(true);
  const stream = await openStream(app, users[2].token, { query });
  // A stream's subscription has started once its answer's head has come; a socket's once it answers a ping.
  expect(stream.res.status).toBe(200);
  await first.settled();
  await second.settled();
  expect(liveDocumentsKept(app.app.schema)).toBe(kept + 1);

  // Two events in a row: each is served after the context of the one before was dropped.
  for (const message of [`Idle one ${suffix()}`, `Idle two ${suffix()}`]) {
    await send(message);
    const item = { notificationId: expect.any(Number), type: 'GT', companyId: expect.any(Number), message, read: false };
    expect((await first.next())?.item).toEqual(item);
    expect((await second.next())?.item).toEqual(item);
    const event = await stream.next();
    expect(event?.event).toBe('next');
    expect(event?.data).toEqual({ data: { notificationReceived: item } });
  }
  first.close();
  second.close();
  stream.close();
});

it('when a socket subscribes a second time after its first event, then the second subscription is served too', async () => {
  const { users, send } = await liveAudience(app, 1);
  const socket = openSocket(app, users[0].token);
  expect(await socket.acked).toBe(true);
  await socket.settled();
  const firstMessage = `First ${suffix()}`;
  await send(firstMessage);
  expect((await socket.next())?.item).toMatchObject({ message: firstMessage });

  socket.ws.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: freshSubscription() } }));
  await socket.settled();
  const secondMessage = `Second ${suffix()}`;
  await send(secondMessage);
  await socket.next();
  await new Promise((r) => setTimeout(r, 300)); // the other subscription's message
  const delivered = socket.messages.filter((m) => m.type === 'next' && m.payload.data.notificationReceived.message === secondMessage);
  expect(delivered.map((m) => m.id).sort()).toEqual(['1', '2']);
  expect(socket.messages.filter((m) => m.type === 'error')).toEqual([]);
  socket.close();
});

it('when a subscription does not validate, then it is refused, and the same text again alike (a document kept is a valid one)', async () => {
  const { users } = await liveAudience(app, 1);
  const query = `subscription { notificationReceived { notificationId nope } } # ${suffix()}`;
  const kept = liveDocumentsKept(app.app.schema);
  const expected = {
    id: '1',
    type: 'error',
    payload: [
      {
        message: 'Cannot query field "nope" on type "InboxNotification". Did you mean "type"?',
        locations: [{ line: 1, column: 54 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', errorCode: 'WSInvalidParameterException' },
      },
    ],
  };
  for (let i = 0; i < 2; i++) {
    const socket = openSocket(app, users[0].token, { query });
    expect(await socket.acked).toBe(true);
    expect(await socket.message('error')).toEqual(expected);
    socket.close();
  }
  expect(liveDocumentsKept(app.app.schema)).toBe(kept);
});
