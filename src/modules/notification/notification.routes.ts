import { intParam, strParam, type OpenApiParam, type RouteDef } from '../../rest/route';

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const int = { type: 'integer' };
const nint = { type: ['integer', 'null'] };
const ts = { type: 'integer', description: 'Epoch milliseconds (UTC).' };
const emailParams = { type: ['array', 'null'], items: { type: 'object', properties: { key: str, value: str }, required: ['key', 'value'] } };

const SENT_FIELDS = [
  'type', 'companyId', 'eventUUID', 'notificationScheduleId', 'message', 'description', 'successful', 'totalNotificationsSent', 'teamIds',
  'notificationCreated', 'notificationModified', 'notificationCreatedBy', 'notificationModifiedBy', 'brochureId', 'emailTemplate', 'emailSubject',
];
const SCHEDULED_FIELDS = [
  'notificationScheduleId', 'companyId', 'broadcastType', 'keyCompanyId', 'keyEventUUID', 'scheduleTimezoneId', 'scheduleLocalDateTime',
  'scheduleJobName', 'message', 'url', 'valueIds', 'totalNotificationsSent', 'notificationLog', 'scheduleCreated', 'scheduleModified',
  'scheduleCreatedBy', 'scheduleModifiedBy', 'brochureId', 'emailTemplate', 'emailSubject', 'version',
];
const SENT_SELECTION = `${SENT_FIELDS.join(' ')} emailParams { key value }`;
const SCHEDULED_SELECTION = `${SCHEDULED_FIELDS.join(' ')} emailParams { key value }`;

const SENT_SCHEMA = {
  type: 'object',
  required: [...SENT_FIELDS, 'emailParams'],
  properties: {
    type: { type: 'string', enum: ['GT', 'GE', 'GA', 'JN'] }, companyId: int, eventUUID: nstr, notificationScheduleId: nint,
    message: { type: 'string', maxLength: 255 }, description: { type: ['string', 'null'], maxLength: 2000 }, successful: { type: 'boolean' },
    totalNotificationsSent: int, teamIds: { type: ['array', 'null'], items: str }, notificationCreated: ts, notificationModified: ts,
    notificationCreatedBy: str, notificationModifiedBy: str, brochureId: nint, emailTemplate: nstr, emailSubject: nstr, emailParams,
  },
};
const SCHEDULED_SCHEMA = {
  type: 'object',
  required: [...SCHEDULED_FIELDS, 'emailParams'],
  properties: {
    notificationScheduleId: int, companyId: int, broadcastType: { type: 'string', enum: ['GT', 'GE', 'GA', 'JN'] }, keyCompanyId: nint,
    keyEventUUID: nstr, scheduleTimezoneId: str, scheduleLocalDateTime: { type: 'string', description: 'Local time YYYY-MM-DDTHH:mm:ss in scheduleTimezoneId.' },
    scheduleJobName: nstr, message: { type: 'string', maxLength: 1000 }, url: nstr, valueIds: { type: 'array', items: str },
    totalNotificationsSent: nint, notificationLog: nstr, scheduleCreated: ts, scheduleModified: ts, scheduleCreatedBy: str,
    scheduleModifiedBy: str, brochureId: nint, emailTemplate: nstr, emailSubject: nstr, emailParams, version: int,
  },
};

const LIST_PARAMS: OpenApiParam[] = [
  { name: 'version', in: 'query', required: true, description: 'Only 1 is supported.', schema: { type: 'integer', enum: [1] } },
  { name: 'broadcastType', in: 'query', required: true, description: 'GT, GE, GA or JN.', schema: { type: 'string', enum: ['GT', 'GE', 'GA', 'JN'] } },
  { name: 'companyId', in: 'query', required: false, description: 'Company; required unless broadcastType is GE.', schema: int },
  { name: 'eventUUID', in: 'query', required: false, description: 'Event; required for GE.', schema: { type: 'string', format: 'uuid' } },
  { name: 'notificationScheduleId', in: 'query', required: false, description: 'Only this scheduled record (a single record).', schema: int },
  { name: 'brochureId', in: 'query', required: false, description: 'Only notifications about this asset; required for GA.', schema: int },
  { name: 'pageNum', in: 'query', required: false, description: 'Page from 1 (default 1), 50 a page.', schema: { type: 'integer', minimum: 1 } },
];

const LIST_ERRORS = [
  'WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSInvalidAuthTokenException', 'WSInsufficientPrivilegesException',
  'WSEventCancelledException', 'WSEventNotFoundException', 'WSNotificationServiceException',
];

