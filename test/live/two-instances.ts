// Live delivery across instances (issue 20), as both buses must give it: two instances on one
// database, the bus between them given by `env` (none: PostgreSQL's LISTEN/NOTIFY or the embedded
// database's, live.test.ts; REDIS_URL: Redis pub/sub, test/redis/live.redis.ts). A notification sent
// through A reaches its recipient's subscription on B within 1 s, over WebSocket (graphql-ws on
// /graphql) and Server-Sent Events (/graphql/stream); a logout on A is refused by B within 1 s and
// closes B's socket of that token; another user's notifications never arrive; a subscription
// without a valid token is refused.
import WebSocket from 'ws';
import { createUser, suffix, tokenFor, useTestApp } from '../kit';
import { liveAudience, openSocket, openStream } from '../kit/live';

const WITHIN_MS = 1000;

/** The tests of two instances over one bus, named `_name`, whose environment `env` chooses. */
export function describeTwoInstances(_name: string, env: Record<string, string>): void {
  describe(`two instances over ${_name}`, () => {
    const a = useTestApp({ env });
    const b = useTestApp({ env, alongside: a });

    /** A company, its pusher (signed in on A) and a team of `members` fresh users with tokens. */
    const audience = (members = 1) => liveAudience(a, members);

    async function latestNotificationId(companyId: number): Promise<number> {
      const [row] = await a.sql('select max(notification_id) as id from sent_notification where company_id = ?', [companyId]);
      return row.id;
    }

    it('when A sends, then the recipient subscribed on B over WebSocket has the item within 1 s, and another user nothing', async () => {
      const { companyId, users, send } = await audience(1);
      const other = await createUser(a.orm);
      const mine = openSocket(b, users[0].token);
      const theirs = openSocket(b, await tokenFor(a.orm, other.uId));
      expect(await mine.acked).toBe(true);
      expect(await theirs.acked).toBe(true);
      await mine.settled();
      await theirs.settled();

      const sentAt = await send(`Live ${suffix()}`);
      const got = await mine.next();
      expect(got).not.toBeNull();
      const latency = got!.at - sentAt;
      console.log(`[live] ${_name}: WebSocket delivery A -> B in ${latency} ms from the start of the send request`);
      expect(latency).toBeLessThan(WITHIN_MS);
      expect(got!.item).toEqual({
        notificationId: await latestNotificationId(companyId),
        type: 'GT',
        companyId,
        eventUUID: null,
        brochureId: null,
        message: expect.stringMatching(/^Live /),
        url: null,
        read: false,
        received: expect.any(Number),
      });
      expect(await theirs.next(300)).toBeNull();
      mine.close();
      theirs.close();
    });

    it('when A sends, then the recipient subscribed on B over SSE has the item within 1 s', async () => {
      const { companyId, users, send } = await audience(1);
      const stream = await openStream(b, users[0].token);
      // Its subscription has started: the answer's head is sent after it.
      expect(stream.res.status).toBe(200);
      const sentAt = await send(`Stream ${suffix()}`);
      const got = await stream.next();
      expect(got).toMatchObject({ event: 'next' });
      const latency = got!.at - sentAt;
      console.log(`[live] ${_name}: SSE delivery A -> B in ${latency} ms from the start of the send request`);
      expect(latency).toBeLessThan(WITHIN_MS);
      expect(got!.data).toEqual({
        data: {
          notificationReceived: {
            notificationId: await latestNotificationId(companyId),
            type: 'GT',
            companyId,
            eventUUID: null,
            brochureId: null,
            message: expect.stringMatching(/^Stream /),
            url: null,
            read: false,
            received: expect.any(Number),
          },
        },
      });
      stream.close();
    });

    it('when the token is logged out on A, then B refuses it within 1 s and closes its socket and stream', async () => {
      const { uId } = await createUser(a.orm);
      const token = await tokenFor(a.orm, uId);
      // B has the token in its cache.
      expect((await b.as(token).rest('GET', '/rest/user/session')).status).toBe(200);
      const socket = openSocket(b, token);
      expect(await socket.acked).toBe(true);
      const stream = await openStream(b, token);
      expect(stream.res.status).toBe(200);

      const loggedOutAt = Date.now();
      expect((await a.as(token).rest('POST', '/rest/user/logout')).status).toBe(204);
      let refusedAt = 0;
      while (!refusedAt && Date.now() - loggedOutAt < 3000) {
        const res = await b.as(token).rest('GET', '/rest/user/session');
        if (res.status === 401) {
          expect(res.body).toEqual({ errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' });
          refusedAt = Date.now();
        } else await new Promise((r) => setTimeout(r, 20));
      }
      const closed = await socket.closed;
      const completed = await stream.next();
      console.log(
        `[live] ${_name}: logout on A refused by B after ${refusedAt - loggedOutAt} ms; B's socket closed after ${closed.at - loggedOutAt} ms`,
      );
      expect(refusedAt - loggedOutAt).toBeLessThan(WITHIN_MS);
      expect(closed).toMatchObject({ code: 4403, reason: 'WSInvalidAuthTokenException' });
      expect(closed.at - loggedOutAt).toBeLessThan(WITHIN_MS);
      expect(completed).toMatchObject({ event: 'complete' });
      expect(completed!.at - loggedOutAt).toBeLessThan(WITHIN_MS);
    });

    it('when a subscription has no token or a bad one, then it is refused', async () => {
      for (const token of [undefined, 'not-a-token']) {
        const socket = openSocket(b, token);
        expect(await socket.acked).toBe(false);
        expect(await socket.closed).toMatchObject({ code: 4403, reason: 'WSInvalidAuthTokenException' });
        const stream = await openStream(b, token);
        expect(stream.res.status).toBe(401);
        expect(await stream.res.json()).toEqual({
          errors: [
            {
              message: 'The auth token is missing or invalid.',
              extensions: { code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' },
            },
          ],
        });
      }
    });

    it('when a query is sent over the socket, then it is refused: only subscriptions are served there', async () => {
      const { uId } = await createUser(a.orm);
      const token = await tokenFor(a.orm, uId);
      const ws = new WebSocket(`${b.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      const answer = await new Promise<any>((resolve) => {
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-service-authtoken': token } })));
        ws.on('message', (raw) => {
          const msg = JSON.parse((raw as Buffer).toString('utf8'));
          if (msg.type === 'connection_ack')
            ws.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ authSession { userId } }' } }));
          else resolve(msg);
        });
      });
      expect(answer).toEqual({
        id: 'q',
        type: 'error',
        payload: [
          {
            message: 'Only subscriptions are served here; send queries and mutations to POST /graphql.',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
      ws.close();
    });

    it("when more users subscribe, then sendNotification's statements stay the same", async () => {
      const counts: number[] = [];
      for (const members of [1, 4]) {
        const { users, send } = await audience(members);
        const sockets = users.flatMap((u) => [openSocket(a, u.token), openSocket(b, u.token)]);
        for (const s of sockets) expect(await s.acked).toBe(true);
        for (const s of sockets) await s.settled();
        counts.push(
          await a.countStatements(async () => {
            await send(`Count ${suffix()}`);
            // Until every subscriber has its item: the instances' reads are counted too.
            for (const s of sockets) expect(await s.next()).not.toBeNull();
          }),
        );
        for (const s of sockets) s.close();
      }
      console.log(
        `[live] ${_name}: statements of a send with its live deliveries: ${counts.join(', ')} (1 and 4 recipients, each subscribed on both instances)`,
      );
      expect(counts[1]).toBe(counts[0]);
    });
  });
}
