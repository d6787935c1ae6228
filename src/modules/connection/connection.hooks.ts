// Spec "Connection rules" 3: when the profile changes so that a company's criteria no longer
// hold, the open request moves on (rejected when no criterion is met any more). Declared as the
// module's profileChanged hook (index.ts).
import type { HookEvents } from '../../core/hooks';
import { recheckOpenConnections } from './connection.service';

/** Profile fields the matching rule reads (spec names, as the profile module reports them). */
const MATCHED_FIELDS = new Set(['uCountryCode', 'uProfessionId', 'uSpecialtyId']);

export async function recheckAfterProfileChange({ em, userId, changedFields }: HookEvents['profileChanged']): Promise<void> {
  if (changedFields.some((f) => MATCHED_FIELDS.has(f))) await recheckOpenConnections(em, userId);
}
