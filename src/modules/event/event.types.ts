// GraphQL views of events. `Event` is a federation entity keyed by eventUUID; `UserEvent` is the
// spec's "Event (as listed for a user)": the event's fields plus the caller's invitation.
// Both are filled from plain rows (event.reads.ts), never from entities. A field that shows a
// column says which (ColumnOf, event.columns.ts): the reads select it from that alone.
import { Directive, Field, Float, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { ColumnOf } from './event.columns';
import { Event, EventAttendee } from './event.entity';

@ObjectType('EventFields', { description: 'Fields every view of an event has.', simpleResolvers: true })
export abstract class EventFields {
  @ColumnOf(Event, 'eventUUID')
  @Field({ description: 'UUID of the event.' })
  eventUUID!: string;

  @ColumnOf(Event, 'eId')
  @Field(() => Int, { description: 'Id of the event.' })
  eId!: number;

  @ColumnOf(Event, 'company')
  @Field(() => Int, { description: 'Id of the company whose wall holds the event.' })
  cId!: number;

  @Field({ description: 'Name of that company.' }) cName!: string;

  @ColumnOf(Event, 'name')
  @Field({ description: 'Name of the event.' })
  eName!: string;

  @ColumnOf(Event, 'description')
  @Field(() => String, { nullable: true, description: 'Description of the event.' })
  eDescription!: string | null;

  @ColumnOf(Event, 'address')
  @Field(() => String, { nullable: true, description: 'Venue or address line.' })
  eAddress!: string | null;

  @ColumnOf(Event, 'street')
  @Field(() => String, { nullable: true, description: 'Street.' })
  eStreet!: string | null;

  @ColumnOf(Event, 'suburb')
  @Field(() => String, { nullable: true, description: 'Suburb.' })
  eSuburb!: string | null;

  @ColumnOf(Event, 'city')
  @Field(() => String, { nullable: true, description: 'City.' })
  eCity!: string | null;

  @ColumnOf(Event, 'postCode')
  @Field(() => String, { nullable: true, description: 'Postcode.' })
  ePostCode!: string | null;

  @ColumnOf(Event, 'country')
  @Field(() => String, { nullable: true, description: 'Country.' })
  eCountry!: string | null;

  @ColumnOf(Event, 'status')
  @Field({ description: 'Status: A active, C cancelled.' })
  eStatus!: string;

  @ColumnOf(Event, 'imageUrl')
  @Field(() => String, { nullable: true, description: 'URL of the event image.' })
  eImage!: string | null;

  @ColumnOf(Event, 'flyerPdfUrl')
  @Field(() => String, { nullable: true, description: 'URL of the event flyer (PDF).' })
  eFlyerPdf!: string | null;

  @ColumnOf(Event, 'latitude')
  @Field(() => Float, { nullable: true, description: 'Latitude of the venue (decimal degrees).' })
  eLatitude!: number | null;

  @ColumnOf(Event, 'longitude')
  @Field(() => Float, { nullable: true, description: 'Longitude of the venue (decimal degrees).' })
  eLongitude!: number | null;

  @ColumnOf(Event, 'timezoneId')
  @Field({ description: 'IANA time zone of the event.' })
  eTimezoneId!: string;

  @Field(() => Int, { description: "UTC offset of the event's zone at its start, in minutes." }) eGmtOffsetMinutes!: number;

  @ColumnOf(Event, 'utcStart')
  @Field({ description: 'Start instant (epoch milliseconds, UTC).' })
  eUTCStartDateTime!: Date;

  @Field({ description: "Start wall-clock time in the event's zone, as epoch milliseconds read as if that wall clock were UTC." })
  eLocalStartDateTime!: Date;

  @ColumnOf(Event, 'utcEnd')
  @Field({ description: 'End instant (epoch milliseconds, UTC).' })
  eUTCEndDateTime!: Date;

  @Field({ description: "End wall-clock time in the event's zone, encoded like eLocalStartDateTime." }) eLocalEndDateTime!: Date;

  @Field({ description: 'Y when the end time has passed, else N.' }) eHasEnded!: string;

  @ColumnOf(Event, 'useExternalEventProvider')
  @Field({ description: 'Y when the event is run by an external event provider, else N.' })
  useExternalEventProvider!: string;

  @ColumnOf(Event, 'version')
  @Field(() => Int, { description: 'Record version (2).' })
  version!: number;
}

@ObjectType('Event', { implements: Node, description: 'An event on a company wall.', simpleResolvers: true })
@Directive('@key(fields: "eventUUID")')
export class EventView extends EventFields {}

@ObjectType('UserEvent', {
  implements: Node,
  description: "An event as listed for a user: the event and the user's invitation to it.",
  simpleResolvers: true,
})
export class UserEventView extends EventFields {
  @ColumnOf(EventAttendee, 'inviteUUID')
  @Field({ description: 'UUID of the invitation.' })
  eventInviteUUID!: string;

  @ColumnOf(EventAttendee, 'attendeeId')
  @Field(() => Int, { description: 'Id of the invitation (attendee record).' })
  eAttendeeId!: number;

  @ColumnOf(EventAttendee, 'inviteStatus')
  @Field({ description: 'Invitation status: P pending, A accepted, D declined.' })
  eAttendeeInviteStatus!: string;

  @ColumnOf(EventAttendee, 'attendingStatus')
  @Field({ description: 'Attendance: U unknown, Y attending, N not attending, M maybe.' })
  eAttendeeAttendingStatus!: string;

  @ColumnOf(EventAttendee, 'invitesSent')
  @Field(() => Int, { description: 'Invitations sent to the user for this event.' })
  eAttendeeInvitesSent!: number;

  @ColumnOf(EventAttendee, 'remindersSent')
  @Field(() => Int, { description: 'Reminders sent to the user for this event.' })
  eAttendeeRemindersSent!: number;
}