const LIST_VARS = `$version: Int!, $broadcastType: String!, $companyId: Int, $eventUUID: String, $notificationScheduleId: Int, $brochureId: Int, $pageNum: Int`;
const LIST_ARGS = `version: $version, broadcastType: $broadcastType, companyId: $companyId, eventUUID: $eventUUID, notificationScheduleId: $notificationScheduleId, brochureId: $brochureId, pageNum: $pageNum`;

const listVariables: RouteDef['variables'] = (req) => ({
  version: intParam(req.query.version),
  broadcastType: strParam(req.query.broadcastType),
  companyId: intParam(req.query.companyId),
  eventUUID: strParam(req.query.eventUUID),
  notificationScheduleId: intParam(req.query.notificationScheduleId),
  brochureId: intParam(req.query.brochureId),
  pageNum: intParam(req.query.pageNum),
});

export const notificationRoutes: RouteDef[] = [
  {
    operation: 'sendNotification',
    method: 'POST',
    path: '/rest/notification/send',
    credential: 'user',
    document: `mutation sendNotification($input: SendNotificationInput!) {
      sendNotification(input: $input) {
        sentNotification { ${SENT_SELECTION} }
        scheduledNotification { ${SCHEDULED_SELECTION} }
      }
    }`,
    variables: (req) => ({ input: req.body }),
    result: (data) => data.sendNotification,
    openapi: {
      summary: 'Send a notification now, or schedule it for a local time in a time zone.',
      description: 'Needs the PUSH_NOTIFICATION role on companyId. Ad hoc: answers sentNotification; with scheduleLocalDateTime and scheduleTimezoneId: answers scheduledNotification.',
      tags: ['Notifications'],
      requestBody: {
        type: 'object',
        required: ['broadcastType', 'companyId', 'message'],
        properties: {
          broadcastType: { type: 'string', enum: ['GT', 'GE', 'GA', 'JN'] }, companyId: int, eventUUID: { type: 'string', format: 'uuid' },
          brochureId: int, valueIds: { type: 'array', items: str, maxItems: 50 }, message: { type: 'string', maxLength: 1000 },
          url: { type: 'string', maxLength: 1024 }, emailTemplate: { type: 'string', maxLength: 100 }, emailSubject: { type: 'string', maxLength: 256 },
          emailParams: { type: 'array', maxItems: 50, items: { type: 'object', properties: { key: { type: 'string', maxLength: 100 }, value: { type: 'string', maxLength: 2000 } }, required: ['key', 'value'] } },
          scheduleLocalDateTime: { type: 'string', description: 'YYYY-MM-DDTHH:mm[:ss], local to scheduleTimezoneId.' },
          scheduleTimezoneId: { type: 'string', maxLength: 40 }, scheduleJobName: { type: 'string', maxLength: 100 },
        },
      },
      response: {
        type: 'object',
        required: ['sentNotification', 'scheduledNotification'],
        properties: { sentNotification: { oneOf: [SENT_SCHEMA, { type: 'null' }] }, scheduledNotification: { oneOf: [SCHEDULED_SCHEMA, { type: 'null' }] } },
      },
      errors: [
        'WSInvalidParameterException', 'WSFieldLengthException', 'WSLimitExceededException', 'WSInvalidAuthTokenException',
        'WSInsufficientPrivilegesException', 'WSEventNotFoundException', 'WSEventCancelledException', 'WSNotificationServiceException',
      ],
    },
  },
  {
    operation: 'getSentNotifications',
    method: 'GET',
    path: '/rest/notification/sent',
    credential: 'user',
    document: `query getSentNotifications(${LIST_VARS}) { sentNotifications(${LIST_ARGS}) { ${SENT_SELECTION} } }`,
    variables: listVariables,
    result: (data) => data.sentNotifications,
    openapi: {
      summary: 'List sent notifications, ad hoc and scheduled (17).',
      tags: ['Notifications'],
      parameters: LIST_PARAMS,
      response: { type: 'array', items: SENT_SCHEMA },
      errors: LIST_ERRORS,
    },
  },
  {
    operation: 'getSentScheduledNotifications',
    method: 'GET',
    path: '/rest/notification/scheduled/sent',
    credential: 'user',
    document: `query getSentScheduledNotifications(${LIST_VARS}) { sentScheduledNotifications(${LIST_ARGS}) { ${SCHEDULED_SELECTION} } }`,
    variables: listVariables,
    result: (data) => data.sentScheduledNotifications,
    openapi: {
      summary: 'List processed scheduled notification records (16).',
      tags: ['Notifications'],
      parameters: LIST_PARAMS,
      response: { type: 'array', items: SCHEDULED_SCHEMA },
      errors: LIST_ERRORS,
    },
  },
];
