// Smart library entries created with sendNotification: true notify the library's audience:
// the members of the library's team (GT), or, for a company-wide library, every team member
// of the company (JN, job "smart-library"). It runs inside the entry's create transaction
// (the library's smartEntryPublished hook, declared in index.ts), so the notification and the entry are stored together or not at all.
import type { HookEvents } from '../../core/hooks';
import { sendNotification } from './notification.service';
import { LIMITS } from './notification.limits';
import { truncate } from '../../core/text';

export const LIBRARY_JOB_NAME = 'smart-library';

export async function notifyEntryPublished({ em, library, entry, publishedBy }: HookEvents['smartEntryPublished']): Promise<void> {
  // sendNotification checks this plain object against SendNotificationInput's rules too.
  const message = truncate(`New in ${library.smartLibName}: ${entry.smartEntryName}`, LIMITS.message);
  const audience = library.teamId
    ? { broadcastType: 'GT', valueIds: [String(library.teamId)] }
    : { broadcastType: 'JN', scheduleJobName: LIBRARY_JOB_NAME };
  await sendNotification(em, { ...audience, companyId: library.companyId, message, senderId: publishedBy }, {});
}
