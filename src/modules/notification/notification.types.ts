// GraphQL views of the spec's notification records, with the spec's field names.
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { lengthNotes, Rule } from '../../graphql/rules';
import type { EmailParam, ScheduledNotification, SentNotification } from './notification.entity';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, cursorOfDate } from './notification.cursor';
import { LIMITS } from './notification.limits';

/** A record field's bound, in the words the input rules are described in. */
const atMost = lengthNotes(LIMITS);

const CURSOR_DESCRIPTION = 'Opaque keyset cursor of the record, to pass as `after`.';

/** The arguments of both sent lists (getSentNotifications, getSentScheduledNotifications). */
@ArgsType()
export class SentListArgs {
  @Field(() => Int, { description: 'Only 1 is supported.' }) version!: number;

  @Field({ description: 'GT, GE, GA or JN.' }) broadcastType!: string;

  @Field(() => Int, { nullable: true, description: 'Company (required unless broadcastType is GE).' }) companyId?: number | null;

  @Field(() => String, { nullable: true, description: 'Event (required for GE).' }) eventUUID?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only the notification sent from this scheduled record.' })
  notificationScheduleId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Only notifications about this asset (required for GA).' }) brochureId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Page from 1 (default 1).' }) pageNum?: number | null;

  @Field(() => Int, {
    nullable: true,
    defaultValue: DEFAULT_PAGE_SIZE,
    description: `Records a page or batch (default ${DEFAULT_PAGE_SIZE}).`,
  })
  @Rule({ min: 1, max: MAX_PAGE_SIZE })
  pageSize?: number | null;

  @Field(() => String, {
    nullable: true,
    description: "Only the records after the one with this cursor, in the list's order (keyset paging; not with pageNum).",
  })
  after?: string | null;
}

/** The scheduled list's arguments: the same, notificationScheduleId naming the record itself. */
@ArgsType()
export class SentScheduledListArgs extends SentListArgs {
  @Field(() => Int, { nullable: true, description: 'Only this scheduled record.' })
  override notificationScheduleId?: number | null;
}

// The views are plain objects whose fields are read as they are: simpleResolvers leaves them without
// type-graphql's per-field resolver (a middleware chain for every field of every record; no middleware
// or auth rule applies to them). Those calls took a tenth of a 500-record page's service CPU in a profile.
@ObjectType('EmailParam', { description: 'A parameter of the e-mail template.', simpleResolvers: true })
export class EmailParamView {
  @Field({ description: `Parameter name. ${atMost('emailParamKey')}` }) key!: string;

  @Field({ description: `Parameter value. ${atMost('emailParamValue')}` }) value!: string;
}

@ObjectType('SentNotification', { implements: Node, description: 'A sent notification, ad hoc or scheduled.', simpleResolvers: true })
export class SentNotificationView {
  @Field(() => Int, { description: 'Id of the sent notification.' }) notificationId!: number;

  @Field({ description: 'Broadcast type: GT, GE, GA or JN.' }) type!: string;

  @Field(() => Int, { description: 'Company that sent it.' }) companyId!: number;

  @Field(() => String, { nullable: true, description: 'Event UUID (GE).' }) eventUUID!: string | null;

  @Field(() => Int, { nullable: true, description: 'Scheduled record it came from; null for ad hoc notifications.' })
  notificationScheduleId!: number | null;

  @Field({ description: `Message truncated to ${LIMITS.sentMessage} characters.` }) message!: string;

  @Field(() => String, { nullable: true, description: 'Whole message; ad hoc team notifications end with a line listing their team ids.' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'Deeplink or URL sent with the notification.' }) url!: string | null;

  @Field({ description: 'True when every recipient was reached (push and e-mail).' }) successful!: boolean;

  @Field(() => Int, { description: 'Users who received the notification in their inbox.' }) totalNotificationsSent!: number;

  @Field(() => [String], { nullable: true, description: 'Team ids; only for scheduled notifications.' }) teamIds!: string[] | null;

  @Field({ description: 'Created (epoch milliseconds, UTC).' }) notificationCreated!: Date;

  @Field({ description: 'Last modified (epoch milliseconds, UTC).' }) notificationModified!: Date;

  @Field({ description: 'User id of the creator.' }) notificationCreatedBy!: string;

  @Field({ description: 'User id of the last modifier.' }) notificationModifiedBy!: string;

  @Field(() => Int, { nullable: true, description: 'Asset the notification is about; honours ALP-NUN and ALP-EUN.' })
  brochureId!: number | null;

  @Field(() => String, { nullable: true, description: 'E-mail template, when an e-mail went with it.' }) emailTemplate!: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail subject.' }) emailSubject!: string | null;

  @Field(() => [EmailParamView], { nullable: true, description: 'E-mail template parameters.' }) emailParams!: EmailParamView[] | null;

  @Field({ description: CURSOR_DESCRIPTION }) cursor!: string;
}

@ObjectType('ScheduledNotification', {
  implements: Node,
  description: 'A notification scheduled for a local time in a time zone (record version 3).',
  simpleResolvers: true,
})
export class ScheduledNotificationView {
  @Field(() => Int, { description: 'Id of the scheduled record.' }) notificationScheduleId!: number;

  @Field(() => Int, { description: 'Company that scheduled it.' }) companyId!: number;

  @Field({ description: 'Broadcast type: GT, GE, GA or JN.' }) broadcastType!: string;

  @Field(() => Int, { nullable: true, description: 'Company id when broadcastType is GT.' }) keyCompanyId!: number | null;

