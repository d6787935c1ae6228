import { CARA, createCompany, createEvent, DEMO, grantCompanyRole, invite, NORTHWIND, OLIVIA, PAT, useTestApp } from '../kit';

const t = useTestApp();
const cara = t.as(CARA);
const olivia = t.as(OLIVIA);
const pat = t.as(PAT);
const DEMO_SCHEDULE_ID = DEMO.scheduleId;
const TEAM = String(DEMO.teamId);

const SENT = '/rest/notification/sent';
const SCHEDULED = '/rest/notification/scheduled/sent';
const EVENT1 = DEMO.eventUuidOf(1);
const welcome = 'Welcome to the Northwind Health wall: events, resources and news for our clinicians.';
const flu = 'The staff flu vaccination clinic is open all week in the Haymarket building, level 2.';
const reminder = 'Reminder: the December rosters are published on the wall.';

const sentRecord = (over: Record<string, unknown>) => ({
  type: 'GT',
  companyId: NORTHWIND,
  eventUUID: null,
  notificationScheduleId: null,
  successful: true,
  totalNotificationsSent: 2,
  teamIds: null,
  notificationCreatedBy: String(CARA),
  notificationModifiedBy: String(CARA),
  brochureId: null,
  emailTemplate: null,
  emailSubject: null,
  emailParams: null,
  ...over,
});

const DEMO_SCHEDULED = {
  notificationScheduleId: DEMO_SCHEDULE_ID,
  companyId: NORTHWIND,
  broadcastType: 'GT',
  keyCompanyId: NORTHWIND,
  keyEventUUID: null,
  scheduleTimezoneId: 'Australia/Sydney',
  scheduleLocalDateTime: '2026-11-15T09:00:00',
  scheduleJobName: null,
  message: reminder,
  url: null,
  valueIds: [TEAM],
  totalNotificationsSent: 2,
  notificationLog: 'Success',
  scheduleCreated: Date.parse('2026-11-12T03:00:00Z'),
  scheduleModified: Date.parse('2026-11-14T22:00:00Z'),
  scheduleCreatedBy: String(CARA),
  scheduleModifiedBy: String(CARA),
  brochureId: null,
  emailTemplate: null,
  emailSubject: null,
  emailParams: null,
  version: 3,
};

describe('getSentNotifications (GET /rest/notification/sent)', () => {
  it("when Cara lists Northwind's GT notifications, then the demo records come back newest first with every field", async () => {
    const res = await cara.rest('GET', `${SENT}?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(res.status).toBe(200);
    const at = (iso: string) => ({ notificationCreated: Date.parse(iso), notificationModified: Date.parse(iso) });
    expect(res.body).toEqual([
      sentRecord({
        notificationScheduleId: DEMO_SCHEDULE_ID,
        message: reminder,
        description: reminder,
        teamIds: [TEAM],
        ...at('2026-11-14T22:00:00Z'),
      }),
      sentRecord({ message: flu, description: `${flu}\nTeam ids: ${TEAM}`, ...at('2026-11-10T01:30:00Z') }),
      sentRecord({ message: welcome, description: `${welcome}\nTeam ids: ${TEAM}`, ...at('2026-11-01T00:00:00Z') }),
    ]);
  });

  it('when notificationScheduleId is given, then only the record sent from it comes back', async () => {
    const res = await cara.rest(
      'GET',
      `${SENT}?version=1&broadcastType=GT&companyId=${NORTHWIND}&notificationScheduleId=${DEMO_SCHEDULE_ID}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => r.notificationScheduleId)).toEqual([DEMO_SCHEDULE_ID]);
    const none = await cara.rest('GET', `${SENT}?version=1&broadcastType=GT&companyId=${NORTHWIND}&notificationScheduleId=424242`);
    expect(none.body).toEqual([]);
  });

  it("when GE is asked with the event's UUID, then the event's notifications come back; GA filters by brochureId", async () => {
    const res = await cara.rest('GET', `${SENT}?version=1&broadcastType=GE&eventUUID=${EVENT1.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      sentRecord({
        type: 'GE',
        eventUUID: EVENT1,
        totalNotificationsSent: 1,
        message: 'Parking at the auditorium is free for attendees of this session.',
        description: 'Parking at the auditorium is free for attendees of this session.',
        notificationCreated: Date.parse('2026-11-18T05:00:00Z'),
        notificationModified: Date.parse('2026-11-18T05:00:00Z'),
      }),
    ]);
    const ga = await cara.rest('GET', `${SENT}?version=1&broadcastType=GA&companyId=${NORTHWIND}&brochureId=5`);
    expect(ga).toMatchObject({ status: 200, body: [] });
  });

  it('when the caller has only the ADMIN role, then they may read too', async () => {
    const admin = await t.newUser();
    await grantCompanyRole(t.orm, admin.uId, NORTHWIND, 'ADMIN');
    const res = await admin.rest('GET', `${SENT}?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
  });
});

