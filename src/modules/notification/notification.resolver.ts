import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError, invalidParameter } from '../../core/errors';
import { eventForNotifications, managesNotifications } from '../event';
import { rolesOn } from '../company';
import { BROADCAST_TYPES, type BroadcastType } from './notification.entity';
import { SendNotificationInput } from './notification.inputs';
import {
  SendNotificationResult,
  ScheduledNotificationView,
  SentListArgs,
  SentNotificationView,
  SentScheduledListArgs,
  toScheduledView,
  toSentView,
} from './notification.types';
import { DEFAULT_PAGE_SIZE, decodeCursor, readScheduledList, readSentList, type ListKind, type ListQuery } from './notification.lists';
import { sendNotification } from './notification.service';

/**
 * Which notifications the caller asks for, and whether they may: GE needs the event (unknown
 * or invisible: WSEventNotFoundException; cancelled: WSEventCancelledException), every other
 * type the company; reading needs ADMIN or PUSH_NOTIFICATION on that company (checked by the
 * list's own statement, except for GE where the event's check has done it). A page is
 * pageNum (from 1) of pageSize records; a keyset batch is the pageSize records after a cursor.
 * Called once per batch when REST streams a whole list: the caller, roles and event are
 * memoised by the request's context, so a batch costs only its own statement.
 */
async function listQuery(ctx: Context, args: SentListArgs, kind: ListKind): Promise<ListQuery> {
  const { user } = await ctx.auth.requireUser();
  if (args.version !== 1) throw new ServiceError('WSUnsupportedVersionException', 'Only version 1 is supported.', { field: 'version' });
  if (!BROADCAST_TYPES.includes(args.broadcastType as BroadcastType)) {
    throw invalidParameter('broadcastType', `broadcastType must be one of ${BROADCAST_TYPES.join(', ')}.`);
  }
  const type = args.broadcastType as BroadcastType;
  const page = args.pageNum ?? 1;
  if (page < 1) throw invalidParameter('pageNum', 'pageNum must be 1 or more.');
  // From 1 to MAX_PAGE_SIZE: the argument's rule (notification.types.ts).
  const limit = args.pageSize ?? DEFAULT_PAGE_SIZE;
  if (args.after != null && args.pageNum != null) throw invalidParameter('after', 'after and pageNum cannot be used together.');
  const after = args.after != null ? decodeCursor(kind, args.after) : null;
  if (args.notificationScheduleId != null && args.notificationScheduleId < 1) throw invalidParameter('notificationScheduleId');
  if (args.brochureId != null && args.brochureId < 1) throw invalidParameter('brochureId');
  const base = {
    type,
    notificationScheduleId: args.notificationScheduleId ?? null,
    brochureId: args.brochureId ?? null,
    limit,
    offset: (page - 1) * limit,
    after,
  };
  if (type === 'GE') {
    if (!args.eventUUID) throw invalidParameter('eventUUID', 'eventUUID is required for GE.');
    const event = await eventForNotifications(ctx, user.uId, args.eventUUID);
    if (args.companyId != null && args.companyId !== event.company.companyId) throw new ServiceError('WSEventNotFoundException');
    return { ...base, companyId: event.company.companyId, eventUUID: event.eventUUID, managerId: null };
  }
  if (args.companyId == null) throw invalidParameter('companyId', `companyId is required for ${type}.`);
  // GA without brochureId: every asset-level record of the company (the spec marks brochureId optional).
  // The list's statement checks the caller's roles (notification.lists.ts); readable() decides when it answers nothing.
  return { ...base, companyId: args.companyId, eventUUID: null, managerId: user.uId };
}

/**
 * The rows of a list whose statement checked the caller's roles: no rows is either an empty list
 * or a caller who may not read it, and only then the role loader tells which (one statement more).
 */
async function readable<T>(ctx: Context, q: ListQuery, rows: T[]): Promise<T[]> {
  if (rows.length === 0 && q.managerId !== null && !(await managesNotifications(ctx, q.managerId, q.companyId))) {
    throw new ServiceError('WSInsufficientPrivilegesException', "The caller may not see this company's notifications.");
  }
  return rows;
}

@Resolver()
@ServiceBoundary('WSNotificationServiceException')
export class NotificationResolver {
  @Mutation(() => SendNotificationResult, {
    description:
      'Sends a notification now, or schedules it for a local time in a time zone; the caller needs the push-notification role on the company (sendNotification).',
  })
  async sendNotification(
    @Ctx() ctx: Context,
    @Arg('input', () => SendNotificationInput, { description: 'The notification.' }) input: SendNotificationInput,
  ): Promise<SendNotificationResult> {
    const { user } = await ctx.auth.requireUser();
    const roles = await rolesOn(ctx, user.uId, input.companyId);
    if (!roles.includes('PUSH_NOTIFICATION')) {
      throw new ServiceError('WSInsufficientPrivilegesException', 'The caller lacks the push-notification role on this company.');
    }
    const outcome = await sendNotification(
      ctx.em,
      { ...input, senderId: user.uId },
      { mailer: ctx.services.mailer, logger: ctx.logger, now: () => ctx.services.clock.now(), services: ctx.services },
    );
    return {
      sentNotification: outcome.sent ? toSentView(outcome.sent) : null,
      scheduledNotification: outcome.scheduled ? toScheduledView(outcome.scheduled) : null,
    };
  }

  @Query(() => [SentNotificationView], {
    description: `Sent notifications, ad hoc and scheduled, newest first, ${DEFAULT_PAGE_SIZE} a page unless pageSize says otherwise; after a cursor for keyset batches (getSentNotifications).`,
  })
  async sentNotifications(@Ctx() ctx: Context, @Args(() => SentListArgs) args: SentListArgs): Promise<SentNotificationView[]> {
    const q = await listQuery(ctx, args, 'sent');
    return readable(ctx, q, await readSentList(ctx.em, q));
  }

  @Query(() => [ScheduledNotificationView], {
    description: `Scheduled notifications that have been processed (sent or failed), latest first, ${DEFAULT_PAGE_SIZE} a page unless pageSize says otherwise; after a cursor for keyset batches (getSentScheduledNotifications).`,
  })
  async sentScheduledNotifications(
    @Ctx() ctx: Context,
    @Args(() => SentScheduledListArgs) args: SentScheduledListArgs,
  ): Promise<ScheduledNotificationView[]> {
    const q = await listQuery(ctx, args, 'sched');
    return readable(ctx, q, await readScheduledList(ctx.em, q));
  }
}
