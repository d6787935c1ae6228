// Notification records of the spec (scheduled, version 3; sent), the per-user inbox that
// delivery writes, and the asset-level preferences delivery honours.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Index, Enum } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, t, type Opt, type Rel } from '@mikro-orm/core';
import { Company } from '../company';
import { User } from '../user';
import { LIMITS } from './notification.limits';

/** GT team push, GE event invitees, GA asset level (brochureId), JN job notification. */
export type BroadcastType = 'GT' | 'GE' | 'GA' | 'JN';
export const BROADCAST_TYPES: BroadcastType[] = ['GT', 'GE', 'GA', 'JN'];

export interface EmailParam {
  key: string;
  value: string;
}

/**
 * PENDING: waiting for its time; PROCESSING: claimed by one instance until claimedUntil;
 * SENT: delivered; FAILED: processed, nothing could be delivered (notificationLog says why).
 */
export type ScheduleStatus = 'PENDING' | 'PROCESSING' | 'SENT' | 'FAILED';

@Entity({ tableName: 'scheduled_notification' })
@Index({ properties: ['status', 'scheduleDueAt'] })
// The sent list of a company (endpoint 16) in its order, for keyset batches; its company prefix
// also serves the company foreign key.
@Index({
  name: 'scheduled_notification_company_list_index',
  columns: [
    { name: 'company' },
    { name: 'broadcastType' },
    { name: 'scheduleDueAt', sort: 'desc' },
    { name: 'notificationScheduleId', sort: 'desc' },
  ],
})
export class ScheduledNotification {
  [PrimaryKeyProp]?: 'notificationScheduleId';

  @PrimaryKey() notificationScheduleId!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Property({ length: 2 }) broadcastType!: BroadcastType;

  @Property({ type: t.integer, nullable: true }) keyCompanyId?: number | null;

  @Property({ fieldName: 'key_event_uuid', type: 'uuid', nullable: true }) keyEventUUID?: string | null;

  @Property({ length: LIMITS.scheduleTimezoneId }) scheduleTimezoneId!: string;

  /** Wall-clock send time in scheduleTimezoneId, `YYYY-MM-DDTHH:mm:ss` (a PostgreSQL timestamp without zone). */
  @Property({ type: t.string, columnType: 'timestamp(0)' }) scheduleLocalDateTime!: string;

  /** The instant scheduleLocalDateTime occurs in its zone: what the scheduler compares with its clock. */
  @Property({ type: 'datetime' }) scheduleDueAt!: Date;

  @Property({ length: LIMITS.scheduleJobName, nullable: true }) scheduleJobName?: string | null;

  @Property({ length: LIMITS.message }) message!: string;

  @Property({ length: LIMITS.url, nullable: true }) url?: string | null;

  @Property({ type: 'text[]' }) valueIds!: string[];

  @Property({ type: t.integer, nullable: true }) totalNotificationsSent?: number | null;

  @Property({ length: LIMITS.notificationLog, nullable: true }) notificationLog?: string | null;

  @Enum({ items: ['PENDING', 'PROCESSING', 'SENT', 'FAILED'], nativeEnumName: undefined, default: 'PENDING' })
  status: ScheduleStatus & Opt = 'PENDING';

  /** The claim of the instance processing it; a claim that outlives claimedUntil may be taken over. */
  @Property({ type: 'uuid', nullable: true }) claimToken?: string | null;

  @Property({ type: 'datetime', nullable: true }) claimedUntil?: Date | null;

  @Property({ default: 0 }) attempts: number & Opt = 0;

  @Property({ type: 'datetime' }) scheduleCreated!: Date;

  @Property({ type: 'datetime' }) scheduleModified!: Date;

  @Property({ length: LIMITS.userId }) scheduleCreatedBy!: string;

  @Property({ length: LIMITS.userId }) scheduleModifiedBy!: string;

  @Property({ type: t.integer, nullable: true }) brochureId?: number | null;

  @Property({ length: LIMITS.emailTemplate, nullable: true }) emailTemplate?: string | null;

  @Property({ length: LIMITS.emailSubject, nullable: true }) emailSubject?: string | null;

  @Property({ type: 'json', nullable: true }) emailParams?: EmailParam[] | null;

  @Property({ default: 3 }) version: number & Opt = 3;
}

@Entity({ tableName: 'sent_notification' })
// The sent lists (endpoint 17) in their order, for keyset batches: a company's, and an event's (GE).
@Index({
  name: 'sent_notification_company_list_index',
  columns: [{ name: 'company' }, { name: 'type' }, { name: 'notificationCreated', sort: 'desc' }, { name: 'notificationId', sort: 'desc' }],
})
@Index({
  name: 'sent_notification_event_list_index',
  columns: [{ name: 'eventUUID' }, { name: 'notificationCreated', sort: 'desc' }, { name: 'notificationId', sort: 'desc' }],
})
export class SentNotification {
  [PrimaryKeyProp]?: 'notificationId';

