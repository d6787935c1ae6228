import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError, invalidParameter } from '../../core/errors';
import { isDependencyFailure } from '../../core/error-mapping';
import { EventView, UserEventView } from './event.types';
import { readUserEvents } from './event.reads';
import { canSeeEvent } from './event.access';
import { isUuid, parseUuid } from '../../core/uuid';
import { referenceViewer } from '../user';

/** docs/api/events.md ("Paging"): 20 events a page. */
export const EVENTS_PAGE_SIZE = 20;

@Resolver()
@ServiceBoundary('WSEventServiceException')
export class EventResolver {
  @Query(() => [UserEventView], {
    description: "The caller's invitations to active events on a company wall, 20 a page, by start time (findEventsForUserAndCompany).",
  })
  async userEvents(
    @Ctx() ctx: Context,
    @Arg('cId', () => Int, { description: 'Id of the company wall.' }) cId: number,
    @Arg('version', () => Int, { description: 'Response version; only 1 is supported.' }) version: number,
    @Arg('pageNum', () => Int, { nullable: true, description: 'Page number from 1 (default 1); a page past the end is empty.' })
    pageNum?: number | null,
  ): Promise<UserEventView[]> {
    const { user } = await ctx.auth.requireUser();
    if (version !== 1) throw new ServiceError('WSUnsupportedVersionException', 'Only version 1 is supported.', { field: 'version' });
    const page = pageNum ?? 1;
    if (page < 1) throw invalidParameter('pageNum', 'pageNum must be 1 or more.');
    if (cId < 1) throw invalidParameter('cId', 'cId must be a positive company id.');
    return readUserEvents(ctx.em, user.uId, cId, { limit: EVENTS_PAGE_SIZE, offset: (page - 1) * EVENTS_PAGE_SIZE });
  }

  @Query(() => EventView, {
    nullable: true,
    description: "An event the caller is invited to or manages (its company's admins and push senders); null otherwise.",
  })
  async event(@Ctx() ctx: Context, @Arg('eventUUID', { description: 'UUID of the event.' }) eventUUID: string): Promise<EventView | null> {
    const uuid = parseUuid(eventUUID, 'eventUUID');
    const { user } = await ctx.auth.requireUser();
    return visibleEvent(ctx, user.uId, uuid);
  }
}

/** The event when the user may see it (canSeeEvent: invited, or an ADMIN or PUSH_NOTIFICATION
 * of its company), else null; batched through the request's event loaders. */
async function visibleEvent(ctx: Context, userId: number, uuid: string): Promise<EventView | null> {
  const event = await ctx.loaders.eventsByUuid.load(uuid);
  return event && (await canSeeEvent(ctx, userId, event)) ? event : null;
}

/**
 * Federation: an Event reference, batched per request (events by uuid, the caller's roles and
 * invitations: three statements for any number of representations). Rule, as Query.event: a
 * user resolves an event they are invited to or whose company they manage (ADMIN or
 * PUSH_NOTIFICATION); the router's federation token resolves none (no root operation reads an
 * event without a user; forward the user's token); no credential is WSInvalidAuthTokenException.
 * Unknown, malformed and invisible uuids are null without an error.
 */
export async function resolveEventReference(ref: { eventUUID: string }, ctx: Context): Promise<EventView | null> {
  try {
    const viewer = await referenceViewer(ctx);
    if (viewer.kind !== 'user' || !isUuid(ref.eventUUID)) return null;
    return await visibleEvent(ctx, viewer.user.uId, ref.eventUUID.toLowerCase());
  } catch (err) {
    // Outside type-graphql, so ServiceBoundary does not apply: the same rule by hand.
    if (!(err instanceof ServiceError) && isDependencyFailure(err))
      throw new ServiceError('WSEventServiceException', undefined, { cause: err });
    throw err;
  }
}
