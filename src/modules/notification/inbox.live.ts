// Live delivery of inbox items: the notificationReceived subscription (served over WebSocket and
// Server-Sent Events by src/http/live-*.ts) and the notificationDelivered hook that announces a
// delivery on the bus. The hook publishes one message inside the delivery transaction (so it goes
// out only if the inbox rows commit), whatever the number of recipients or subscribers; each
// instance then reads the item once for its own subscribers among the recipients (one statement)
// and hands it to their subscriptions.
import type { EntityManager } from '@mikro-orm/core';
import { Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../context';
import type { Bus } from '../../core/bus';
import type { HookEvents } from '../../core/hooks';
import type { Logger } from '../../logger';
import { InboxNotification } from './inbox.types';
import { readDeliveredItems } from './inbox.reads';

/** The bus topic: `{ n: notificationId, u?: recipients }` (recipients left out when too many for one message). */
const DELIVERED_TOPIC = 'inbox.delivered';
/** Recipients carried in the message; beyond, each instance reads the item for all its subscribers. */
const MAX_IDS_IN_MESSAGE = 500;
/** Items one subscription holds while its client is slow; beyond, the oldest are dropped. */
const MAX_QUEUED_ITEMS = 100;

/** Raised in the delivery transaction: one bus message, sent when the transaction commits. */
export async function announceDelivery({ em, services, notificationId, userIds }: HookEvents['notificationDelivered']): Promise<void> {
  const data = userIds.length <= MAX_IDS_IN_MESSAGE ? { n: notificationId, u: userIds } : { n: notificationId };
  await services.bus.publish(DELIVERED_TOPIC, data, em);
}

type Sink = (item: InboxNotification) => void;

/** One instance's subscriptions, by user: fed by the bus. */
class LiveInbox {
  private readonly sinks = new Map<number, Set<Sink>>();

  constructor(
    bus: Bus,
    private readonly em: EntityManager,
    private readonly logger: Logger,
  ) {
    bus.subscribe(DELIVERED_TOPIC, (data) => this.delivered(data));
  }

  private async delivered(data: unknown): Promise<void> {
    const { n, u } = (data ?? {}) as { n?: unknown; u?: unknown };
    if (!Number.isSafeInteger(n)) return;
    const recipients = Array.isArray(u) ? u.filter((id): id is number => Number.isSafeInteger(id)) : [...this.sinks.keys()];
    const local = recipients.filter((id) => this.sinks.has(id));
    if (!local.length) return;
    const found = await readDeliveredItems(this.em.fork(), n as number, local);
    for (const { owner, item } of found) for (const sink of this.sinks.get(owner) ?? []) sink(item);
  }

  /** The items delivered to `userId` from now on, until the iterator is returned. */
  listen(userId: number): AsyncIterableIterator<InboxNotification> {
    const queue: InboxNotification[] = [];
    let waiting: ((result: IteratorResult<InboxNotification>) => void) | null = null;
    let done = false;
    const sink: Sink = (item) => {
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: item, done: false });
        return;
      }
      if (queue.length >= MAX_QUEUED_ITEMS) {
        queue.shift();
        this.logger.warn({ userId }, 'live inbox: a slow subscriber lost an item');
      }
      queue.push(item);
    };
    let set = this.sinks.get(userId);
    if (!set) this.sinks.set(userId, (set = new Set()));
    set.add(sink);
    const finish = (): IteratorResult<InboxNotification> => {
      if (!done) {
        done = true;
        const mine = this.sinks.get(userId);
        mine?.delete(sink);
        if (mine?.size === 0) this.sinks.delete(userId);
        queue.length = 0;
        waiting?.({ value: undefined, done: true });
        waiting = null;
      }
      return { value: undefined, done: true };
    };
    return {
      next: () => {
        if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (waiting = resolve));
      },
      return: () => Promise.resolve(finish()),
      throw: (err?: unknown) => {
        finish();
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
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
  notificationReceived(@Root() item: InboxNotification): InboxNotification {
    return item;
  }
}
