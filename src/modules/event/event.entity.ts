// Events of a company wall and their invitations. An event is stored as UTC instants plus its
// IANA zone: local times and the GMT offset are derived on read, so they stay right if tzdata
// changes a zone's rules.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Index } from '@mikro-orm/decorators/legacy';
import { DecimalType, PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { Company } from '../company';
import { User } from '../user';

/** A: active (listed); C: cancelled (not listed; notifications for it are refused with WSEventCancelledException). */
export type EventStatus = 'A' | 'C';

@Entity({ tableName: 'event' })
// A company's events in page order (event.reads.ts EVENT_ORDER): a page reads its rows and stops.
@Index({ properties: ['company', 'utcStart', 'eId'] })
export class Event {
  [PrimaryKeyProp]?: 'eId';

  @PrimaryKey({ fieldName: 'e_id' }) eId!: number;

  @Property({ fieldName: 'event_uuid', type: 'uuid', unique: true }) eventUUID!: string;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Property({ length: 255 }) name!: string;

  @Property({ length: 4000, nullable: true }) description?: string | null;

  @Property({ length: 255, nullable: true }) address?: string | null;

  @Property({ length: 255, nullable: true }) street?: string | null;

  @Property({ length: 100, nullable: true }) suburb?: string | null;

  @Property({ length: 100, nullable: true }) city?: string | null;

  @Property({ length: 20, nullable: true }) postCode?: string | null;

  @Property({ length: 100, nullable: true }) country?: string | null;

  @Property({ length: 1, default: 'A' }) status: EventStatus & Opt = 'A';

  @Property({ length: 1024, nullable: true }) imageUrl?: string | null;

  @Property({ length: 1024, nullable: true }) flyerPdfUrl?: string | null;

  @Property({ type: new DecimalType('number'), precision: 9, scale: 6, nullable: true }) latitude?: number | null;

  @Property({ type: new DecimalType('number'), precision: 9, scale: 6, nullable: true }) longitude?: number | null;

  /** IANA zone the event takes place in. */
  @Property({ length: 64 }) timezoneId!: string;

  @Property({ type: 'datetime' }) utcStart!: Date;

  @Property({ type: 'datetime' }) utcEnd!: Date;

  @Property({ default: false }) useExternalEventProvider: boolean & Opt = false;

  /** Record version; 2 is the current shape. */
  @Property({ default: 2 }) version: number & Opt = 2;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** P: pending, A: accepted, D: declined. */
export type InviteStatus = 'P' | 'A' | 'D';
/** U: unknown, Y: attending, N: not attending, M: maybe. */
export type AttendingStatus = 'U' | 'Y' | 'N' | 'M';

/** A user's invitation to an event (eAttendeeId, eventInviteUUID). */
@Entity({ tableName: 'event_attendee' })
@Unique({ properties: ['event', 'user'] })
export class EventAttendee {
  [PrimaryKeyProp]?: 'attendeeId';

  @PrimaryKey() attendeeId!: number;

  @Property({ fieldName: 'invite_uuid', type: 'uuid', unique: true }) inviteUUID!: string;

  @ManyToOne(() => Event, { fieldName: 'event_id', deleteRule: 'cascade' }) event!: Rel<Event>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade', index: true }) user!: Rel<User>;

  @Property({ length: 1, default: 'P' }) inviteStatus: InviteStatus & Opt = 'P';

  @Property({ length: 1, default: 'U' }) attendingStatus: AttendingStatus & Opt = 'U';

  @Property({ default: 0 }) invitesSent: number & Opt = 0;

  @Property({ default: 0 }) remindersSent: number & Opt = 0;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
