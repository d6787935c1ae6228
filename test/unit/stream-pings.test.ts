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

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('when streams are open, then each is sent a comment every interval, but one that has ended or was destroyed', async () => {
  const streams = new OpenStreams(20);
  const [a, b, ended, destroyed] = [response(), response(), response(), response()];
  for (const r of [a, b, ended, destroyed]) streams.add(r);
  ended.writableEnded = true;
  destroyed.destroyed = true;
  await wait(70);
  expect(a.written.length).toBeGreaterThanOrEqual(2);
  expect(new Set(a.written)).toEqual(new Set([':\n\n']));
  expect(b.written.length).toBeGreaterThanOrEqual(2);
  expect([ended.written, destroyed.written]).toEqual([[], []]);
  for (const r of [a, b, ended, destroyed]) streams.delete(r);
});

it('when the last stream is gone, then nothing more is sent, and a stream opened later is pinged again', async () => {
  const streams = new OpenStreams(20);
  const a = response();
  streams.add(a);
  await wait(50);
  streams.delete(a);
  expect(streams.size).toBe(0);
  const sent = a.written.length;
  await wait(60);
  expect(a.written.length).toBe(sent);
  const later = response();
  streams.add(later);
  await wait(50);
  expect(later.written.length).toBeGreaterThanOrEqual(1);
  streams.delete(later);
});
