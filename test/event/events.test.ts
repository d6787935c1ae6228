import { CARA, createCompany, createEvent, DEMO, grantCompanyRole, invite, NORTHWIND, OLIVIA, PAT, useTestApp } from '../kit';
import { USER_EVENT_FIELDS } from '../../src/modules/event/event.routes';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const pat = t.as(PAT);

const eventsPath = (cId: number | string, query = 'version=1') => `/rest/user/mi/${cId}/events?${query}`;
const invalid = (field: string, message: string) => ({ errorCode: 'WSInvalidParameterException', message, field });

describe('findEventsForUserAndCompany (GET /rest/user/mi/{cId}/events)', () => {
  it('when Olivia lists the demo wall, then page 1 holds 20 events by start time, page 2 the other 5, page 3 is empty', async () => {
    const page1 = await t.rest('GET', eventsPath(NORTHWIND, 'version=1&pageNum=1'));
    expect(page1.status).toBe(401);
    const first = await olivia.rest('GET', eventsPath(NORTHWIND, 'version=1&pageNum=1'));
    const second = await olivia.rest('GET', eventsPath(NORTHWIND, 'version=1&pageNum=2'));
    const third = await olivia.rest('GET', eventsPath(NORTHWIND, 'version=1&pageNum=3'));
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(first.body).toHaveLength(20);
    expect(second.body).toHaveLength(5);
    expect(third.body).toEqual([]);
    const all = [...first.body, ...second.body];
    const starts = all.map((e: any) => e.eUTCStartDateTime);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(new Set(all.map((e: any) => e.eventUUID)).size).toBe(25);
    for (const e of all) expect(Object.keys(e).sort()).toEqual(USER_EVENT_FIELDS.text().split(' ').sort());
    // Without pageNum: page 1.
    const implicit = await olivia.rest('GET', eventsPath(NORTHWIND));
    expect(implicit.body).toEqual(first.body);
  });

  it('when an event is listed, then every field is the stored one, local times follow its zone and eHasEnded its end', async () => {
    const res = await olivia.rest('GET', eventsPath(NORTHWIND));
    // The first demo event: 10 April 2025 18:00-20:00 in Sydney, after daylight saving ended (UTC+10).
    expect(res.body[0]).toEqual({
      eventInviteUUID: DEMO.inviteUuidOf(1),
      eventUUID: DEMO.eventUuidOf(1),
      eId: DEMO.eventIdBase + 1,
      cId: NORTHWIND,
      eAttendeeId: DEMO.eventIdBase + 1,
      cName: 'Northwind Health',
      eName: 'Clinical skills workshop #1',
      eDescription: 'Session 1 of the Northwind Health education series.',
      eAddress: 'Parramatta Learning Centre',
      eStreet: '12 Church Street',
      eSuburb: 'Parramatta',
      eCity: 'Sydney',
      ePostCode: '2150',
      eCountry: 'Australia',
      eStatus: 'A',
      eImage: 'https://northwindhealth.example/events/1.png',
      eFlyerPdf: 'https://northwindhealth.example/events/1.pdf',
      eLatitude: -33.8151,
      eLongitude: 151.0034,
      eTimezoneId: 'Australia/Sydney',
      eGmtOffsetMinutes: 600,
      eUTCStartDateTime: Date.UTC(2025, 3, 10, 8),
      eLocalStartDateTime: Date.UTC(2025, 3, 10, 18),
      eUTCEndDateTime: Date.UTC(2025, 3, 10, 10),
      eLocalEndDateTime: Date.UTC(2025, 3, 10, 20),
      eHasEnded: 'Y',
      eAttendeeInviteStatus: 'P',
      eAttendeeAttendingStatus: 'U',
      eAttendeeInvitesSent: 1,
      eAttendeeRemindersSent: 1,
      useExternalEventProvider: 'N',
      version: 2,
    });
    // January 2027 is summer in Sydney: UTC+11.
    const summer = res.body.find((e: any) => e.eId === DEMO.eventIdBase + 4);
    expect(summer).toMatchObject({
      eGmtOffsetMinutes: 660,
      eUTCStartDateTime: Date.UTC(2027, 0, 7, 7),
      eLocalStartDateTime: Date.UTC(2027, 0, 7, 18),
      eHasEnded: 'N',
    });
  });

  it('when events end around now, are cancelled or are on another wall, then only the active ones of that wall are listed', async () => {
    const company = await createCompany(t.orm);
    const user = await t.newUser();
    const ended = await createEvent(t.orm, company.companyId, {
      utcStart: new Date(Date.now() - 7_200_000),
      utcEnd: new Date(Date.now() - 60_000),
      timezoneId: 'Europe/London',
    });
    const running = await createEvent(t.orm, company.companyId, {
      utcStart: new Date(Date.now() - 3_600_000),
      utcEnd: new Date(Date.now() + 3_600_000),
    });
    const cancelled = await createEvent(t.orm, company.companyId, { status: 'C' });
    const elsewhere = await createEvent(t.orm, DEMO.companies.southgate);
    for (const e of [ended, running, cancelled, elsewhere]) await invite(t.orm, e.eId, user.uId);
    const res = await user.rest('GET', eventsPath(company.companyId));
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => [e.eventUUID, e.eHasEnded])).toEqual([
      [ended.eventUUID, 'Y'],
      [running.eventUUID, 'N'],
    ]);
    const london = res.body[0];
    const offset = london.eGmtOffsetMinutes;
    expect([0, 60]).toContain(offset);
    expect(london.eLocalStartDateTime - london.eUTCStartDateTime).toBe(offset * 60_000);
  });

  it('when the caller has no invitation on the wall, or the wall does not exist, then the list is empty', async () => {
    expect(await pat.rest('GET', eventsPath(NORTHWIND))).toMatchObject({ status: 200, body: [] });
    expect(await olivia.rest('GET', eventsPath(999999))).toMatchObject({ status: 200, body: [] });
  });

  it.each([
    ['0', 'pageNum must be 1 or more.'],
    ['-1', 'pageNum must be 1 or more.'],
    ['abc', 'Invalid value for pageNum.'],
    ['1.5', 'Invalid value for pageNum.'],
  ])('when pageNum is %p, then WSInvalidParameterException names pageNum', async (pageNum, message) => {
    const res = await olivia.rest('GET', eventsPath(NORTHWIND, `version=1&pageNum=${pageNum}`));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('pageNum', message));
  });

  it('when version is missing or not a number, then WSInvalidParameterException names version; another version is WSUnsupportedVersionException', async () => {
    const missing = await olivia.rest('GET', `/rest/user/mi/${NORTHWIND}/events`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(invalid('version', 'Invalid value for version.'));
    const text = await olivia.rest('GET', eventsPath(NORTHWIND, 'version=one'));
    expect(text.body).toEqual(invalid('version', 'Invalid value for version.'));
    const v2 = await olivia.rest('GET', eventsPath(NORTHWIND, 'version=2'));
    expect(v2.status).toBe(400);
    expect(v2.body).toEqual({ errorCode: 'WSUnsupportedVersionException', message: 'Only version 1 is supported.', field: 'version' });
  });

  it('when cId is not a positive whole number, then WSInvalidParameterException names cId', async () => {
    const text = await olivia.rest('GET', eventsPath('abc'));
    expect(text.status).toBe(400);
    expect(text.body).toEqual(invalid('cId', 'Invalid value for cId.'));
    const zero = await olivia.rest('GET', eventsPath(0));
    expect(zero.body).toEqual(invalid('cId', 'cId must be a positive company id.'));
  });

  it('when the token is missing or unknown, then WSInvalidAuthTokenException', async () => {
    for (const who of [t, t.as('not-a-token')]) {
      const res = await who.rest('GET', eventsPath(NORTHWIND));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' });
    }
  });

  it('when a page holds 1 or 20 events, then the same number of SQL statements runs', async () => {
    const company = await createCompany(t.orm);
    const one = await t.newUser();
    const many = await t.newUser();
    const events = [];
    for (let i = 0; i < 20; i++)
      events.push(await createEvent(t.orm, company.companyId, { utcStart: new Date(Date.now() + (i + 1) * 86_400_000) }));
    await invite(t.orm, events[0].eId, one.uId);
    for (const e of events) await invite(t.orm, e.eId, many.uId);
    // Warm the token rows so sliding expiry does not write during the measured request.
    await one.rest('GET', eventsPath(company.companyId));
    await many.rest('GET', eventsPath(company.companyId));
    const bodies: number[] = [];
    const a = await t.countStatements(async () => bodies.push((await one.rest('GET', eventsPath(company.companyId))).body.length));
    const b = await t.countStatements(async () => bodies.push((await many.rest('GET', eventsPath(company.companyId))).body.length));
    expect(bodies).toEqual([1, 20]);
    expect(b).toBe(a);
    // The caller's user row and the page (invitations, events and company names in one statement);
    // the token comes from the token cache.
    expect(a).toBe(2);
  });
});

