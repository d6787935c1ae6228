import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'A parameter of the e-mail template.' })
export class EmailParamInput {
  @Field({ description: 'Parameter name (at most 100 characters).' })
  key!: string;

  @Field({ description: 'Parameter value (at most 2000 characters).' })
  value!: string;
}

@InputType({ description: 'A notification to send now, or at a local time in a time zone when scheduleLocalDateTime and scheduleTimezoneId are given.' })
export class SendNotificationInput {
  @Field({ description: 'GT (teams in valueIds), GE (invitees of eventUUID), GA (teams in valueIds, about brochureId) or JN (job notification to every team member of the company).' })
  broadcastType!: string;

  @Field(() => Int, { description: 'Company sending it; the caller needs its push-notification role.' })
  companyId!: number;

  @Field(() => String, { nullable: true, description: 'Event whose invitees receive it (required for GE).' })
  eventUUID?: string | null;

  @Field(() => Int, { nullable: true, description: 'Asset it is about (required for GA); honours ALP-NUN and ALP-EUN.' })
  brochureId?: number | null;

  @Field(() => [String], { nullable: true, description: 'Team ids of the company (required for GT and GA), or codes such as product codes for other types.' })
  valueIds?: string[] | null;

  @Field({ description: 'Plain-text message, 1 to 1000 characters.' })
  message!: string;

  @Field(() => String, { nullable: true, description: 'Deeplink or http(s) URL (at most 1024 characters).' })
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail template: an e-mail goes with the notification when set (at most 100 characters).' })
  emailTemplate?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail subject, required with emailTemplate (at most 256 characters).' })
  emailSubject?: string | null;

  @Field(() => [EmailParamInput], { nullable: true, description: 'E-mail template parameters; {{key}} in the message and subject is replaced by the value.' })
  emailParams?: EmailParamInput[] | null;

  @Field(() => String, { nullable: true, description: 'Local send time YYYY-MM-DDTHH:mm[:ss] in scheduleTimezoneId; schedules the notification.' })
  scheduleLocalDateTime?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone of scheduleLocalDateTime (at most 40 characters).' })
  scheduleTimezoneId?: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the configured job that produced it (required for JN, at most 100 characters).' })
  scheduleJobName?: string | null;
}