describe('getSentScheduledNotifications (GET /rest/notification/scheduled/sent)', () => {
  it('when Cara lists the GT scheduled records, then the sent demo record comes back with every field', async () => {
    const res = await cara.rest('GET', `${SCHEDULED}?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([DEMO_SCHEDULED]);
    const one = await cara.rest(
      'GET',
      `${SCHEDULED}?version=1&broadcastType=GT&companyId=${NORTHWIND}&notificationScheduleId=${DEMO_SCHEDULE_ID}`,
    );
    expect(one.body).toEqual([DEMO_SCHEDULED]);
  });

  it('when a scheduled notification is still pending, then it is not in the sent list', async () => {
    const created = await cara.rest('POST', '/rest/notification/send', {
      body: {
        broadcastType: 'GT',
        companyId: NORTHWIND,
        valueIds: [TEAM],
        message: 'Later',
        scheduleLocalDateTime: '2035-06-01T09:00',
        scheduleTimezoneId: 'Australia/Sydney',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.sentNotification).toBeNull();
    expect(created.body.scheduledNotification).toMatchObject({
      scheduleLocalDateTime: '2035-06-01T09:00:00',
      keyCompanyId: NORTHWIND,
      totalNotificationsSent: null,
      notificationLog: null,
      version: 3,
    });
    const res = await cara.rest('GET', `${SCHEDULED}?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(res.body.map((r: any) => r.notificationScheduleId)).toEqual([DEMO_SCHEDULE_ID]);
  });
});

describe.each([SENT, SCHEDULED])('parameter rules of %s', (path) => {
  const invalid = (field: string, message: string) => ({ errorCode: 'WSInvalidParameterException', message, field });
  const cases: [string, string, number, Record<string, unknown>][] = [
    ['version is missing', `broadcastType=GT&companyId=${NORTHWIND}`, 400, invalid('version', 'Invalid value for version.')],
    ['version is not a number', `version=x&broadcastType=GT&companyId=${NORTHWIND}`, 400, invalid('version', 'Invalid value for version.')],
    [
      'version is 2',
      `version=2&broadcastType=GT&companyId=${NORTHWIND}`,
      400,
      { errorCode: 'WSUnsupportedVersionException', message: 'Only version 1 is supported.', field: 'version' },
    ],
    ['broadcastType is missing', `version=1&companyId=${NORTHWIND}`, 400, invalid('broadcastType', 'Invalid value for broadcastType.')],
    [
      'broadcastType is unknown',
      `version=1&broadcastType=ZZ&companyId=${NORTHWIND}`,
      400,
      invalid('broadcastType', 'broadcastType must be one of GT, GE, GA, JN.'),
    ],
    ['GT has no companyId', 'version=1&broadcastType=GT', 400, invalid('companyId', 'companyId is required for GT.')],
    ['JN has no companyId', 'version=1&broadcastType=JN', 400, invalid('companyId', 'companyId is required for JN.')],
    ['companyId is not a number', 'version=1&broadcastType=GT&companyId=abc', 400, invalid('companyId', 'Invalid value for companyId.')],
    ['GE has no eventUUID', 'version=1&broadcastType=GE', 400, invalid('eventUUID', 'eventUUID is required for GE.')],
    ['eventUUID is malformed', 'version=1&broadcastType=GE&eventUUID=123', 400, invalid('eventUUID', 'eventUUID must be a UUID.')],
    [
      'the event is unknown',
      'version=1&broadcastType=GE&eventUUID=00000000-0000-4000-8000-000000000000',
      404,
      { errorCode: 'WSEventNotFoundException', message: 'The event was not found.' },
    ],
    [
      'GE names another company',
      `version=1&broadcastType=GE&eventUUID=${EVENT1}&companyId=${DEMO.companies.southgate}`,
      404,
      { errorCode: 'WSEventNotFoundException', message: 'The event was not found.' },
    ],
    [
      'brochureId is not a number',
      `version=1&broadcastType=GA&companyId=${NORTHWIND}&brochureId=b`,
      400,
      invalid('brochureId', 'Invalid value for brochureId.'),
    ],
    [
      'notificationScheduleId is 0',
      `version=1&broadcastType=GT&companyId=${NORTHWIND}&notificationScheduleId=0`,
      400,
      invalid('notificationScheduleId', 'Invalid value for notificationScheduleId.'),
    ],
    [
      'notificationScheduleId is not a number',
      `version=1&broadcastType=GT&companyId=${NORTHWIND}&notificationScheduleId=n`,
      400,
      invalid('notificationScheduleId', 'Invalid value for notificationScheduleId.'),
    ],
    ['pageNum is 0', `version=1&broadcastType=GT&companyId=${NORTHWIND}&pageNum=0`, 400, invalid('pageNum', 'pageNum must be 1 or more.')],
    [
      "the company is not the caller's",
      `version=1&broadcastType=GT&companyId=${DEMO.companies.southgate}`,
      403,
      { errorCode: 'WSInsufficientPrivilegesException', message: "The caller may not see this company's notifications." },
    ],
  ];

  it.each(cases)('when %s, then the answer says so', async (_name, query, status, body) => {
    const res = await cara.rest('GET', `${path}?${query}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it('when the caller has no role on the company, then WSInsufficientPrivilegesException; without a token WSInvalidAuthTokenException', async () => {
    const res = await olivia.rest('GET', `${path}?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe('WSInsufficientPrivilegesException');
    const anonymous = await t.rest('GET', `${path}?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errorCode).toBe('WSInvalidAuthTokenException');
  });

  it("when an invitee asks for the event's notifications, then WSInsufficientPrivilegesException; a stranger gets WSEventNotFoundException", async () => {
    const invitee = await olivia.rest('GET', `${path}?version=1&broadcastType=GE&eventUUID=${EVENT1}`);
    expect(invitee.status).toBe(403);
    expect(invitee.body).toEqual({
      errorCode: 'WSInsufficientPrivilegesException',
      message: "The caller may not see or send this event's notifications.",
    });
    const stranger = await pat.rest('GET', `${path}?version=1&broadcastType=GE&eventUUID=${EVENT1}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.errorCode).toBe('WSEventNotFoundException');
  });

  it('when the event was cancelled, then WSEventCancelledException (410)', async () => {
    const event = await createEvent(t.orm, NORTHWIND, { status: 'C' });
    await invite(t.orm, event.eId, OLIVIA);
    const res = await cara.rest('GET', `${path}?version=1&broadcastType=GE&eventUUID=${event.eventUUID}`);
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ errorCode: 'WSEventCancelledException', message: 'The event was cancelled.' });
  });

  it('when a page past the end is asked, then the list is empty', async () => {
    const res = await cara.rest('GET', `${path}?version=1&broadcastType=GT&companyId=${NORTHWIND}&pageNum=2`);
    expect(res).toMatchObject({ status: 200, body: [] });
  });
});

