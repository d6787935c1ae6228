// Smart library entries created with sendNotification: true notify the library's audience:
// the members of the library's team (GT), or, for a company-wide library, every team member
// of the company (JN, job "smart-library"). It runs inside the entry's create transaction
// (the library's seam), so the notification and the entry are stored together or not at all.
import { onSmartEntryPublished, type SmartEntryPublished } from '../library/library.hooks';
import { sendNotification } from './notification.service';
import { LIMITS, truncate } from './notification.limits';

export const LIBRARY_JOB_NAME = 'smart-library';

export async function notifyEntryPublished({ em, library, entry, publishedBy }: SmartEntryPublished): Promise<void> {
  // sendNotification checks this plain object against SendNotificationInput's rules too.
  const message = truncate(`New in ${library.smartLibName}: ${entry.smartEntryName}`, LIMITS.message);
  const audience = library.teamId
    ? { broadcastType: 'GT', valueIds: [String(library.teamId)] }
    : { broadcastType: 'JN', scheduleJobName: LIBRARY_JOB_NAME };
  await sendNotification(em, { ...audience, companyId: library.companyId, message, senderId: publishedBy }, {});
}

// Registered once, when the notification module is loaded with the schema (server and tests alike).
onSmartEntryPublished(notifyEntryPublished);
