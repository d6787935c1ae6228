// Other modules react to profile changes without the profile module knowing them. Discovery
// registers its re-check of pending connection requests here (spec "Connection rules" 3: a
// profile that no longer meets a criterion gets its pending request rejected).
//
// Contract: every registered hook runs inside the updateUserProfile transaction, after the
// changed columns are written and only when at least one field changed. `em` is that
// transaction's EntityManager (use it, never a fork: a fork leaves the transaction and, on
// the embedded database, waits for it forever; for raw SQL use `em.execute(sql, params)`, not
// `em.getConnection().execute`, which runs outside the transaction). `changedFields` holds the spec names of the
// fields that really changed (e.g. ['uCountryCode', 'uProfessionId']). A hook that throws
// rolls the whole update back, so hooks must only throw for failures the caller should see.
// Register at module load (import time), never per request.
import type { EntityManager } from '@mikro-orm/core';

export type ProfileChangeHook = (em: EntityManager, userId: number, changedFields: string[]) => Promise<void>;

const hooks: ProfileChangeHook[] = [];

export function registerProfileChangeHook(hook: ProfileChangeHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

/** For tests: removes a hook registered with registerProfileChangeHook. */
export function unregisterProfileChangeHook(hook: ProfileChangeHook): void {
  const i = hooks.indexOf(hook);
  if (i >= 0) hooks.splice(i, 1);
}

/** Runs every hook in registration order; called by the profile service inside its transaction. */
export async function runProfileChangeHooks(em: EntityManager, userId: number, changedFields: string[]): Promise<void> {
  for (const hook of hooks) await hook(em, userId, changedFields);
}