describe('GraphQL sent lists', () => {
  it('when asked through GraphQL, then the same records and errors come back', async () => {
    const q = `query($v: Int!, $t: String!, $c: Int) { sentNotifications(version: $v, broadcastType: $t, companyId: $c) { message teamIds }
      sentScheduledNotifications(version: $v, broadcastType: $t, companyId: $c) { notificationScheduleId scheduleUTCDateTime scheduleStatus } }`;
    const ok = await cara.gql(q, { v: 1, t: 'GT', c: NORTHWIND });
    expect(ok.body.data!.sentNotifications.map((n: any) => n.message)).toEqual([reminder, flu, welcome]);
    expect(ok.body.data!.sentScheduledNotifications).toEqual([
      { notificationScheduleId: DEMO_SCHEDULE_ID, scheduleUTCDateTime: Date.parse('2026-11-14T22:00:00Z'), scheduleStatus: 'SENT' },
    ]);
    const bad = await cara.gql(q, { v: 3, t: 'GT', c: NORTHWIND });
    expect(bad.body.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'WSUnsupportedVersionException',
      field: 'version',
    });
  });
});

describe('timestamps of the sent lists', () => {
  it('when a record has microseconds, then its times are the millisecond they fall in, before 1970 too, and its cursor keeps them', async () => {
    const company = await createCompany(t.orm);
    const admin = await t.newUser();
    await grantCompanyRole(t.orm, admin.uId, company.companyId, 'ADMIN');
    await t.sql(
      `insert into sent_notification (type, company_id, message, successful, total_notifications_sent, notification_created, notification_modified,
         notification_created_by, notification_modified_by)
       values ('GT', ?, 'Exact', true, 0, '2026-01-02T03:04:05.123999Z', '1969-12-31T23:59:59.998500Z', '1', '1')`,
      [company.companyId],
    );
    const q = `query($c: Int) { sentNotifications(version: 1, broadcastType: "GT", companyId: $c) { notificationCreated notificationModified cursor } }`;
    const res = await admin.gql(q, { c: company.companyId });
    const [record] = res.body.data!.sentNotifications;
    expect(record.notificationCreated).toBe(Date.parse('2026-01-02T03:04:05.123Z'));
    expect(record.notificationModified).toBe(-2);
    const [kind, us] = Buffer.from(record.cursor, 'base64url').toString('latin1').split(':');
    expect([kind, us]).toEqual(['sent', String(Date.parse('2026-01-02T03:04:05Z') * 1000 + 123_999)]);
  });
});