describe('GraphQL: userEvents, event and the Event federation entity', () => {
  it('when Olivia asks for her events through GraphQL, then the REST rows come back', async () => {
    const res = await olivia.gql(`{ userEvents(cId: ${NORTHWIND}, version: 1, pageNum: 2) { eventUUID eName eHasEnded } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.userEvents).toHaveLength(5);
    const bad = await olivia.gql(`{ userEvents(cId: ${NORTHWIND}, version: 1, pageNum: 0) { eventUUID } }`);
    expect(bad.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'pageNum' });
  });

  it('when an invitee or a company admin asks for an event, then it answers; anyone else gets null', async () => {
    const query = `query($u: String!) { event(eventUUID: $u) { eventUUID cId cName eName eStatus } }`;
    const uuid = DEMO.eventUuidOf(2);
    const expected = { eventUUID: uuid, cId: NORTHWIND, cName: 'Northwind Health', eName: 'Research evening #2', eStatus: 'A' };
    expect((await olivia.gql(query, { u: uuid })).body.data!.event).toEqual(expected);
    const cara = t.as(CARA);
    expect((await cara.gql(query, { u: uuid.toUpperCase() })).body.data!.event).toEqual(expected);
    expect((await pat.gql(query, { u: uuid })).body.data!.event).toBeNull();
    const bad = await olivia.gql(query, { u: 'nope' });
    expect(bad.body.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'WSInvalidParameterException',
      field: 'eventUUID',
    });
  });

  it('when an invitee asks for an event, then every field is the one the events list shows for it', async () => {
    const listed = (await olivia.rest('GET', eventsPath(NORTHWIND))).body;
    const eventFields = USER_EVENT_FIELDS.text()
      .split(' ')
      .filter((f) => !f.startsWith('eAttendee') && f !== 'eventInviteUUID');
    const query = `query($u: String!) { event(eventUUID: $u) { ${eventFields.join(' ')} } }`;
    // The first demo event (Sydney after daylight saving, coordinates, ended) and the fourth (Sydney summer, not ended).
    for (const row of [listed[0], listed.find((e: any) => e.eId === DEMO.eventIdBase + 4)]) {
      const res = await olivia.gql(query, { u: row.eventUUID });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data!.event).toEqual(Object.fromEntries(eventFields.map((f) => [f, row[f]])));
    }
    expect(listed[0]).toMatchObject({ eLatitude: -33.8151, eUTCStartDateTime: Date.UTC(2025, 3, 10, 8), eHasEnded: 'Y' });
  });

  it('when the gateway resolves Event references, then they are batched and invisible ones are null', async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Event { eventUUID eName } } }`;
    const reps = (n: number) => Array.from({ length: n }, (_, i) => ({ __typename: 'Event', eventUUID: DEMO.eventUuidOf(i + 1) }));
    const admin = await t.newUser();
    await grantCompanyRole(t.orm, admin.uId, NORTHWIND, 'ADMIN');
    await admin.gql(query, { r: reps(1) });
    const one = await t.countStatements(() => admin.gql(query, { r: reps(1) }));
    let res: any;
    const ten = await t.countStatements(async () => {
      res = await admin.gql(query, { r: reps(10) });
    });
    expect(ten).toBe(one);
    expect(res.body.data._entities).toHaveLength(10);
    expect(res.body.data._entities[9]).toEqual({ eventUUID: DEMO.eventUuidOf(10), eName: 'Cardiology grand round #10' });
    const hidden = await pat.gql(query, { r: reps(2) });
    expect(hidden.body.data!._entities).toEqual([null, null]);
  });
});
