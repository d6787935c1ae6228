import { intParam, type RouteDef } from '../../rest/route';

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const int = { type: 'integer' };
const ts = { type: 'integer', description: 'Epoch milliseconds.' };
const yn = { type: 'string', enum: ['Y', 'N'] };

export const USER_EVENT_FIELDS = [
  'eventInviteUUID', 'eventUUID', 'eId', 'cId', 'eAttendeeId', 'cName', 'eName', 'eDescription', 'eAddress', 'eStreet', 'eSuburb',
  'eCity', 'ePostCode', 'eCountry', 'eStatus', 'eImage', 'eFlyerPdf', 'eLatitude', 'eLongitude', 'eTimezoneId', 'eGmtOffsetMinutes',
  'eUTCStartDateTime', 'eLocalStartDateTime', 'eUTCEndDateTime', 'eLocalEndDateTime', 'eHasEnded', 'eAttendeeInviteStatus',
  'eAttendeeAttendingStatus', 'eAttendeeInvitesSent', 'eAttendeeRemindersSent', 'useExternalEventProvider', 'version',
];

const USER_EVENT_SCHEMA = {
  type: 'object',
  required: USER_EVENT_FIELDS,
  properties: {
    eventInviteUUID: str, eventUUID: str, eId: int, cId: int, eAttendeeId: int, cName: str, eName: str,
    eDescription: nstr, eAddress: nstr, eStreet: nstr, eSuburb: nstr, eCity: nstr, ePostCode: nstr, eCountry: nstr,
    eStatus: { type: 'string', enum: ['A'] }, eImage: nstr, eFlyerPdf: nstr,
    eLatitude: { type: ['number', 'null'] }, eLongitude: { type: ['number', 'null'] },
    eTimezoneId: str, eGmtOffsetMinutes: int,
    eUTCStartDateTime: ts, eLocalStartDateTime: { ...ts, description: 'Wall-clock time in the event zone, as epoch milliseconds read as UTC.' },
    eUTCEndDateTime: ts, eLocalEndDateTime: { ...ts, description: 'Wall-clock time in the event zone, as epoch milliseconds read as UTC.' },
    eHasEnded: yn, eAttendeeInviteStatus: { type: 'string', enum: ['P', 'A', 'D'] },
    eAttendeeAttendingStatus: { type: 'string', enum: ['U', 'Y', 'N', 'M'] },
    eAttendeeInvitesSent: int, eAttendeeRemindersSent: int, useExternalEventProvider: yn, version: int,
  },
};

export const eventRoutes: RouteDef[] = [
  {
    operation: 'findEventsForUserAndCompany',
    method: 'GET',
    path: '/rest/user/mi/:cId/events',
    credential: 'user',
    document: `query findEventsForUserAndCompany($cId: Int!, $version: Int!, $pageNum: Int) {
      userEvents(cId: $cId, version: $version, pageNum: $pageNum) { ${USER_EVENT_FIELDS.join(' ')} }
    }`,
    variables: (req) => ({ cId: intParam(req.params.cId), version: intParam(req.query.version), pageNum: intParam(req.query.pageNum) }),
    result: (data) => data.userEvents,
    openapi: {
      summary: "List the caller's events on a company wall, 20 a page by start time (18).",
      tags: ['Events'],
      parameters: [
        { name: 'cId', in: 'path', required: true, description: 'Company id of the wall.', schema: int },
        { name: 'version', in: 'query', required: true, description: 'Only 1 is supported.', schema: { type: 'integer', enum: [1] } },
        { name: 'pageNum', in: 'query', required: false, description: 'Page from 1 (default 1); past the end: [].', schema: { type: 'integer', minimum: 1 } },
      ],
      response: { type: 'array', items: USER_EVENT_SCHEMA },
      errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSInvalidAuthTokenException', 'WSEventServiceException', 'WSInternalException'],
    },
  },
];
