import type { MikroORM } from '@mikro-orm/core';
import { startTestApp, type TestApp } from '../helpers/app';
import { createCompany, createUser, grantCompanyRole, tokenFor, userAuth } from '../factories';
import { DEMO_COMPANIES, DEMO_USERS } from '../../src/modules/company/core.seeder';
import { USER_EVENT_FIELDS } from '../../src/modules/event/event.routes';
import { createEvent, invite } from './factories';

let t: TestApp;
let orm: MikroORM;
let olivia: Record<string, string>;
let pat: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  orm = t.db.orm;
  olivia = userAuth(await tokenFor(orm, DEMO_USERS.olivia));
  pat = userAuth(await tokenFor(orm, DEMO_USERS.pat));
});
afterAll(() => t.close());

const eventsPath = (cId: number | string, query = 'version=1') => `/rest/user/mi/${cId}/events?${query}`;
const invalid = (field: string, message: string) => ({ errorCode: 'WSInvalidParameterException', message, field });

describe('findEventsForUserAndCompany (GET /rest/user/mi/{cId}/events)', () => {
  it("when Olivia lists the demo wall, then page 1 holds 20 events by start time, page 2 the other 5, page 3 is empty", async () => {
    const page1 = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, 'version=1&pageNum=1'));
    expect(page1.status).toBe(401);
    const first = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, 'version=1&pageNum=1'), { headers: olivia });
    const second = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, 'version=1&pageNum=2'), { headers: olivia });
    const third = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, 'version=1&pageNum=3'), { headers: olivia });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(first.body).toHaveLength(20);
    expect(second.body).toHaveLength(5);
    expect(third.body).toEqual([]);
    const all = [...first.body, ...second.body];
    const starts = all.map((e: any) => e.eUTCStartDateTime);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(new Set(all.map((e: any) => e.eventUUID)).size).toBe(25);
    for (const e of all) expect(Object.keys(e).sort()).toEqual([...USER_EVENT_FIELDS].sort());
    // Without pageNum: page 1.
    const implicit = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind), { headers: olivia });
    expect(implicit.body).toEqual(first.body);
  });

  it('when an event is listed, then every field is the stored one, local times follow its zone and eHasEnded its end', async () => {
    const res = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind), { headers: olivia });
    // The first demo event: 10 April 2025 18:00-20:00 in Sydney, after daylight saving ended (UTC+10).
    expect(res.body[0]).toEqual({
      eventInviteUUID: 'e1000000-0000-4000-8000-000000000001',
      eventUUID: 'e0000000-0000-4000-8000-000000000001',
      eId: 5001,
      cId: 1001,
      eAttendeeId: 5001,
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
    const summer = res.body.find((e: any) => e.eId === 5004);
    expect(summer).toMatchObject({ eGmtOffsetMinutes: 660, eUTCStartDateTime: Date.UTC(2027, 0, 7, 7), eLocalStartDateTime: Date.UTC(2027, 0, 7, 18), eHasEnded: 'N' });
  });

  it('when events end around now, are cancelled or are on another wall, then only the active ones of that wall are listed', async () => {
    const company = await createCompany(orm);
    const user = await createUser(orm);
    const token = userAuth(await tokenFor(orm, user.uId));
    const ended = await createEvent(orm, company.companyId, { utcStart: new Date(Date.now() - 7_200_000), utcEnd: new Date(Date.now() - 60_000), timezoneId: 'Europe/London' });
    const running = await createEvent(orm, company.companyId, { utcStart: new Date(Date.now() - 3_600_000), utcEnd: new Date(Date.now() + 3_600_000) });
    const cancelled = await createEvent(orm, company.companyId, { status: 'C' });
    const elsewhere = await createEvent(orm, DEMO_COMPANIES.southgate);
    for (const e of [ended, running, cancelled, elsewhere]) await invite(orm, e.eId, user.uId);
    const res = await t.rest('GET', eventsPath(company.companyId), { headers: token });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => [e.eventUUID, e.eHasEnded])).toEqual([[ended.eventUUID, 'Y'], [running.eventUUID, 'N']]);
    const london = res.body[0];
    const offset = london.eGmtOffsetMinutes;
    expect([0, 60]).toContain(offset);
    expect(london.eLocalStartDateTime - london.eUTCStartDateTime).toBe(offset * 60_000);
  });

  it('when the caller has no invitation on the wall, or the wall does not exist, then the list is empty', async () => {
    expect(await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind), { headers: pat })).toMatchObject({ status: 200, body: [] });
    expect(await t.rest('GET', eventsPath(999999), { headers: olivia })).toMatchObject({ status: 200, body: [] });
  });

  it.each([
    ['0', 'pageNum must be 1 or more.'],
    ['-1', 'pageNum must be 1 or more.'],
    ['abc', 'Invalid value for pageNum.'],
    ['1.5', 'Invalid value for pageNum.'],
    ['', 'Invalid value for pageNum.'],
  ])('when pageNum is %p, then WSInvalidParameterException names pageNum', async (pageNum, message) => {
    const res = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, `version=1&pageNum=${pageNum}`), { headers: olivia });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('pageNum', message));
  });

  it('when version is missing or not a number, then WSInvalidParameterException names version; another version is WSUnsupportedVersionException', async () => {
    const missing = await t.rest('GET', `/rest/user/mi/${DEMO_COMPANIES.northwind}/events`, { headers: olivia });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(invalid('version', 'Invalid value for version.'));
    const text = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, 'version=one'), { headers: olivia });
    expect(text.body).toEqual(invalid('version', 'Invalid value for version.'));
    const v2 = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind, 'version=2'), { headers: olivia });
    expect(v2.status).toBe(400);
    expect(v2.body).toEqual({ errorCode: 'WSUnsupportedVersionException', message: 'Only version 1 is supported.', field: 'version' });
  });

  it('when cId is not a positive whole number, then WSInvalidParameterException names cId', async () => {
    const text = await t.rest('GET', eventsPath('abc'), { headers: olivia });
    expect(text.status).toBe(400);
    expect(text.body).toEqual(invalid('cId', 'Invalid value for cId.'));
    const zero = await t.rest('GET', eventsPath(0), { headers: olivia });
    expect(zero.body).toEqual(invalid('cId', 'cId must be a positive company id.'));
  });

  it('when the token is missing or unknown, then WSInvalidAuthTokenException', async () => {
    for (const headers of [{}, userAuth('not-a-token')]) {
      const res = await t.rest('GET', eventsPath(DEMO_COMPANIES.northwind), { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' });
    }
  });

  it('when a page holds 1 or 20 events, then the same number of SQL statements runs', async () => {
    const company = await createCompany(orm);
    const one = await createUser(orm);
    const many = await createUser(orm);
    const events = [];
    for (let i = 0; i < 20; i++) events.push(await createEvent(orm, company.companyId, { utcStart: new Date(Date.now() + (i + 1) * 86_400_000) }));
    await invite(orm, events[0].eId, one.uId);
    for (const e of events) await invite(orm, e.eId, many.uId);
    const [tokenOne, tokenMany] = [userAuth(await tokenFor(orm, one.uId)), userAuth(await tokenFor(orm, many.uId))];
    // Warm the token rows so sliding expiry does not write during the measured request.
    await t.rest('GET', eventsPath(company.companyId), { headers: tokenOne });
    await t.rest('GET', eventsPath(company.companyId), { headers: tokenMany });
    let bodies: number[] = [];
    const a = await t.countStatements(async () => bodies.push((await t.rest('GET', eventsPath(company.companyId), { headers: tokenOne })).body.length));
    const b = await t.countStatements(async () => bodies.push((await t.rest('GET', eventsPath(company.companyId), { headers: tokenMany })).body.length));
    expect(bodies).toEqual([1, 20]);
    expect(b).toBe(a);
  });
});

