// getRecommendedCriteriaForEntity (4): the criteria of a company and every identifier they
// reference, defined once; the Company federation entity; tuples without duplicates.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { startTestApp, type TestApp } from '../helpers/app';
import { countRows, createCompany, tokenFor, userAuth } from '../factories';
import { createCriterion, createIdentifier } from './discovery-factories';

let t: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  auth = userAuth(await tokenFor(t.db.orm, 2005));
});
afterAll(() => t.close());

const post = (body: unknown, headers = auth) => t.rest('POST', '/rest/user/recommended/entityCriteria', { headers, body });

describe('getRecommendedCriteriaForEntity (POST /rest/user/recommended/entityCriteria)', () => {
  it('answers the demo criteria of 1003 with the AHPRA definition', async () => {
    const res = await post({ version: 1, entityType: 'company', entityId: '1003' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      criteria: [{ criteriaId: 604, countries: ['AU'], professions: [101], specialties: [], identifiers: [501] }],
      identifierDefinitions: [
        {
          identifierId: 501, name: 'AHPRA', desc: 'Australian Health Practitioner Regulation Agency registration number',
          formatDesc: 'MED0001234567', formatRegex: '^[A-Z]{3}[0-9]{10}$', countryCode: 'AU',
        },
      ],
    });
  });

  it('defines each referenced identifier once, in id order, with upper-case, sorted, distinct codes in criteria', async () => {
    const company = await createCompany(t.db.orm);
    const nz = await createIdentifier(t.db.orm, { countryCode: 'NZ', formatDesc: null, formatRegex: null });
    const au = await createIdentifier(t.db.orm, { countryCode: 'AU', formatDesc: 'A123', formatRegex: '^A[0-9]+$' });
    const c1 = await createCriterion(t.db.orm, company.companyId, { countries: ['nz', 'au', 'AU'], identifiers: [nz.identifierId, au.identifierId] });
    const c2 = await createCriterion(t.db.orm, company.companyId, { professions: [102, 101, 102], identifiers: [au.identifierId] });
    const res = await post({ version: 1, entityType: 'company', entityId: String(company.companyId) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      criteria: [
        { criteriaId: c1.criterionId, countries: ['AU', 'NZ'], professions: [], specialties: [], identifiers: [nz.identifierId, au.identifierId].sort((a, b) => a - b) },
        { criteriaId: c2.criterionId, countries: [], professions: [101, 102], specialties: [], identifiers: [au.identifierId] },
      ],
      identifierDefinitions: [nz, au]
        .sort((a, b) => a.identifierId - b.identifierId)
        .map((d) => ({ identifierId: d.identifierId, name: d.name, desc: 'Test identifier', formatDesc: d.formatDesc ?? null, formatRegex: d.formatRegex ?? null, countryCode: d.countryCode })),
    });
  });

  it('a company without criteria answers empty lists', async () => {
    const company = await createCompany(t.db.orm);
    expect(await post({ version: 1, entityType: 'company', entityId: String(company.companyId) })).toMatchObject({ status: 200, body: { criteria: [], identifierDefinitions: [] } });
  });

  const notDiscoverable = { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'entityId does not name a discoverable company.', field: 'entityId' } };
  it.each([
    ['unknown', { version: 1, entityType: 'company', entityId: '999999' }, notDiscoverable],
    ['hidden', { version: 1, entityType: 'company', entityId: '1005' }, notDiscoverable],
    ['inactive', { version: 1, entityType: 'company', entityId: '1006' }, notDiscoverable],
    ['not a number', { version: 1, entityType: 'company', entityId: '10x3' }, notDiscoverable],
    ['out of range', { version: 1, entityType: 'company', entityId: '99999999999' }, notDiscoverable],
    // A number is taken as its text (legacy decoding, DESIGN.md); an object is not text.
    ['an object, not text', { version: 1, entityType: 'company', entityId: { id: 1003 } }, { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'Invalid value for entityId.', field: 'entityId' } }],
    ['an event', { version: 1, entityType: 'event', entityId: '0f8b4c1e-3b1a-4d0e-9a59-5b1f0e7d2c11' }, { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'Events carry no discovery criteria yet.', field: 'entityId' } }],
    ['an unknown type', { version: 1, entityType: 'person', entityId: '1003' }, { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'entityType must be company or event.', field: 'entityType' } }],
    ['version 2', { version: 2, entityType: 'company', entityId: '1003' }, { status: 400, body: { errorCode: 'WSUnsupportedVersionException', message: 'Version 2 is not supported; use 1.', field: 'version' } }],
    ['no version', { entityType: 'company', entityId: '1003' }, { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'Invalid value for version.', field: 'version' } }],
  ])('%s: 400 naming the field', async (_name, body, expected) => {
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual(expected);
  });

  it('without an auth token: 401', async () => {
    const res = await post({ version: 1, entityType: 'company', entityId: '1003' }, {});
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('criterion tuples', () => {
  it('the same tuple twice for one company is refused by the database, in any order or case', async () => {
    const company = await createCompany(t.db.orm);
    await createCriterion(t.db.orm, company.companyId, { countries: ['AU', 'NZ'], professions: [101] });
    const before = await countRows(t.db.orm, 'discovery_criterion');
    await expect(createCriterion(t.db.orm, company.companyId, { countries: ['nz', 'au'], professions: [101, 101] })).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    expect(await countRows(t.db.orm, 'discovery_criterion')).toBe(before);
    // Another company may hold the same tuple.
    const other = await createCompany(t.db.orm);
    await expect(createCriterion(t.db.orm, other.companyId, { countries: ['AU', 'NZ'], professions: [101] })).resolves.toBeDefined();
  });
});

describe('Company as a federation entity', () => {
  it('_entities resolves the companies a user may see with criteria and definitions in a constant number of statements', async () => {
    const query = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Company { companyId companyName companyState companyBannerURL usesCAF cafUrl criteria { criteriaId } identifierDefinitions { identifierId } } } }`;
    const reps = (ids: number[]) => ids.map((companyId) => ({ __typename: 'Company', companyId }));
    let body: any;
    const two = await t.countStatements(async () => (body = (await t.gql(query, { reps: reps([1002, 1003]) }, auth)).body));
    expect(body.data._entities).toEqual([
      { companyId: 1002, companyName: 'Southgate Clinics', companyState: 'Victoria', companyBannerURL: 'http://localhost:4000/files/companies/1002/banner-criteria.png', usesCAF: true, cafUrl: 'https://southgateclinics.example/caf', criteria: [{ criteriaId: 602 }, { criteriaId: 603 }], identifierDefinitions: [] },
      { companyId: 1003, companyName: 'Eastwood Care', companyState: 'Queensland', companyBannerURL: 'http://localhost:4000/files/companies/1003/banner-criteria.png', usesCAF: false, cafUrl: null, criteria: [{ criteriaId: 604 }], identifierDefinitions: [{ identifierId: 501 }] },
    ]);
    const seven = await t.countStatements(async () => (body = (await t.gql(query, { reps: reps([1001, 1002, 1003, 1004, 1005, 1006, 1007]) }, auth)).body));
    // The hidden wall (1005) and the inactive company (1006) are not the user's to see.
    expect(body.data._entities.map((c: any) => c?.companyId ?? null)).toEqual([1001, 1002, 1003, 1004, null, null, 1007]);
    expect(seven).toBe(two);
    // The caller's token, the companies with their visibility, criteria, definitions.
    expect(two).toBe(4);
  });

  it('the subgraph SDL declares Company with @key(fields: "companyId")', async () => {
    const res = await t.gql('{ _service { sdl } }');
    expect(res.body.data!._service.sdl).toMatch(/type Company @key\(fields: "companyId"\)/);
  });
});