  @PrimaryKey() notificationId!: number;

  @Property({ length: 2 }) type!: BroadcastType;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Property({ fieldName: 'event_uuid', type: 'uuid', nullable: true }) eventUUID?: string | null;

  /** Unique: a scheduled record is delivered at most once, whatever the scheduler does. */
  @ManyToOne(() => ScheduledNotification, { fieldName: 'notification_schedule_id', nullable: true, unique: true, deleteRule: 'set null' })
  schedule?: Rel<ScheduledNotification> | null;

  /** The message truncated to LIMITS.sentMessage characters. */
  @Property({ length: LIMITS.sentMessage }) message!: string;

  /** The whole message; ad hoc team notifications add their team ids on a last line. */
  @Property({ length: LIMITS.description, nullable: true }) description?: string | null;

  @Property({ length: LIMITS.url, nullable: true }) url?: string | null;

  @Property() successful!: boolean;

  @Property() totalNotificationsSent!: number;

  /** Only for scheduled notifications (the spec's rule); ad hoc ones keep them in description. */
  @Property({ type: 'text[]', nullable: true }) teamIds?: string[] | null;

  @Property({ length: LIMITS.notificationLog, nullable: true }) notificationLog?: string | null;

  @Property({ type: 'datetime' }) notificationCreated!: Date;

  @Property({ type: 'datetime' }) notificationModified!: Date;

  @Property({ length: LIMITS.userId }) notificationCreatedBy!: string;

  @Property({ length: LIMITS.userId }) notificationModifiedBy!: string;

  @Property({ type: t.integer, nullable: true }) brochureId?: number | null;

  @Property({ length: LIMITS.emailTemplate, nullable: true }) emailTemplate?: string | null;

  @Property({ length: LIMITS.emailSubject, nullable: true }) emailSubject?: string | null;

  @Property({ type: 'json', nullable: true }) emailParams?: EmailParam[] | null;
}

/** A notification delivered to a user (their push inbox). */
@Entity({ tableName: 'notification_inbox' })
@Unique({ properties: ['notification', 'user'] })
@Index({ properties: ['user', 'deliveredAt'] })
export class NotificationInbox {
  @PrimaryKey() id!: number;

  @ManyToOne(() => SentNotification, { fieldName: 'notification_id', deleteRule: 'cascade' }) notification!: Rel<SentNotification>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @Property({ type: 'datetime' }) deliveredAt!: Date;

  @Property({ type: 'datetime', nullable: true }) readAt?: Date | null;
}

/** PENDING: the e-mail job has not sent it yet; SENT: the SMTP server accepted it; FAILED: refused, or given up. */
export type EmailStatus = 'PENDING' | 'SENT' | 'FAILED';

/**
 * One e-mail of a notification to one recipient: the outbox row written with the inbox rows, and
 * the record of what the e-mail job sent (one per recipient and notification: the primary key).
 */
@Entity({ tableName: 'notification_email' })
export class NotificationEmail {
  [PrimaryKeyProp]?: ['notification', 'user'];

  @ManyToOne(() => SentNotification, { fieldName: 'notification_id', primary: true, deleteRule: 'cascade' })
  notification!: Rel<SentNotification>;

  @ManyToOne(() => User, { fieldName: 'user_id', primary: true, deleteRule: 'cascade' }) user!: Rel<User>;

  @Enum({ items: ['PENDING', 'SENT', 'FAILED'], nativeEnumName: undefined, default: 'PENDING' })
  status: EmailStatus & Opt = 'PENDING';

  /** Transport code and SMTP status of the last failure (never the address). */
  @Property({ length: 100, nullable: true }) error?: string | null;

  @Property({ type: 'datetime', nullable: true }) sentAt?: Date | null;
}

/** ALP-NUN: no push notifications about the asset; ALP-EUN: no e-mails about it. */
export type AssetPreferenceCode = 'ALP-NUN' | 'ALP-EUN';

/** A user's unsubscribe from notifications (or e-mails) about one asset (brochureId). */
@Entity({ tableName: 'asset_level_preference' })
@Unique({ properties: ['user', 'brochureId', 'code'] })
export class AssetLevelPreference {
  @PrimaryKey() id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @Property() brochureId!: number;

  @Enum({ items: ['ALP-NUN', 'ALP-EUN'], nativeEnumName: undefined }) code!: AssetPreferenceCode;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
