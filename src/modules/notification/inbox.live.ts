// Live delivery of inbox items: the notificationReceived subscription (served over WebSocket and
// Server-Sent Events by src/http/live-*.ts) and the notificationDelivered hook that announces a
// delivery on the bus. The hook publishes one message inside the delivery transaction (so it goes
// out only if the inbox rows commit), whatever the number of recipients or subscribers. When it
// comes, the instance that delivered hands the item it wrote to its own subscribers among the
// recipients (deliveredHere), and each other instance reads it once for its own (one statement).
import type { EntityManager } from '@mikro-orm/core';
import { Extensions, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../context';
import type { Bus } from '../../core/bus';
import type { HookEvents } from '../../core/hooks';
import type { Logger } from '../../logger';
import { SHARED_EVENTS } from '../../graphql/shared-events';
import { InboxNotification } from './inbox.types';
import { readDeliveredItems } from './inbox.reads';

/** The bus topic: `{ n: notificationId, u?: recipients }` (recipients left out when too many for one message). */
const DELIVERED_TOPIC = 'inbox.delivered';
/** Recipients carried in the message; beyond, each instance reads the item for all its subscribers. */
const MAX_IDS_IN_MESSAGE = 500;
/** How long a delivery of this instance waits for its bus message (its commit) before it is forgotten. */
const EXPECTED_MS = 60_000;
/** Subscriptions handed an item before the others wait a turn of the event loop (hand()). */
const HAND_AT_ONCE = 500;
/** Items one subscription holds while its client is slow; beyond, the oldest are dropped. */
const MAX_QUEUED_ITEMS = 100;

/** Raised in the delivery transaction: one bus message, sent when the transaction commits. */
export async function announceDelivery({ em, services, notificationId, userIds }: HookEvents['notificationDelivered']): Promise<void> {
  const data = userIds.length <= MAX_IDS_IN_MESSAGE ? { n: notificationId, u: userIds } : { n: notificationId };
  await services.bus.publish(DELIVERED_TOPIC, data, em);
}

/**
 * Called in the delivery transaction with the item its inbox rows hold (unread, received when they
 * were written) for each of `userIds`: this instance hands it to its own subscribers when its bus
 * message comes (the commit), without reading it (other instances read it). Nothing is kept when no
 * one subscribes here.
 */
export function deliveredHere(bus: Bus, item: InboxNotification, userIds: readonly number[]): void {
  perBus.get(bus)?.expect(item, userIds);
}

/**
 * One subscription's items: those the bus hands it (push) wait in its queue until its reader asks
 * (next). A class, not closures over the listen() call: ten thousand idle subscriptions each hold
 * one object and its queue, where five closures and their scope cost some 400 bytes more.
 */
class Listener implements AsyncIterableIterator<InboxNotification> {
  private readonly queue: InboxNotification[] = [];
  private waiting: ((result: IteratorResult<InboxNotification>) => void) | null = null;
  private done = false;

  constructor(
    private readonly inbox: LiveInbox,
    readonly userId: number,
  ) {}

  /** An item delivered to the user: to the waiting reader, else queued (the oldest dropped past MAX_QUEUED_ITEMS). */
  push(item: InboxNotification): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: item, done: false });
      return;
    }
    if (this.queue.length >= MAX_QUEUED_ITEMS) {
      this.queue.shift();
      this.inbox.logger.warn({ userId: this.userId }, 'live inbox: a slow subscriber lost an item');
    }
    this.queue.push(item);
  }

  next(): Promise<IteratorResult<InboxNotification>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<InboxNotification>> {
    return Promise.resolve(this.finish());
  }

  throw(err?: unknown): Promise<IteratorResult<InboxNotification>> {
    this.finish();
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): IteratorResult<InboxNotification> {
    if (!this.done) {
      this.done = true;
      this.inbox.remove(this);
      this.queue.length = 0;
      this.waiting?.({ value: undefined, done: true });
      this.waiting = null;
    }
    return { value: undefined, done: true };
  }
}

/** One instance's subscriptions, by user: fed by the bus. */
class LiveInbox {
  /** A user's one subscription, or a set of them (a Set of one held some 100 bytes more). */
  private readonly listeners = new Map<number, Listener | Set<Listener>>();

  constructor(
    bus: Bus,
    private readonly em: EntityManager,
    readonly logger: Logger,
  ) {
    bus.subscribe(DELIVERED_TOPIC, (data) => this.delivered(data));
  }

  /**
   * A bus message: its items are read at once, and handed to the subscriptions after those of the
   * message before, so that a subscriber has the items in the order they were sent (the reads of
   * two notifications sent in a row may finish in either order).
   */
  private delivered(data: unknown): Promise<void> {
    const reading = this.read(data);
    const handed = this.handing.then(() => reading).then((found) => this.hand(found));
    this.handing = handed.catch(() => undefined);
    return handed;
  }

