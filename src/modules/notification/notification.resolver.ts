import { Arg, Ctx, Int, Mutation, Query, Resolver, UseMiddleware } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError, invalidParameter } from '../../graphql/errors';
import { requireUser } from '../identity/principal';
import { eventForNotifications, managesNotifications, rolesOn } from '../event/event.access';
import { BROADCAST_TYPES, ScheduledNotification, SentNotification, type BroadcastType } from './notification.entity';
import { SendNotificationInput } from './notification.inputs';
import { SendNotificationResult, ScheduledNotificationView, SentNotificationView, toScheduledView, toSentView } from './notification.types';
import { sendNotification } from './notification.service';
// Loading the resolver registers the smart library notifier (see notification.library.ts).
import './notification.library';

/** Sent lists are paged so that a long history never comes back in one answer. */
export const SENT_PAGE_SIZE = 50;

interface ListArgs {
  version: number;
  broadcastType: string;
  companyId?: number | null;
  eventUUID?: string | null;
  notificationScheduleId?: number | null;
  brochureId?: number | null;
  pageNum?: number | null;
}

interface Scope {
  type: BroadcastType;
  companyId: number;
  eventUUID: string | null;
  notificationScheduleId: number | null;
  brochureId: number | null;
  offset: number;
}

/**
 * Which notifications the caller asks for, and whether they may: GE needs the event (unknown
 * or invisible: WSEventNotFoundException; cancelled: WSEventCancelledException), every other
 * type the company; reading needs ADMIN or PUSH_NOTIFICATION on that company.
 */
async function listScope(ctx: Context, args: ListArgs): Promise<Scope> {
  const { user } = await requireUser(ctx);
  if (args.version !== 1) throw new ServiceError('WSUnsupportedVersionException', 'Only version 1 is supported.', { field: 'version' });
  if (!BROADCAST_TYPES.includes(args.broadcastType as BroadcastType)) {
    throw invalidParameter('broadcastType', `broadcastType must be one of ${BROADCAST_TYPES.join(', ')}.`);
  }
  const type = args.broadcastType as BroadcastType;
  const page = args.pageNum ?? 1;
  if (page < 1) throw invalidParameter('pageNum', 'pageNum must be 1 or more.');
  if (args.notificationScheduleId != null && args.notificationScheduleId < 1) throw invalidParameter('notificationScheduleId');
  if (args.brochureId != null && args.brochureId < 1) throw invalidParameter('brochureId');
  const base = { type, notificationScheduleId: args.notificationScheduleId ?? null, brochureId: args.brochureId ?? null, offset: (page - 1) * SENT_PAGE_SIZE };
  if (type === 'GE') {
    if (!args.eventUUID) throw invalidParameter('eventUUID', 'eventUUID is required for GE.');
    const event = await eventForNotifications(ctx, user.uId, args.eventUUID);
    if (args.companyId != null && args.companyId !== event.company.companyId) throw new ServiceError('WSEventNotFoundException');
    return { ...base, companyId: event.company.companyId, eventUUID: event.eventUUID };
  }
  if (args.companyId == null) throw invalidParameter('companyId', `companyId is required for ${type}.`);
  if (type === 'GA' && base.brochureId === null) throw invalidParameter('brochureId', 'brochureId is required for GA.');
  if (!(await managesNotifications(ctx, user.uId, args.companyId))) {
    throw new ServiceError('WSInsufficientPrivilegesException', "The caller may not see this company's notifications.");
  }
  return { ...base, companyId: args.companyId, eventUUID: null };
}

function listArgs(
  version: number,
  broadcastType: string,
  companyId?: number | null,
  eventUUID?: string | null,
  notificationScheduleId?: number | null,
  brochureId?: number | null,
  pageNum?: number | null,
): ListArgs {
  return { version, broadcastType, companyId, eventUUID, notificationScheduleId, brochureId, pageNum };
}

