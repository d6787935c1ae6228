// One execution of an inbox item answers every subscriber whose document reads only the item's own
// fields (src/graphql/shared-events.ts, src/http/live-execution.ts). A document that reads a
// field of the caller's (InboxNotification.id names the caller's inbox) is executed for each
// subscriber: two recipients of one notification each get their own id, over graphql-ws and
// /graphql/stream alike, where a shared execution would hand both the first one's.
import { parse } from 'graphql';
import { createSchema } from '../../src/graphql/schema';
import { sameForEveryone } from '../../src/graphql/shared-events';
import { MODULES } from '../../src/modules';
import { useTestApp } from '../kit';
import { liveAudience, openSocket, openStream, SUBSCRIPTION } from '../kit/live';

const app = useTestApp();

const WITH_ID = 'subscription { notificationReceived { id notificationId message } }';

describe('which subscriptions one execution answers for everyone', () => {
  it("the item's own fields (and __typename), in fields or fragments: shared; InboxNotification.id anywhere: each its own", async () => {
    const schema = await createSchema(MODULES);
    const documents = {
      [SUBSCRIPTION]: true,
      'subscription { notificationReceived { __typename ... on InboxNotification { message } ...F } } fragment F on InboxNotification { url }': true,
      [WITH_ID]: false,
      'subscription { notificationReceived { message ...F } } fragment F on InboxNotification { id }': false,
      'subscription { notificationReceived { ... on Node { id } } }': false,
    };
    expect(Object.fromEntries(Object.keys(documents).map((text) => [text, sameForEveryone(schema, parse(text))]))).toEqual(documents);
  });
});

describe('when two recipients subscribe with a document that reads the id of their inbox item', () => {
  it('then each has its own id (as User.notifications names it) over graphql-ws and /graphql/stream, beside a shared document', async () => {
    const { users, send } = await liveAudience(app, 2);
    const sockets = users.map((u) => openSocket(app, u.token, { query: WITH_ID }));
    const plain = openSocket(app, users[1].token);
    const streams = await Promise.all(users.map((u) => openStream(app, u.token, { query: WITH_ID })));
    try {
      for (const s of [...sockets, plain]) expect(await s.acked).toBe(true);
      for (const s of streams) expect(s.res.status).toBe(200);
      for (const s of [...sockets, plain]) await s.settled();

      await send('Each their own');
      const viaSockets = await Promise.all(sockets.map((s) => s.next()));
      const viaStreams = [];
      for (const stream of streams) {
        let event = await stream.next();
        while (event?.event !== 'next' && event !== null) event = await stream.next();
        viaStreams.push(event?.data);
      }
      const own = [];
      for (const u of users) {
        const res = await app.gql(
          '{ userProfile { notifications(first: 1) { edges { node { id notificationId } } } } }',
          {},
          { 'x-service-authtoken': u.token },
        );
        own.push(res.body.data.userProfile.notifications.edges[0].node);
      }
      expect(own[0].id).not.toEqual(own[1].id);
      expect({ viaSockets: viaSockets.map((s) => s?.item), viaStreams, plain: (await plain.next())?.item }).toEqual({
        viaSockets: own.map((o) => ({ ...o, message: 'Each their own' })),
        viaStreams: own.map((o) => ({ data: { notificationReceived: { ...o, message: 'Each their own' } } })),
        plain: expect.objectContaining({ notificationId: own[1].notificationId, message: 'Each their own', read: false }),
      });
    } finally {
      for (const s of [...sockets, plain, ...streams]) s.close();
    }
  });
});

describe('when the instance that delivers a notification holds its recipients’ subscriptions', () => {
  it('then it hands them the item as the inbox holds it, without reading it back: the send and the delivery take the send’s statements', async () => {
    const { users, send } = await liveAudience(app, 2);
    const alone = await app.countStatements(() => send('Nobody listens'));
    const sockets = users.map((u) => openSocket(app, u.token));
    const stream = await openStream(app, users[0].token);
    try {
      for (const s of sockets) expect(await s.acked).toBe(true);
      expect(stream.res.status).toBe(200);
      for (const s of sockets) await s.settled();

      let items: unknown[] = [];
      let streamed: unknown;
      const withSubscribers = await app.countStatements(async () => {
        await send('Everyone listens', { url: 'https://example.com/news' });
        items = (await Promise.all(sockets.map((s) => s.next()))).map((s) => s?.item);
        let event = await stream.next();
        while (event?.event !== 'next' && event !== null) event = await stream.next();
        streamed = event?.data;
      });
      const inbox = [];
      for (const u of users) {
        const query = `{ userProfile { notifications(first: 1) { edges { node { ${SUBSCRIPTION.replace(/.*notificationReceived \{ (.*) \} \}$/, '$1')} } } } } }`;
        const res = await app.gql(query, {}, { 'x-service-authtoken': u.token });
        inbox.push(res.body.data.userProfile.notifications.edges[0].node);
      }
      expect(inbox[0]).toEqual(expect.objectContaining({ message: 'Everyone listens', url: 'https://example.com/news', read: false }));
      expect({ withSubscribers, items, streamed }).toEqual({
        withSubscribers: alone,
        items: inbox,
        streamed: { data: { notificationReceived: inbox[0] } },
      });
    } finally {
      for (const s of [...sockets, stream]) s.close();
    }
  });
});
