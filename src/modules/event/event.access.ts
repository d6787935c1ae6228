// Who may see what of an event: its company's admins and push-notification senders manage it
// (and read its notifications); an invitee sees the event itself; anyone else learns nothing,
// so an event they may not see answers like an unknown one (404).
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { parseUuid } from '../../core/uuid';
import { rolesOn } from '../company';
import type { EventStatus } from './event.entity';
import type { EventView } from './event.types';
import { pairKey } from '../../core/loaders';

/** The roles that manage a company's notifications (send them, read its sent lists); the notification lists' SQL checks the same. */
export const NOTIFICATION_MANAGER_ROLES = ['ADMIN', 'PUSH_NOTIFICATION'] as const;

/** ADMIN or PUSH_NOTIFICATION on the company: may read its sent notifications. */
export async function managesNotifications(ctx: Context, userId: number, companyId: number): Promise<boolean> {
  const roles = await rolesOn(ctx, userId, companyId);
  return NOTIFICATION_MANAGER_ROLES.some((role) => roles.includes(role));
}

export async function canSeeEvent(ctx: Context, userId: number, event: Pick<EventView, 'cId' | 'eId'>): Promise<boolean> {
  if (await managesNotifications(ctx, userId, event.cId)) return true;
  return ctx.loaders.eventInvites.load(pairKey(userId, event.eId));
}

/** What the notification module reads of an event, named as on the Event entity (eventForNotifications' answer). */
export interface NotifiedEvent {
  eId: number;
  eventUUID: string;
  status: EventStatus;
  company: { companyId: number };
}

/**
 * The event whose notifications the caller wants to read: unknown or invisible is
 * WSEventNotFoundException, cancelled is WSEventCancelledException, visible to an invitee who
 * does not manage the company's notifications is WSInsufficientPrivilegesException.
 */
export async function eventForNotifications(ctx: Context, userId: number, eventUUID: string): Promise<NotifiedEvent> {
  const event = await ctx.loaders.eventsByUuid.load(parseUuid(eventUUID, 'eventUUID'));
  if (!event || !(await canSeeEvent(ctx, userId, event))) throw new ServiceError('WSEventNotFoundException');
  if (event.eStatus === 'C') throw new ServiceError('WSEventCancelledException');
  if (!(await managesNotifications(ctx, userId, event.cId)))
    throw new ServiceError('WSInsufficientPrivilegesException', "The caller may not see or send this event's notifications.");
  return { eId: event.eId, eventUUID: event.eventUUID, status: event.eStatus as EventStatus, company: { companyId: event.cId } };
}
