// Input of sendNotification. Each field carries its own rules (@Rule), enforced before the
// resolver runs and added to its description; the bounds are the records' (notification.limits.ts).
// Rules across fields (GE needs eventUUID, a template needs a subject, a schedule needs both
// parts, ...) are the request's (notification.request.ts).
import { Field, InputType, Int } from 'type-graphql';
import { Rule } from '../../graphql/rules';
import { BROADCAST_TYPES } from './notification.entity';
import { LIMITS } from './notification.limits';

@InputType({ description: 'A parameter of the e-mail template.' })
export class EmailParamInput {
  @Field({ description: 'Parameter name, unique among the parameters.' })
  @Rule({ required: true, maxLength: LIMITS.emailParamKey, field: 'emailParams.key' })
  key!: string;

  @Field({ description: 'Parameter value.' }) @Rule({ maxLength: LIMITS.emailParamValue, field: 'emailParams.value' }) value!: string;
}

@InputType({
  description: 'A notification to send now, or at a local time in a time zone when scheduleLocalDateTime and scheduleTimezoneId are given.',
})
export class SendNotificationInput {
  @Field({
    description:
      'GT (teams in valueIds), GE (invitees of eventUUID), GA (teams in valueIds, about brochureId) or JN (job notification to every team member of the company).',
  })
  @Rule({ required: true, oneOf: BROADCAST_TYPES })
  broadcastType!: string;

  @Field(() => Int, { description: 'Company sending it; the caller needs its push-notification role.' })
  @Rule({ min: 1 })
  companyId!: number;

  @Field(() => String, { nullable: true, description: 'Event whose invitees receive it (required for GE, only for GE).' })
  eventUUID?: string | null;

  @Field(() => Int, { nullable: true, description: 'Asset it is about (required for GA); honours ALP-NUN and ALP-EUN.' })
  @Rule({ min: 1 })
  brochureId?: number | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Team ids of the company (required for GT and GA), or codes such as product codes for other types.',
  })
  @Rule({ maxItems: LIMITS.valueIds, maxLength: LIMITS.valueId })
  valueIds?: string[] | null;

  @Field({ description: 'Plain-text message.' }) @Rule({ required: true, maxLength: LIMITS.message }) message!: string;

  @Field(() => String, { nullable: true, description: 'Deeplink or http(s) URL.' }) @Rule({ maxLength: LIMITS.url }) url?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail template: an e-mail goes with the notification when set.' })
  @Rule({ maxLength: LIMITS.emailTemplate })
  emailTemplate?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail subject, required with emailTemplate.' })
  @Rule({ maxLength: LIMITS.emailSubject })
  emailSubject?: string | null;

  @Field(() => [EmailParamInput], {
    nullable: true,
    description: 'E-mail template parameters; {{key}} in the message and subject is replaced by the value.',
  })
  @Rule({ maxItems: LIMITS.emailParams })
  emailParams?: EmailParamInput[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Local send time YYYY-MM-DDTHH:mm[:ss] in scheduleTimezoneId, in the future; schedules the notification.',
  })
  scheduleLocalDateTime?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone of scheduleLocalDateTime.' })
  @Rule({ maxLength: LIMITS.scheduleTimezoneId })
  scheduleTimezoneId?: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the configured job that produced it (required for JN).' })
  @Rule({ maxLength: LIMITS.scheduleJobName })
  scheduleJobName?: string | null;
}