@Resolver()
@UseMiddleware(ServiceBoundary('WSNotificationServiceException'))
export class NotificationResolver {
  @Mutation(() => SendNotificationResult, {
    description: 'Sends a notification now, or schedules it for a local time in a time zone; the caller needs the push-notification role on the company (sendNotification).',
  })
  async sendNotification(
    @Ctx() ctx: Context,
    @Arg('input', () => SendNotificationInput, { description: 'The notification.' }) input: SendNotificationInput,
  ): Promise<SendNotificationResult> {
    const { user } = await requireUser(ctx);
    const roles = await rolesOn(ctx, user.uId, input.companyId);
    if (!roles.includes('PUSH_NOTIFICATION')) {
      throw new ServiceError('WSInsufficientPrivilegesException', 'The caller lacks the push-notification role on this company.');
    }
    const outcome = await sendNotification(ctx.em, { ...input, senderId: user.uId }, { config: ctx.config, logger: ctx.logger });
    return {
      sentNotification: outcome.sent ? toSentView(outcome.sent) : null,
      scheduledNotification: outcome.scheduled ? toScheduledView(outcome.scheduled) : null,
    };
  }

  @Query(() => [SentNotificationView], { description: 'Sent notifications, ad hoc and scheduled, newest first, 50 a page (getSentNotifications).' })
  async sentNotifications(
    @Ctx() ctx: Context,
    @Arg('version', () => Int, { description: 'Only 1 is supported.' }) version: number,
    @Arg('broadcastType', { description: 'GT, GE, GA or JN.' }) broadcastType: string,
    @Arg('companyId', () => Int, { nullable: true, description: 'Company (required unless broadcastType is GE).' }) companyId?: number | null,
    @Arg('eventUUID', () => String, { nullable: true, description: 'Event (required for GE).' }) eventUUID?: string | null,
    @Arg('notificationScheduleId', () => Int, { nullable: true, description: 'Only the notification sent from this scheduled record.' }) notificationScheduleId?: number | null,
    @Arg('brochureId', () => Int, { nullable: true, description: 'Only notifications about this asset (required for GA).' }) brochureId?: number | null,
    @Arg('pageNum', () => Int, { nullable: true, description: 'Page from 1 (default 1).' }) pageNum?: number | null,
  ): Promise<SentNotificationView[]> {
    const s = await listScope(ctx, listArgs(version, broadcastType, companyId, eventUUID, notificationScheduleId, brochureId, pageNum));
    const rows = await ctx.em.find(
      SentNotification,
      {
        type: s.type,
        company: s.companyId,
        ...(s.eventUUID ? { eventUUID: s.eventUUID } : {}),
        ...(s.notificationScheduleId ? { schedule: s.notificationScheduleId } : {}),
        ...(s.brochureId ? { brochureId: s.brochureId } : {}),
      },
      { orderBy: { notificationCreated: 'desc', notificationId: 'desc' }, limit: SENT_PAGE_SIZE, offset: s.offset },
    );
    return rows.map(toSentView);
  }

  @Query(() => [ScheduledNotificationView], { description: 'Scheduled notifications that have been processed (sent or failed), latest first, 50 a page (getSentScheduledNotifications).' })
  async sentScheduledNotifications(
    @Ctx() ctx: Context,
    @Arg('version', () => Int, { description: 'Only 1 is supported.' }) version: number,
    @Arg('broadcastType', { description: 'GT, GE, GA or JN.' }) broadcastType: string,
    @Arg('companyId', () => Int, { nullable: true, description: 'Company (required unless broadcastType is GE).' }) companyId?: number | null,
    @Arg('eventUUID', () => String, { nullable: true, description: 'Event (required for GE).' }) eventUUID?: string | null,
    @Arg('notificationScheduleId', () => Int, { nullable: true, description: 'Only this scheduled record.' }) notificationScheduleId?: number | null,
    @Arg('brochureId', () => Int, { nullable: true, description: 'Only notifications about this asset (required for GA).' }) brochureId?: number | null,
    @Arg('pageNum', () => Int, { nullable: true, description: 'Page from 1 (default 1).' }) pageNum?: number | null,
  ): Promise<ScheduledNotificationView[]> {
    const s = await listScope(ctx, listArgs(version, broadcastType, companyId, eventUUID, notificationScheduleId, brochureId, pageNum));
    const rows = await ctx.em.find(
      ScheduledNotification,
      {
        broadcastType: s.type,
        company: s.companyId,
        status: { $in: ['SENT', 'FAILED'] },
        ...(s.eventUUID ? { keyEventUUID: s.eventUUID } : {}),
        ...(s.notificationScheduleId ? { notificationScheduleId: s.notificationScheduleId } : {}),
        ...(s.brochureId ? { brochureId: s.brochureId } : {}),
      },
      { orderBy: { scheduleDueAt: 'desc', notificationScheduleId: 'desc' }, limit: SENT_PAGE_SIZE, offset: s.offset },
    );
    return rows.map(toScheduledView);
  }
}
