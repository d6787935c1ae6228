// Each inbox delivery is pushed to the recipients' browsers. The hook notificationDelivered runs
// inside the delivery transaction: it finds which recipients have subscriptions and enqueues one
// job for them (an outbox: the job exists only if the delivery commits). The job reads the item
// and the subscriptions, and sends each subscription its encrypted payload; a subscription the
// push service calls gone (404, 410) is removed, any other failure fails the job so it is retried.
// A retry sends again to every subscription, with the same Topic header, so a push service that
// still holds the first copy replaces it; a client's service worker should show the item with
// `tag: String(notificationId)` so a repeat replaces what is on screen.
import type https from 'node:https';
import pMap from 'p-map';
import type { HookEvents } from '../../core/hooks';
import type { JobDeps, QueueHandler } from '../../core/module';
import { intArray } from '../../db/sql';
import { removeSubscriptions, subscribedUsers, subscriptionsOf } from './push.queries';
import { readDeliveredItems } from '../notification';
import { vapidKeys } from './push.keys';
import { publicOnlyAgent, PushSender, type PushOutcome } from './push.sender';

export const PUSH_QUEUE = 'push.deliver';
/** Sends in flight at once for one job. */
const CONCURRENCY = 16;
/** Bytes of plaintext one aes128gcm record carries (4096 minus its overhead, as web-push allows): longer payloads are shortened. */
const MAX_PAYLOAD_BYTES = 3993;

export interface PushJob {
  notificationId: number;
  userIds: number[];
}

/** The inbox item as the notification module reads it for a delivery. */
type DeliveredItem = Awaited<ReturnType<typeof readDeliveredItems>>[number]['item'];

/** The payload: the inbox item, as GET /rest/user/notifications shows it (without read state). */
export type PushPayload = Omit<DeliveredItem, 'read' | 'received'> & { received: number };

/** The hook: one statement finds the recipients with subscriptions, one job is enqueued for them (none when there are none). */
export async function enqueuePushes({ em, services, notificationId, userIds }: HookEvents['notificationDelivered']): Promise<void> {
  if (userIds.length === 0) return;
  const rows = await subscribedUsers.run(em, { userIds: intArray(userIds) });
  if (rows.length === 0) return;
  const data: PushJob = { notificationId, userIds: rows.map((r) => r.userId) };
  await services.queue.send(em, PUSH_QUEUE, data, { key: String(notificationId) });
}

/** The job's data as sent by enqueuePushes (it comes back from the database: checked). */
export function parsePushJob(data: unknown): PushJob {
  const d = data as Partial<PushJob> | null;
  if (
    !d ||
    typeof d !== 'object' ||
    !Number.isSafeInteger(d.notificationId) ||
    !Array.isArray(d.userIds) ||
    !d.userIds.every((id) => Number.isSafeInteger(id))
  ) {
    throw new Error(`${PUSH_QUEUE}: malformed job data`);
  }
  return { notificationId: d.notificationId!, userIds: d.userIds };
}

/** The payload's JSON, shortened to fit one record: the message first, then the URL dropped. */
export function payloadJson(item: PushPayload): string {
  let json = JSON.stringify(item);
  if (Buffer.byteLength(json) <= MAX_PAYLOAD_BYTES) return json;
  const over = Buffer.byteLength(json) - MAX_PAYLOAD_BYTES;
  const chars = [...item.message];
  let message = item.message;
  while (chars.length && Buffer.byteLength(message) > Buffer.byteLength(item.message) - over) {
    chars.pop();
    message = chars.join('');
  }
  json = JSON.stringify({ ...item, message });
  return Buffer.byteLength(json) <= MAX_PAYLOAD_BYTES ? json : JSON.stringify({ ...item, message, url: null });
}

/** What one job did (tests and logs). */
export interface PushReport {
  sent: number;
  removed: number;
  failed: number;
}

/** Runs one push.deliver job with `sender`: sends, removes the gone subscriptions, throws when any other send failed. */
export async function deliverPushes(data: unknown, deps: Pick<JobDeps, 'orm' | 'logger'>, sender: PushSender): Promise<PushReport> {
  const job = parsePushJob(data);
  const nothing: PushReport = { sent: 0, removed: 0, failed: 0 };
  if (job.userIds.length === 0) return nothing;
  const em = deps.orm.em.fork();
  // The item as the inbox shows it (the notification module's read), for the users who hold it.
  const items = await readDeliveredItems(em, job.notificationId, job.userIds);
  if (items.length === 0) return nothing;
  const holders = items.flatMap((i) => i.owners);
  const rows = await subscriptionsOf.run(em, { userIds: intArray(holders) });
  if (rows.length === 0) return nothing;
  const { read: _read, received, ...fields } = items[0].item;
  const payload = payloadJson({ ...fields, received: received.getTime() });
  const { notificationId } = job;
  const topic = `n${notificationId}`;
  // Every send is tried: a failure is kept as its result, so the gone ones are removed whatever the others did.
  const results = await pMap(
    rows,
    (r) =>
      sender.send({ endpoint: r.endpoint, keys: { p256dh: r.p256dh, auth: r.auth } }, payload, topic).then(
        (value): PromiseSettledResult<PushOutcome> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<PushOutcome> => ({ status: 'rejected', reason }),
      ),
    { concurrency: CONCURRENCY },
  );
  const gone = rows.filter((_, k) => {
    const result = results[k];
    return result.status === 'fulfilled' && result.value === 'gone';
  });
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (gone.length) {
    await removeSubscriptions.run(em, { ids: intArray(gone.map((r) => r.subscriptionId)) });
  }
  const report = { sent: rows.length - gone.length - failures.length, removed: gone.length, failed: failures.length };
  if (failures.length) {
    const first = failures[0].reason as { statusCode?: number; message?: string } | null;
    deps.logger.warn(
      { notificationId, ...report, status: first?.statusCode, err: first?.message },
      'push sends failed; the job will retry',
    );
    throw new Error(`${PUSH_QUEUE}: ${failures.length} of ${rows.length} sends failed for notification ${notificationId}`);
  }
  return report;
}

/**
 * The sender the service uses: the configured (or generated) VAPID pair, the system's trusted
 * certificates, and (outside tests, whose push service is on loopback) public addresses only.
 */
export function defaultSender(deps: Pick<JobDeps, 'config' | 'logger'>): PushSender {
  return new PushSender({
    vapid: vapidKeys(deps.config, deps.logger),
    subject: deps.config.push.vapidSubject,
    ...(deps.config.nodeEnv === 'test' ? {} : { agent: sharedAgent() }),
  });
}

let agent: https.Agent | undefined;
/** One agent for every job, so push connections are kept alive between sends. */
const sharedAgent = () => (agent ??= publicOnlyAgent());

/** The queue handler, with the sender `senderOf` makes for each job (tests give one that trusts their loopback server). */
export function pushQueue(senderOf: (deps: JobDeps) => PushSender = defaultSender): QueueHandler {
  return {
    name: PUSH_QUEUE,
    handle: async (data, deps) => {
      await deliverPushes(data, deps, senderOf(deps));
    },
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
  };
}
