// The seam between the library and the notification module: createSmartEntry with
// sendNotification: true calls every registered notifier inside its transaction, so the
// notification record and the entry are stored together or not at all. The notification
// module registers its notifier at start-up with onSmartEntryPublished(fn).
import type { EntityManager } from '@mikro-orm/core';

export interface SmartEntryPublished {
  /** The create transaction: write the notification record through it. */
  em: EntityManager;
  library: { smartLibId: number; smartLibName: string; companyId: number; teamId: number | null };
  entry: { smartEntryId: number; smartEntryName: string; smartEntryType: string; smartEntryDesc: string | null };
  /** The publisher who created the entry. */
  publishedBy: number;
}

export type SmartEntryNotifier = (event: SmartEntryPublished) => Promise<void>;

const notifiers: SmartEntryNotifier[] = [];

/** Registers a notifier; returns a function that removes it again. */
export function onSmartEntryPublished(notifier: SmartEntryNotifier): () => void {
  notifiers.push(notifier);
  return () => {
    const i = notifiers.indexOf(notifier);
    if (i >= 0) notifiers.splice(i, 1);
  };
}

/** Runs every notifier in turn; a failing one fails (and rolls back) the create. Returns how many ran. */
export async function notifySmartEntryPublished(event: SmartEntryPublished): Promise<number> {
  for (const notify of [...notifiers]) await notify(event);
  return notifiers.length;
}