  @Field(() => String, { nullable: true, description: 'Event UUID when broadcastType is GE.' }) keyEventUUID!: string | null;

  @Field({ description: 'IANA time zone of the send time.' }) scheduleTimezoneId!: string;

  @Field({ description: 'Local send time in scheduleTimezoneId, YYYY-MM-DDTHH:mm:ss.' }) scheduleLocalDateTime!: string;

  @Field({ description: 'The instant the local send time falls on (epoch milliseconds, UTC).' }) scheduleUTCDateTime!: Date;

  @Field({ description: 'PENDING, PROCESSING, SENT or FAILED.' }) scheduleStatus!: string;

  @Field(() => String, { nullable: true, description: 'Name of the job that produced it (JN).' }) scheduleJobName!: string | null;

  @Field({ description: `Plain-text message. ${atMost('message')}` }) message!: string;

  @Field(() => String, { nullable: true, description: 'Deeplink or URL.' }) url!: string | null;

  @Field(() => [String], { description: 'Team ids (GT, GA) or other codes.' }) valueIds!: string[];

  @Field(() => Int, { nullable: true, description: 'Users reached; null until processed.' }) totalNotificationsSent!: number | null;

  @Field(() => String, { nullable: true, description: 'Success, or the error text when processing failed.' })
  notificationLog!: string | null;

  @Field({ description: 'Created (epoch milliseconds, UTC).' }) scheduleCreated!: Date;

  @Field({ description: 'Last modified (epoch milliseconds, UTC).' }) scheduleModified!: Date;

  @Field({ description: 'User id of the creator.' }) scheduleCreatedBy!: string;

  @Field({ description: 'User id of the last modifier.' }) scheduleModifiedBy!: string;

  @Field(() => Int, { nullable: true, description: 'Asset the notification is about; honours ALP-NUN and ALP-EUN.' })
  brochureId!: number | null;

  @Field(() => String, { nullable: true, description: 'E-mail template, when an e-mail goes with it.' }) emailTemplate!: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail subject.' }) emailSubject!: string | null;

  @Field(() => [EmailParamView], { nullable: true, description: 'E-mail template parameters.' }) emailParams!: EmailParamView[] | null;

  @Field(() => Int, { description: 'Record version (3).' }) version!: number;

  @Field({ description: CURSOR_DESCRIPTION }) cursor!: string;
}

@ObjectType('SendNotificationResult', { description: 'What sendNotification did: one of the two records is set.', simpleResolvers: true })
export class SendNotificationResult {
  @Field(() => SentNotificationView, { nullable: true, description: 'The sent record of an ad hoc notification.' })
  sentNotification!: SentNotificationView | null;

  @Field(() => ScheduledNotificationView, { nullable: true, description: 'The scheduled record of a scheduled notification.' })
  scheduledNotification!: ScheduledNotificationView | null;
}

const params = (p: EmailParam[] | null | undefined) => (p ? p.map((x) => ({ key: x.key, value: x.value })) : null);

export function toSentView(n: SentNotification): SentNotificationView {
  return {
    notificationId: n.notificationId,
    type: n.type,
    companyId: n.company.companyId,
    eventUUID: n.eventUUID ?? null,
    notificationScheduleId: n.schedule?.notificationScheduleId ?? null,
    message: n.message,
    description: n.description ?? null,
    url: n.url ?? null,
    successful: n.successful,
    totalNotificationsSent: n.totalNotificationsSent,
    teamIds: n.teamIds ?? null,
    notificationCreated: n.notificationCreated,
    notificationModified: n.notificationModified,
    notificationCreatedBy: n.notificationCreatedBy,
    notificationModifiedBy: n.notificationModifiedBy,
    brochureId: n.brochureId ?? null,
    emailTemplate: n.emailTemplate ?? null,
    emailSubject: n.emailSubject ?? null,
    emailParams: params(n.emailParams),
    cursor: cursorOfDate('sent', n.notificationCreated, n.notificationId),
  };
}

export function toScheduledView(s: ScheduledNotification): ScheduledNotificationView {
  return {
    notificationScheduleId: s.notificationScheduleId,
    companyId: s.company.companyId,
    broadcastType: s.broadcastType,
    keyCompanyId: s.keyCompanyId ?? null,
    keyEventUUID: s.keyEventUUID ?? null,
    scheduleTimezoneId: s.scheduleTimezoneId,
    // PostgreSQL answers `YYYY-MM-DD HH:mm:ss`; the wire form has the ISO `T`.
    scheduleLocalDateTime: s.scheduleLocalDateTime.replace(' ', 'T'),
    scheduleUTCDateTime: s.scheduleDueAt,
    scheduleStatus: s.status,
    scheduleJobName: s.scheduleJobName ?? null,
    message: s.message,
    url: s.url ?? null,
    valueIds: s.valueIds,
    totalNotificationsSent: s.totalNotificationsSent ?? null,
    notificationLog: s.notificationLog ?? null,
    scheduleCreated: s.scheduleCreated,
    scheduleModified: s.scheduleModified,
    scheduleCreatedBy: s.scheduleCreatedBy,
    scheduleModifiedBy: s.scheduleModifiedBy,
    brochureId: s.brochureId ?? null,
    emailTemplate: s.emailTemplate ?? null,
    emailSubject: s.emailSubject ?? null,
    emailParams: params(s.emailParams),
    version: s.version,
    cursor: cursorOfDate('sched', s.scheduleDueAt, s.notificationScheduleId),
  };
}
