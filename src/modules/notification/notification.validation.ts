// Field rules of a notification request, checked before anything is stored: lengths are
// WSFieldLengthException, missing or malformed values WSInvalidParameterException, too many
// items WSLimitExceededException; each names the field at fault.
import { ServiceError, fieldTooLong, invalidParameter } from '../../graphql/errors';
import { isValidZone, localToUtc, parseLocalDateTime } from '../scheduler/zoned-time';
import { parseUuid } from '../event/event.access';
import { BROADCAST_TYPES, type BroadcastType, type EmailParam } from './notification.entity';

export const LIMITS = {
  message: 1000,
  sentMessage: 255,
  url: 1024,
  description: 2000,
  notificationLog: 2000,
  emailTemplate: 100,
  emailSubject: 256,
  emailParamKey: 100,
  emailParamValue: 2000,
  emailParams: 50,
  scheduleTimezoneId: 40,
  scheduleJobName: 100,
  valueIds: 50,
  valueId: 50,
} as const;

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

function maxLength(field: string, value: string | null | undefined, max: number): void {
  if (value !== undefined && value !== null && value.length > max) throw fieldTooLong(field, max);
}

/** A deeplink (app-scheme://...) or a normal URL: anything URL-shaped except script and data schemes. */
function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParameter('url', 'url must be an absolute URL or deeplink.');
  }
  if (['javascript:', 'data:', 'vbscript:', 'file:'].includes(parsed.protocol)) throw invalidParameter('url', 'url must be an absolute URL or deeplink.');
}

/** Team ids are whole numbers; GT and GA need at least one. */
function checkValueIds(type: BroadcastType, ids: string[]): void {
  if (ids.length > LIMITS.valueIds) throw new ServiceError('WSLimitExceededException', `valueIds holds at most ${LIMITS.valueIds} values.`, { field: 'valueIds' });
  for (const id of ids) maxLength('valueIds', id, LIMITS.valueId);
  if (type === 'GT' || type === 'GA') {
    if (ids.length === 0) throw invalidParameter('valueIds', `valueIds must list the team ids for ${type}.`);
    if (ids.some((id) => !/^[1-9]\d{0,9}$/.test(id))) throw invalidParameter('valueIds', 'valueIds must be team ids of the company.');
  }
}

export function validateRequest(input: NotificationRequest, now: Date): ValidRequest {
  if (!BROADCAST_TYPES.includes(input.broadcastType as BroadcastType)) {
    throw invalidParameter('broadcastType', `broadcastType must be one of ${BROADCAST_TYPES.join(', ')}.`);
  }
  const type = input.broadcastType as BroadcastType;
  if (!Number.isInteger(input.companyId) || input.companyId < 1) throw invalidParameter('companyId', 'companyId must be a positive company id.');

  maxLength('message', input.message, LIMITS.message);
  if (!present(input.message?.trim())) throw invalidParameter('message', 'message is required.');
  maxLength('url', input.url, LIMITS.url);
  if (present(input.url)) checkUrl(input.url);

  let eventUUID: string | null = null;
  if (type === 'GE') {
    if (!present(input.eventUUID)) throw invalidParameter('eventUUID', 'eventUUID is required for GE.');
    eventUUID = parseUuid(input.eventUUID, 'eventUUID');
  } else if (present(input.eventUUID)) {
    throw invalidParameter('eventUUID', 'eventUUID is only used with GE.');
  }

  const brochureId = input.brochureId ?? null;
  if (brochureId !== null && brochureId < 1) throw invalidParameter('brochureId', 'brochureId must be a positive id.');
  if (type === 'GA' && brochureId === null) throw invalidParameter('brochureId', 'brochureId is required for GA.');

  const valueIds = input.valueIds ?? [];
  checkValueIds(type, valueIds);

  maxLength('scheduleJobName', input.scheduleJobName, LIMITS.scheduleJobName);
  if (type === 'JN' && !present(input.scheduleJobName?.trim())) throw invalidParameter('scheduleJobName', 'scheduleJobName is required for JN.');

  return {
    broadcastType: type,
    companyId: input.companyId,
    eventUUID,
    brochureId,
    valueIds: [...new Set(valueIds)],
    message: input.message,
    url: present(input.url) ? input.url : null,
    email: validateEmail(input),
    schedule: validateSchedule(input, now),
    jobName: present(input.scheduleJobName) ? input.scheduleJobName : null,
  };
}

function validateEmail(input: NotificationRequest): ValidRequest['email'] {
  maxLength('emailTemplate', input.emailTemplate, LIMITS.emailTemplate);
  maxLength('emailSubject', input.emailSubject, LIMITS.emailSubject);
  const params = input.emailParams ?? [];
  if (params.length > LIMITS.emailParams) throw new ServiceError('WSLimitExceededException', `emailParams holds at most ${LIMITS.emailParams} parameters.`, { field: 'emailParams' });
  const keys = new Set<string>();
  for (const p of params) {
    maxLength('emailParams.key', p.key, LIMITS.emailParamKey);
    maxLength('emailParams.value', p.value, LIMITS.emailParamValue);
    if (!present(p.key?.trim())) throw invalidParameter('emailParams.key', 'Every e-mail parameter needs a key.');
    if (keys.has(p.key)) throw invalidParameter('emailParams.key', `The e-mail parameter ${p.key} is given twice.`);
    keys.add(p.key);
  }
  if (!present(input.emailTemplate)) {
    if (present(input.emailSubject) || params.length) throw invalidParameter('emailTemplate', 'emailTemplate is required with emailSubject or emailParams.');
    return null;
  }
  if (!present(input.emailSubject?.trim())) throw invalidParameter('emailSubject', 'emailSubject is required with emailTemplate.');
  return { template: input.emailTemplate, subject: input.emailSubject, params: params.map((p) => ({ key: p.key, value: p.value })) };
}

function validateSchedule(input: NotificationRequest, now: Date): ValidRequest['schedule'] {
  const local = input.scheduleLocalDateTime;
  const zone = input.scheduleTimezoneId;
  maxLength('scheduleTimezoneId', zone, LIMITS.scheduleTimezoneId);
  if (!present(local) && !present(zone)) return null;
  if (!present(zone)) throw invalidParameter('scheduleTimezoneId', 'scheduleTimezoneId is required with scheduleLocalDateTime.');
  if (!present(local)) throw invalidParameter('scheduleLocalDateTime', 'scheduleLocalDateTime is required with scheduleTimezoneId.');
  if (!isValidZone(zone)) throw invalidParameter('scheduleTimezoneId', 'scheduleTimezoneId must be an IANA time zone.');
  const localDateTime = parseLocalDateTime(local);
  if (!localDateTime) throw invalidParameter('scheduleLocalDateTime', 'scheduleLocalDateTime must be a local date-time YYYY-MM-DDTHH:mm[:ss].');
  const dueAt = localToUtc(localDateTime, zone);
  if (dueAt.getTime() <= now.getTime()) throw invalidParameter('scheduleLocalDateTime', 'scheduleLocalDateTime must be in the future.');
  return { localDateTime, timezoneId: zone, dueAt };
}