  /** The message before's items, handed over (or failed). */
  private handing: Promise<void> = Promise.resolve();

  /** Deliveries made by this instance whose message has not come yet, by notification id (deliveredHere). */
  private readonly expected = new Map<number, { item: InboxNotification; userIds: readonly number[]; forget: NodeJS.Timeout }>();

  expect(item: InboxNotification, userIds: readonly number[]): void {
    const n = item.notificationId;
    clearTimeout(this.expected.get(n)?.forget);
    // A delivery rolled back sends no message: forgotten after a while (its message clears the timer).
    const forget = setTimeout(() => this.expected.delete(n), EXPECTED_MS).unref();
    this.expected.set(n, { item, userIds, forget });
  }

  private async read(data: unknown): Promise<Awaited<ReturnType<typeof readDeliveredItems>>> {
    const { n, u } = (data ?? {}) as { n?: unknown; u?: unknown };
    if (!Number.isSafeInteger(n)) return [];
    // This instance's own delivery: its item and recipients are known (deliveredHere).
    const here = this.expected.get(n as number);
    if (here) {
      clearTimeout(here.forget);
      this.expected.delete(n as number);
    }
    const recipients = here
      ? here.userIds
      : Array.isArray(u)
        ? u.filter((id): id is number => Number.isSafeInteger(id))
        : [...this.listeners.keys()];
    const local = recipients.filter((id) => this.listeners.has(id));
    if (!local.length) return [];
    return here ? [{ owners: local, item: here.item }] : readDeliveredItems(this.em.fork(), n as number, local);
  }

  /**
   * Hands the items to their owners' subscriptions, HAND_AT_ONCE at a time: those run to their
   * clients' sockets before the next are handed. Handed all at once, every subscription's result,
   * message and write was made before the first went out, and ten thousand of each held at once
   * (a company-wide notification: the first subscriber had it some 200 ms after the read, and the
   * whole delivery cost more in garbage collection; docs/performance.md).
   */
  private async hand(found: Awaited<ReturnType<typeof readDeliveredItems>>): Promise<void> {
    let handed = 0;
    for (const { owners, item } of found) {
      for (const owner of owners) {
        const held = this.listeners.get(owner);
        if (held instanceof Listener) held.push(item);
        else for (const listener of held ?? []) listener.push(item);
        if (++handed % HAND_AT_ONCE === 0) await new Promise(setImmediate);
      }
    }
  }

  /** The items delivered to `userId` from now on, until the iterator is returned. */
  listen(userId: number): AsyncIterableIterator<InboxNotification> {
    const listener = new Listener(this, userId);
    const held = this.listeners.get(userId);
    if (!held) this.listeners.set(userId, listener);
    else if (held instanceof Listener) this.listeners.set(userId, new Set([held, listener]));
    else held.add(listener);
    return listener;
  }

  /** A listener that has finished: it hears nothing more. */
  remove(listener: Listener): void {
    const { userId } = listener;
    const held = this.listeners.get(userId);
    if (held === listener) this.listeners.delete(userId);
    else if (held instanceof Set) {
      held.delete(listener);
      if (held.size === 0) this.listeners.delete(userId);
    }
  }
}

/** One LiveInbox per running app (keyed by its bus: an app-wide service, never a global). */
const perBus = new WeakMap<Bus, LiveInbox>();

function liveInboxOf(ctx: Context): LiveInbox {
  let live = perBus.get(ctx.services.bus);
  if (!live) perBus.set(ctx.services.bus, (live = new LiveInbox(ctx.services.bus, ctx.em, ctx.logger)));
  return live;
}

@Resolver()
export class InboxLiveResolver {
  @Subscription(() => InboxNotification, {
    description:
      "Each notification as it reaches the caller's inbox (x-service-authtoken), from any instance: over WebSocket (graphql-ws on " +
      '/graphql, the token in connectionParams) or Server-Sent Events (graphql-sse at /graphql/stream, the token in the header). ' +
      'A logout or the expiry of the token ends it.',
    subscribe: async ({ context }) => {
      const ctx = context as Context;
      const { user } = await ctx.auth.requireUser();
      return liveInboxOf(ctx).listen(user.uId);
    },
  })
  // Its events are the same for everyone: one item object for every recipient with the same read
  // state (readDeliveredItems), handed on as it is; a document reading only the item's own fields
  // is executed once for all its subscribers (src/graphql/shared-events.ts).
  @Extensions({ [SHARED_EVENTS]: true })
  notificationReceived(@Root() item: InboxNotification): InboxNotification {
    return item;
  }
}
