// GraphQL views of a user's inbox: one delivered notification with its read state, the arguments
// of the REST page (inboxNotifications) and of the cursor connection (User.notifications), and
// what marking read answers.
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { ConnectionArgs, MAX_FIRST } from '../../graphql/connection';
import { Rule } from '../../graphql/rules';
import { LIMITS } from './notification.limits';

/** Inbox items a REST page holds. */
export const INBOX_PAGE_SIZE = 50;
/** Ids one markNotificationsRead may name (WSLimitExceededException beyond): a connection page's worth. */
export const MAX_READ_IDS = MAX_FIRST;

@ObjectType('InboxNotification', {
  implements: Node,
  description: "A notification delivered to the user's inbox, with its read state (an item of getUserNotifications).",
  simpleResolvers: true,
})
export class InboxNotification {
  @Field(() => Int, {
    description: 'Id of the sent notification (as the sent lists name it); unique within one inbox. Pass it to markNotificationsRead.',
  })
  notificationId!: number;

  @Field({ description: 'Broadcast type: GT, GE, GA or JN.' }) type!: string;

  @Field(() => Int, { description: 'Company that sent it.' }) companyId!: number;

  @Field(() => String, { nullable: true, description: 'Event UUID (GE).' }) eventUUID!: string | null;

  @Field(() => Int, { nullable: true, description: 'Asset the notification is about (GA).' }) brochureId!: number | null;

  @Field({ description: `Message, truncated to ${LIMITS.sentMessage} characters.` }) message!: string;

  @Field(() => String, { nullable: true, description: 'Deeplink or URL sent with the notification.' }) url!: string | null;

  @Field({ description: 'Whether the user has marked it read.' }) read!: boolean;

  @Field({ description: 'When it reached the inbox (epoch milliseconds, UTC).' }) received!: Date;
}

/** The arguments of the REST inbox page (getUserNotifications). */
@ArgsType()
export class InboxListArgs {
  @Field(() => Int, { description: 'Only 1 is supported.' }) version!: number;

  @Field(() => Int, { nullable: true, description: `Page from 1 (default 1), ${INBOX_PAGE_SIZE} items a page.` }) pageNum?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Only the unread items (default false).' }) unreadOnly?: boolean | null;
}

/** The arguments of User.notifications: first/after, and the unread filter. */
@ArgsType()
export class InboxConnectionArgs extends ConnectionArgs {
  @Field(() => Boolean, { defaultValue: false, description: 'Only the unread items.' }) unreadOnly!: boolean;
}

@ArgsType()
export class MarkNotificationsReadArgs {
  @Field(() => [Int], { description: "Ids of notifications in the caller's inbox (notificationId)." })
  @Rule({ maxItems: MAX_READ_IDS })
  ids!: number[];
}

@ObjectType('NotificationsReadResult', { description: 'What marking notifications read changed.', simpleResolvers: true })
export class NotificationsReadResult {
  @Field(() => Int, { description: 'Inbox items that went from unread to read (already read ones keep their first read time).' })
  updated!: number;
}
