// The one hook mechanism: a module reacts to another module's event by naming a handler in its
// definition (`hooks: { profileChanged }`); the app collects every module's handlers once, at
// start-up, into one Hooks object that reaches services through the context
// (ctx.services.hooks). The module that raises an event never imports the ones that react.
//
// Contract for every handler: it runs inside the raising operation's transaction, with that
// transaction's EntityManager (use it, never a fork: a fork leaves the transaction and, on the
// embedded database, waits for it forever; for raw SQL use `em.execute`). A handler that throws
// rolls the whole operation back, so it throws only for failures the caller should see.
import type { EntityManager } from '@mikro-orm/core';
import type { Bus } from './bus';
import type { JobQueue } from './queue';

export interface HookEvents {
  /** updateUserProfile changed at least one field (spec names, e.g. ['uCountryCode']). */
  profileChanged: { em: EntityManager; userId: number; changedFields: string[] };
  /** createSmartEntry stored an entry with sendNotification: true. */
  smartEntryPublished: {
    em: EntityManager;
    library: { smartLibId: number; smartLibName: string; companyId: number; teamId: number | null };
    entry: { smartEntryId: number; smartEntryName: string; smartEntryType: string; smartEntryDesc: string | null };
    /** The publisher who created the entry. */
    publishedBy: number;
  };
  /**
   * A notification was delivered to these users' inboxes (sendNotification or a scheduled send),
   * raised in the delivery transaction right after the inbox rows are written: what a handler
   * writes or enqueues (services.queue.send(em, ...)) commits with them.
   */
  notificationDelivered: {
    em: EntityManager;
    /** The app's services (ctx.services), of which a handler of this event uses these. */
    services: { bus: Bus; queue: JobQueue };
    notificationId: number;
    userIds: readonly number[];
  };
}

export type HookName = keyof HookEvents;
export type HookHandler<K extends HookName> = (event: HookEvents[K]) => Promise<void>;
export type HookHandlers = { [K in HookName]?: HookHandler<K> };

export class Hooks {
  private readonly handlers: { [K in HookName]: HookHandler<K>[] } = {
    profileChanged: [],
    smartEntryPublished: [],
    notificationDelivered: [],
  };

  constructor(declared: readonly HookHandlers[] = []) {
    for (const set of declared) for (const name of Object.keys(set) as HookName[]) this.add(name, set[name] as never);
  }

  /** Adds a handler after start-up (tests); returns a function that removes it again. */
  add<K extends HookName>(name: K, handler: HookHandler<K>): () => void {
    const list = this.handlers[name] as HookHandler<K>[];
    list.push(handler);
    return () => {
      const i = list.indexOf(handler);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Runs every handler of the event in turn (a copy of the list: a handler may remove itself). */
  async emit<K extends HookName>(name: K, event: HookEvents[K]): Promise<void> {
    for (const handler of [...(this.handlers[name] as HookHandler<K>[])]) await handler(event);
  }
}
