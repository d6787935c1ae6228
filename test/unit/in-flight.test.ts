// The server's list of requests in flight (src/http/in-flight.ts), which shutdown walks: every
// response being handled is listed until its handler settles, whatever order they finish in.
import http from 'node:http';
import { InFlight } from '../../src/http/in-flight';

const response = () => new http.ServerResponse(new http.IncomingMessage(null as never));

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InFlight', () => {
  it('lists each response until its handler settles, in any order, failures included', async () => {
    const inFlight = new InFlight();
    const [a, b, c] = [response(), response(), response()];
    const [da, db, dc] = [deferred(), deferred(), deferred()];
    inFlight.track(a, () => da.promise);
    inFlight.track(b, () => db.promise);
    inFlight.track(c, () => dc.promise.catch(() => undefined));
    expect(new Set(inFlight.responses())).toEqual(new Set([a, b, c]));

    db.resolve(); // the middle one first
    await db.promise;
    await new Promise(setImmediate);
    expect(new Set(inFlight.responses())).toEqual(new Set([a, c]));

    let settled = false;
    const all = inFlight.settled().then(() => (settled = true));
    dc.reject(new Error('handler failed'));
    await new Promise(setImmediate);
    expect(inFlight.responses()).toEqual([a]);
    expect(settled).toBe(false);

    da.resolve();
    await all;
    expect(settled).toBe(true);
    expect(inFlight.responses()).toEqual([]);
  });

  it('settles at once with nothing in flight, and takes new requests after', async () => {
    const inFlight = new InFlight();
    await expect(inFlight.settled()).resolves.toEqual([]);
    const res = response();
    const d = deferred();
    inFlight.track(res, () => d.promise);
    expect(inFlight.responses()).toEqual([res]);
    d.resolve();
    await inFlight.settled();
    await new Promise(setImmediate);
    expect(inFlight.responses()).toEqual([]);
  });
});
