// What a notification request asks for, once each field has passed its own rules (declared on
// SendNotificationInput): the rules across fields (GE needs eventUUID, GA a brochureId, JN a
// job name, GT and GA team ids, a template its subject, a schedule both parts and a future
// time), parsing (URL, UUID, local time, zone) and duplicate e-mail parameter keys. Errors
// name the field at fault with WSInvalidParameterException.
import { invalidParameter } from '../../core/errors';
import { validateInput } from '../../graphql/rules';
import { isValidZone, localToUtc, parseLocalDateTime } from '../../core/zoned-time';
import { parseUuid } from '../../core/uuid';
import type { BroadcastType, EmailParam } from './notification.entity';
import { EmailParamInput, SendNotificationInput } from './notification.inputs';

/** What a caller (the resolver, or another module) asks for. */
export interface NotificationRequest {
  broadcastType: string;
  companyId: number;
  eventUUID?: string | null;
  brochureId?: number | null;
  valueIds?: string[] | null;
  message: string;
  url?: string | null;
  emailTemplate?: string | null;
  emailSubject?: string | null;
  emailParams?: EmailParam[] | null;
  scheduleLocalDateTime?: string | null;
  scheduleTimezoneId?: string | null;
  scheduleJobName?: string | null;
}

export interface ValidRequest {
  broadcastType: BroadcastType;
  companyId: number;
  eventUUID: string | null;
  brochureId: number | null;
  valueIds: string[];
  message: string;
  url: string | null;
  email: { template: string; subject: string; params: EmailParam[] } | null;
  schedule: { localDateTime: string; timezoneId: string; dueAt: Date } | null;
  jobName: string | null;
}

const present = (v: string | null | undefined): v is string => v !== undefined && v !== null && v !== '';

/**
 * Checks a request against the field rules declared on SendNotificationInput. GraphQL has done
 * so before the resolver ran; a module calling sendNotification with a plain object (the smart
 * library) has not, so every request passes here (a GraphQL one again, cheaply and in vain).
 */
function checkFieldRules(request: NotificationRequest): void {
  const input = Object.assign(new SendNotificationInput(), request, {
    emailParams: request.emailParams?.map((p) => Object.assign(new EmailParamInput(), p)) ?? request.emailParams,
  });
  validateInput(input);
}

/** A deeplink (app-scheme://...) or a normal URL: anything URL-shaped except script and data schemes. */
function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParameter('url', 'url must be an absolute URL or deeplink.');
  }
  if (['javascript:', 'data:', 'vbscript:', 'file:'].includes(parsed.protocol))
    throw invalidParameter('url', 'url must be an absolute URL or deeplink.');
}

/** Team ids are whole numbers; GT and GA need at least one. */
function checkValueIds(type: BroadcastType, ids: string[]): void {
  if (type === 'GT' || type === 'GA') {
    if (ids.length === 0) throw invalidParameter('valueIds', `valueIds must list the team ids for ${type}.`);
    if (ids.some((id) => !/^[1-9]\d{0,9}$/.test(id))) throw invalidParameter('valueIds', 'valueIds must be team ids of the company.');
  }
}

/** The request as the service sends it, once its fields and then the rules across them hold. */
export function interpretRequest(input: NotificationRequest, now: Date): ValidRequest {
  checkFieldRules(input);
  const type = input.broadcastType as BroadcastType;
  if (present(input.url)) checkUrl(input.url);

  let eventUUID: string | null = null;
  if (type === 'GE') {
    if (!present(input.eventUUID)) throw invalidParameter('eventUUID', 'eventUUID is required for GE.');
    eventUUID = parseUuid(input.eventUUID, 'eventUUID');
  } else if (present(input.eventUUID)) {
    throw invalidParameter('eventUUID', 'eventUUID is only used with GE.');
  }

  const brochureId = input.brochureId ?? null;
  if (type === 'GA' && brochureId === null) throw invalidParameter('brochureId', 'brochureId is required for GA.');

  const valueIds = input.valueIds ?? [];
  checkValueIds(type, valueIds);

  if (type === 'JN' && !present(input.scheduleJobName?.trim()))
    throw invalidParameter('scheduleJobName', 'scheduleJobName is required for JN.');

  return {
    broadcastType: type,
    companyId: input.companyId,
    eventUUID,
    brochureId,
    valueIds: [...new Set(valueIds)],
    message: input.message,
    url: present(input.url) ? input.url : null,
    email: emailOf(input),
    schedule: scheduleOf(input, now),
    jobName: present(input.scheduleJobName) ? input.scheduleJobName : null,
  };
}

function emailOf(input: NotificationRequest): ValidRequest['email'] {
  const params = input.emailParams ?? [];
  const keys = new Set<string>();
  for (const p of params) {
    if (keys.has(p.key)) throw invalidParameter('emailParams.key', `The e-mail parameter ${p.key} is given twice.`);
    keys.add(p.key);
  }
  if (!present(input.emailTemplate)) {
    if (present(input.emailSubject) || params.length)
      throw invalidParameter('emailTemplate', 'emailTemplate is required with emailSubject or emailParams.');
    return null;
  }
  if (!present(input.emailSubject?.trim())) throw invalidParameter('emailSubject', 'emailSubject is required with emailTemplate.');
  return { template: input.emailTemplate, subject: input.emailSubject, params: params.map((p) => ({ key: p.key, value: p.value })) };
}

function scheduleOf(input: NotificationRequest, now: Date): ValidRequest['schedule'] {
  const local = input.scheduleLocalDateTime;
  const zone = input.scheduleTimezoneId;
  if (!present(local) && !present(zone)) return null;
  if (!present(zone)) throw invalidParameter('scheduleTimezoneId', 'scheduleTimezoneId is required with scheduleLocalDateTime.');
  if (!present(local)) throw invalidParameter('scheduleLocalDateTime', 'scheduleLocalDateTime is required with scheduleTimezoneId.');
  if (!isValidZone(zone)) throw invalidParameter('scheduleTimezoneId', 'scheduleTimezoneId must be an IANA time zone.');
  const localDateTime = parseLocalDateTime(local);
  if (!localDateTime)
    throw invalidParameter('scheduleLocalDateTime', 'scheduleLocalDateTime must be a local date-time YYYY-MM-DDTHH:mm[:ss].');
  const dueAt = localToUtc(localDateTime, zone);
  if (dueAt.getTime() <= now.getTime()) throw invalidParameter('scheduleLocalDateTime', 'scheduleLocalDateTime must be in the future.');
  return { localDateTime, timezoneId: zone, dueAt };
}
