// The heartbeat of the WebSockets (src/http/live-ws.ts): one timer for all the sockets of a
// server, which pings each open socket every interval and cuts one that has not answered the
// previous ping by the next, as graphql-ws's useServer did with a timer of each socket.
import { SocketHeartbeat } from '../../src/http/live-ws';

/** What a socket records of the heartbeat: its pings, and whether it was cut. */
const socket = (readyState: 0 | 1 | 2 | 3 = 1) => ({
  OPEN: 1 as const,
  readyState,
  pings: 0,
  cut: false,
  ping() {
    this.pings++;
  },
  terminate() {
    this.cut = true;
  },
});

// The clock is jest's: a real timer fires late on a loaded machine.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('when sockets answer every ping, then each open one is pinged every interval and none is cut; a closing one is not pinged', () => {
  const [a, b, closing] = [socket(), socket(), socket(2)];
  const heartbeat = new SocketHeartbeat([a, b, closing], 20);
  for (let turn = 0; turn < 3; turn++) {
    jest.advanceTimersByTime(20);
    heartbeat.heard(a);
    heartbeat.heard(b);
  }
  expect([a.pings, b.pings, closing.pings]).toEqual([3, 3, 0]);
  expect([a.cut, b.cut, closing.cut]).toEqual([false, false, false]);
  heartbeat.stop();
});

it('when a socket leaves a ping unanswered, then the next turn cuts it instead of pinging it; the others are kept', () => {
  const [answers, silent] = [socket(), socket()];
  const heartbeat = new SocketHeartbeat([answers, silent], 20);
  jest.advanceTimersByTime(20);
  heartbeat.heard(answers);
  expect(silent.cut).toBe(false);
  jest.advanceTimersByTime(20);
  expect(silent).toMatchObject({ pings: 1, cut: true });
  expect(answers).toMatchObject({ pings: 2, cut: false });
  heartbeat.stop();
});

it('when the heartbeat stops, then no timer is left and nothing more is sent', () => {
  const a = socket();
  const heartbeat = new SocketHeartbeat([a], 20);
  jest.advanceTimersByTime(20);
  heartbeat.stop();
  expect(jest.getTimerCount()).toBe(0);
  jest.advanceTimersByTime(100);
  expect(a).toMatchObject({ pings: 1, cut: false });
});
