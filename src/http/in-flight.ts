// The requests a server is handling, for a shutdown that finishes them. A list linked through one
// small record a request, not a Map keyed by the response: hashing every ServerResponse as a Map
// key cost 19% of a conditions request's CPU (paired, docs/performance.md).
import type http from 'node:http';

interface Handling {
  res: http.ServerResponse;
  done?: Promise<void>;
  prev?: Handling;
  next?: Handling;
}

export class InFlight {
  private first?: Handling;

  /** Runs `handle` for `res`, which is in flight until the promise it answers settles. */
  track(res: http.ServerResponse, handle: () => Promise<void>): void {
    const entry: Handling = { res, next: this.first };
    if (this.first) this.first.prev = entry;
    this.first = entry;
    entry.done = handle().finally(() => this.remove(entry));
  }

  /** The responses in flight now. */
  responses(): http.ServerResponse[] {
    const list: http.ServerResponse[] = [];
    for (let e = this.first; e; e = e.next) list.push(e.res);
    return list;
  }

  /** Settles once every request in flight now has finished (or failed). */
  settled(): Promise<unknown> {
    const pending: Promise<void>[] = [];
    for (let e = this.first; e; e = e.next) pending.push(e.done!);
    return Promise.allSettled(pending);
  }

  private remove(entry: Handling): void {
    if (entry.prev) entry.prev.next = entry.next;
    else if (this.first === entry) this.first = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    entry.prev = entry.next = undefined;
  }
}
