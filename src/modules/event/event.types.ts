// GraphQL views of events. `Event` is a federation entity keyed by eventUUID; `UserEvent` is the
// spec's "Event (as listed for a user)": the event's fields plus the caller's invitation.
// Both are filled from plain rows (event.reads.ts), never from entities.
import { Directive, Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType('EventFields', { description: 'Fields every view of an event has.', simpleResolvers: true })
export abstract class EventFields {
  @Field({ description: 'UUID of the event.' }) eventUUID!: string;

  @Field(() => Int, { description: 'Id of the event.' }) eId!: number;

  @Field(() => Int, { description: 'Id of the company whose wall holds the event.' }) cId!: number;

  @Field({ description: 'Name of that company.' }) cName!: string;

  @Field({ description: 'Name of the event.' }) eName!: string;

  @Field(() => String, { nullable: true, description: 'Description of the event.' }) eDescription!: string | null;

  @Field(() => String, { nullable: true, description: 'Venue or address line.' }) eAddress!: string | null;

  @Field(() => String, { nullable: true, description: 'Street.' }) eStreet!: string | null;

  @Field(() => String, { nullable: true, description: 'Suburb.' }) eSuburb!: string | null;

  @Field(() => String, { nullable: true, description: 'City.' }) eCity!: string | null;

  @Field(() => String, { nullable: true, description: 'Postcode.' }) ePostCode!: string | null;

  @Field(() => String, { nullable: true, description: 'Country.' }) eCountry!: string | null;

  @Field({ description: 'Status: A active, C cancelled.' }) eStatus!: string;

  @Field(() => String, { nullable: true, description: 'URL of the event image.' }) eImage!: string | null;

  @Field(() => String, { nullable: true, description: 'URL of the event flyer (PDF).' }) eFlyerPdf!: string | null;

  @Field(() => Float, { nullable: true, description: 'Latitude of the venue (decimal degrees).' }) eLatitude!: number | null;

  @Field(() => Float, { nullable: true, description: 'Longitude of the venue (decimal degrees).' }) eLongitude!: number | null;

  @Field({ description: 'IANA time zone of the event.' }) eTimezoneId!: string;

  @Field(() => Int, { description: "UTC offset of the event's zone at its start, in minutes." }) eGmtOffsetMinutes!: number;

  @Field({ description: 'Start instant (epoch milliseconds, UTC).' }) eUTCStartDateTime!: Date;

  @Field({ description: "Start wall-clock time in the event's zone, as epoch milliseconds read as if that wall clock were UTC." })
  eLocalStartDateTime!: Date;

  @Field({ description: 'End instant (epoch milliseconds, UTC).' }) eUTCEndDateTime!: Date;

  @Field({ description: "End wall-clock time in the event's zone, encoded like eLocalStartDateTime." }) eLocalEndDateTime!: Date;

  @Field({ description: 'Y when the end time has passed, else N.' }) eHasEnded!: string;

  @Field({ description: 'Y when the event is run by an external event provider, else N.' }) useExternalEventProvider!: string;

  @Field(() => Int, { description: 'Record version (2).' }) version!: number;
}

@ObjectType('Event', { description: 'An event on a company wall.', simpleResolvers: true })
@Directive('@key(fields: "eventUUID")')
export class EventView extends EventFields {}

@ObjectType('UserEvent', {
  description: "An event as listed for a user: the event and the user's invitation to it.",
  simpleResolvers: true,
})
export class UserEventView extends EventFields {
  @Field({ description: 'UUID of the invitation.' }) eventInviteUUID!: string;

  @Field(() => Int, { description: 'Id of the invitation (attendee record).' }) eAttendeeId!: number;

  @Field({ description: 'Invitation status: P pending, A accepted, D declined.' }) eAttendeeInviteStatus!: string;

  @Field({ description: 'Attendance: U unknown, Y attending, N not attending, M maybe.' }) eAttendeeAttendingStatus!: string;

  @Field(() => Int, { description: 'Invitations sent to the user for this event.' }) eAttendeeInvitesSent!: number;

  @Field(() => Int, { description: 'Reminders sent to the user for this event.' }) eAttendeeRemindersSent!: number;
}
