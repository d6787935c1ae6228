// The caller's inbox: the REST page (inboxNotifications), marking read, and the User fields
// (notifications, a cursor connection, and unreadNotificationCount). An inbox is read and changed
// only by its owner: every operation works on the caller's own rows, and on any other User (a
// federation reference resolved with the router's token) the fields are refused, as the other
// personal edges of User are (requireOwnUser).
import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError, invalidParameter } from '../../core/errors';
import { asksTotal, connectionType, type ConnectionPage } from '../../graphql/connection';
import { requireOwnUser, UserProfile } from '../user';
import {
  INBOX_PAGE_SIZE,
  InboxConnectionArgs,
  InboxListArgs,
  InboxNotification,
  MarkNotificationsReadArgs,
  NotificationsReadResult,
} from './inbox.types';
import { inboxPageRequest, markAllRead, markRead, readInboxPage } from './inbox.reads';
import { inboxPagesKey } from './inbox.loaders';

const InboxConnection = connectionType(InboxNotification, 'InboxNotification', 'inbox notification');

@Resolver()
@ServiceBoundary('WSNotificationServiceException')
export class InboxResolver {
  @Query(() => [InboxNotification], {
    description: `The caller's inbox, newest first, ${INBOX_PAGE_SIZE} a page (getUserNotifications). Clients that page through it should prefer User.notifications (cursor paging).`,
  })
  async inboxNotifications(@Ctx() ctx: Context, @Args(() => InboxListArgs) args: InboxListArgs): Promise<InboxNotification[]> {
    const { user } = await ctx.auth.requireUser();
    if (args.version !== 1) throw new ServiceError('WSUnsupportedVersionException', 'Only version 1 is supported.', { field: 'version' });
    const page = args.pageNum ?? 1;
    if (page < 1) throw invalidParameter('pageNum', 'pageNum must be 1 or more.');
    return readInboxPage(ctx.em, user.uId, args.unreadOnly ?? false, INBOX_PAGE_SIZE, (page - 1) * INBOX_PAGE_SIZE);
  }

  @Mutation(() => NotificationsReadResult, {
    description:
      "Marks one notification of the caller's inbox read (markNotificationRead): updated is 1, or 0 when it was read already (it keeps its first read time). Unknown or another user's: WSNotificationNotFoundException.",
  })
  async markNotificationRead(
    @Ctx() ctx: Context,
    @Arg('notificationId', () => Int, { description: "Id of the notification in the caller's inbox (notificationId of an item)." })
    notificationId: number,
  ): Promise<NotificationsReadResult> {
    return this.mark(ctx, [notificationId]);
  }

  @Mutation(() => NotificationsReadResult, {
    description:
      "Marks notifications of the caller's inbox read. Every id must be in the caller's inbox, otherwise nothing changes (WSNotificationNotFoundException); ones read already keep their first read time.",
  })
  async markNotificationsRead(
    @Ctx() ctx: Context,
    @Args(() => MarkNotificationsReadArgs) args: MarkNotificationsReadArgs,
  ): Promise<NotificationsReadResult> {
    return this.mark(ctx, args.ids);
  }

  private async mark(ctx: Context, ids: number[]): Promise<NotificationsReadResult> {
    const { user } = await ctx.auth.requireUser();
    const updated = await markRead(ctx.em, user.uId, ids, ctx.services.clock.now());
    ctx.loaders.unreadNotificationCounts.clear(user.uId);
    return { updated };
  }

  @Mutation(() => NotificationsReadResult, {
    description: "Marks every unread notification of the caller's inbox read (markAllNotificationsRead).",
  })
  async markAllNotificationsRead(@Ctx() ctx: Context): Promise<NotificationsReadResult> {
    const { user } = await ctx.auth.requireUser();
    const updated = await markAllRead(ctx.em, user.uId, ctx.services.clock.now());
    ctx.loaders.unreadNotificationCounts.clear(user.uId);
    return { updated };
  }
}

@Resolver(() => UserProfile)
@ServiceBoundary('WSNotificationServiceException')
export class UserInboxResolver {
  @FieldResolver(() => InboxConnection, {
    description:
      "The user's inbox, newest first (the order of getUserNotifications), paged by cursor. Only the user themselves: on any other user " +
      '(a federation reference resolved with the router token) the field is refused with WSInsufficientPrivilegesException.',
  })
  async notifications(
    @Root() user: UserProfile,
    @Ctx() ctx: Context,
    @Args(() => InboxConnectionArgs) args: InboxConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionPage<InboxNotification>> {
    const uId = await requireOwnUser(ctx, user, 'notifications');
    const request = inboxPageRequest(args);
    return ctx.loaders.inboxPages(inboxPagesKey(args.unreadOnly, request)).load({ parent: uId, counted: asksTotal(info) });
  }

  @FieldResolver(() => Int, {
    description: "Unread notifications in the user's inbox. Only the user themselves, as for notifications.",
  })
  async unreadNotificationCount(@Root() user: UserProfile, @Ctx() ctx: Context): Promise<number> {
    const uId = await requireOwnUser(ctx, user, 'notifications');
    return ctx.loaders.unreadNotificationCounts.load(uId);
  }
}
