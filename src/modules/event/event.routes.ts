import { route, type RouteDef } from '../../rest/route';

export const USER_EVENT_FIELDS = [
  'eventInviteUUID',
  'eventUUID',
  'eId',
  'cId',
  'eAttendeeId',
  'cName',
  'eName',
  'eDescription',
  'eAddress',
  'eStreet',
  'eSuburb',
  'eCity',
  'ePostCode',
  'eCountry',
  'eStatus',
  'eImage',
  'eFlyerPdf',
  'eLatitude',
  'eLongitude',
  'eTimezoneId',
  'eGmtOffsetMinutes',
  'eUTCStartDateTime',
  'eLocalStartDateTime',
  'eUTCEndDateTime',
  'eLocalEndDateTime',
  'eHasEnded',
  'eAttendeeInviteStatus',
  'eAttendeeAttendingStatus',
  'eAttendeeInvitesSent',
  'eAttendeeRemindersSent',
  'useExternalEventProvider',
  'version',
];

export const eventRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/mi/:cId/events',
    credential: 'user',
    document: `query findEventsForUserAndCompany($cId: Int!, $version: Int!, $pageNum: Int) {
      userEvents(cId: $cId, version: $version, pageNum: $pageNum) { ${USER_EVENT_FIELDS.join(' ')} }
    }`,
    errors: [
      'WSInvalidParameterException',
      'WSUnsupportedVersionException',
      'WSInvalidAuthTokenException',
      'WSEventServiceException',
      'WSInternalException',
    ],
  }),
];