describe('GraphQL: userEvents, event and the Event federation entity', () => {
  it('when Olivia asks for her events through GraphQL, then the REST rows come back', async () => {
    const res = await t.gql(`{ userEvents(cId: 1001, version: 1, pageNum: 2) { eventUUID eName eHasEnded } }`, {}, olivia);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.userEvents).toHaveLength(5);
    const bad = await t.gql(`{ userEvents(cId: 1001, version: 1, pageNum: 0) { eventUUID } }`, {}, olivia);
    expect(bad.body.errors![0].extensions).toEqual({ code: 'WSInvalidParameterException', field: 'pageNum' });
  });

  it('when an invitee or a company admin asks for an event, then it answers; anyone else gets null', async () => {
    const query = `query($u: String!) { event(eventUUID: $u) { eventUUID cId cName eName eStatus } }`;
    const uuid = 'e0000000-0000-4000-8000-000000000002';
    const expected = { eventUUID: uuid, cId: 1001, cName: 'Northwind Health', eName: 'Research evening #2', eStatus: 'A' };
    expect((await t.gql(query, { u: uuid }, olivia)).body.data!.event).toEqual(expected);
    const cara = userAuth(await tokenFor(orm, DEMO_USERS.cara));
    expect((await t.gql(query, { u: uuid.toUpperCase() }, cara)).body.data!.event).toEqual(expected);
    expect((await t.gql(query, { u: uuid }, pat)).body.data!.event).toBeNull();
    const bad = await t.gql(query, { u: 'nope' }, olivia);
    expect(bad.body.errors![0].extensions).toEqual({ code: 'WSInvalidParameterException', field: 'eventUUID' });
  });

  it('when the gateway resolves Event references, then they are batched and invisible ones are null', async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Event { eventUUID eName } } }`;
    const reps = (n: number) => Array.from({ length: n }, (_, i) => ({ __typename: 'Event', eventUUID: `e0000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}` }));
    const admin = await createUser(orm);
    await grantCompanyRole(orm, admin.uId, DEMO_COMPANIES.northwind, 'ADMIN');
    const token = userAuth(await tokenFor(orm, admin.uId));
    await t.gql(query, { r: reps(1) }, token);
    const one = await t.countStatements(() => t.gql(query, { r: reps(1) }, token));
    let res: any;
    const ten = await t.countStatements(async () => {
      res = await t.gql(query, { r: reps(10) }, token);
    });
    expect(ten).toBe(one);
    expect(res.body.data._entities).toHaveLength(10);
    expect(res.body.data._entities[9]).toEqual({ eventUUID: 'e0000000-0000-4000-8000-000000000010', eName: 'Cardiology grand round #10' });
    const hidden = await t.gql(query, { r: reps(2) }, pat);
    expect(hidden.body.data!._entities).toEqual([null, null]);
  });
});
