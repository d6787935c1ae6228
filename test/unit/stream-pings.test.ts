// The comment every open event stream is sent (src/http/live-sse.ts): one timer for all the
// streams of an app, a comment to each stream still open at each turn, none once no stream is left.
import { OpenStreams } from '../../src/http/live-sse';

/** What a response records of the pings written to it. */
const response = () => ({
  writableEnded: false,
  destroyed: false,
  written: [] as string[],
  write(chunk: string) {
    this.written.push(chunk);
    return true;
  },
});

// The clock is jest's: a turn of the real timer under a loaded machine fired late (CI saw one
// comment where two were due).
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('when streams are open, then each is sent a comment every interval, but one that has ended or was destroyed', () => {
  const streams = new OpenStreams(20);
  const [a, b, ended, destroyed] = [response(), response(), response(), response()];
  for (const r of [a, b, ended, destroyed]) streams.add(r);
  ended.writableEnded = true;
  destroyed.destroyed = true;
  jest.advanceTimersByTime(70);
  expect(a.written).toEqual([':\n\n', ':\n\n', ':\n\n']);
  expect(b.written).toEqual([':\n\n', ':\n\n', ':\n\n']);
  expect([ended.written, destroyed.written]).toEqual([[], []]);
  for (const r of [a, b, ended, destroyed]) streams.delete(r);
});

it('when the last stream is gone, then nothing more is sent, and a stream opened later is pinged again', () => {
  const streams = new OpenStreams(20);
  const a = response();
  streams.add(a);
  jest.advanceTimersByTime(50);
  expect(a.written).toHaveLength(2);
  streams.delete(a);
  expect(streams.size).toBe(0);
  expect(jest.getTimerCount()).toBe(0);
  jest.advanceTimersByTime(60);
  expect(a.written).toHaveLength(2);
  const later = response();
  streams.add(later);
  jest.advanceTimersByTime(50);
  expect(later.written).toHaveLength(2);
  streams.delete(later);
});
