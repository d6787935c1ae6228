// getRecommendedCriteriaForEntity (4): the criteria of a company and every identifier they
// reference, defined once; the Company federation entity; tuples without duplicates.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { createCompany, createCriterion, createIdentifier, DEMO, PAT, useTestApp, type Client } from '../kit';

const t = useTestApp();
const pat = t.as(PAT);
const { northwind, southgate, eastwood, westfield, hidden, closed, pending } = DEMO.companies;
const ahpra = DEMO.identifiers.ahpra;

const post = (body: unknown, who: Client = pat) => who.rest('POST', '/rest/user/recommended/entityCriteria', { body });

describe('getRecommendedCriteriaForEntity (POST /rest/user/recommended/entityCriteria)', () => {
  it('answers the demo criteria of Eastwood with the AHPRA definition', async () => {
    const res = await post({ version: 1, entityType: 'company', entityId: String(eastwood) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      criteria: [{ criteriaId: 604, countries: ['AU'], professions: [101], specialties: [], identifiers: [ahpra] }],
      identifierDefinitions: [
        {
          identifierId: ahpra,
          name: 'AHPRA',
          desc: 'Australian Health Practitioner Regulation Agency registration number',
          formatDesc: 'MED0001234567',
          formatRegex: '^[A-Z]{3}[0-9]{10}$',
          countryCode: 'AU',
        },
      ],
    });
  });

  it('defines each referenced identifier once, in id order, with upper-case, sorted, distinct codes in criteria', async () => {
    const company = await createCompany(t.orm);
    const nz = await createIdentifier(t.orm, { countryCode: 'NZ', formatDesc: null, formatRegex: null });
    const au = await createIdentifier(t.orm, { countryCode: 'AU', formatDesc: 'A123', formatRegex: '^A[0-9]+$' });
    const c1 = await createCriterion(t.orm, company.companyId, {
      countries: ['nz', 'au', 'AU'],
      identifiers: [nz.identifierId, au.identifierId],
    });
    const c2 = await createCriterion(t.orm, company.companyId, { professions: [102, 101, 102], identifiers: [au.identifierId] });
    const res = await post({ version: 1, entityType: 'company', entityId: String(company.companyId) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      criteria: [
        {
          criteriaId: c1.criterionId,
          countries: ['AU', 'NZ'],
          professions: [],
          specialties: [],
          identifiers: [nz.identifierId, au.identifierId].sort((a, b) => a - b),
        },
        { criteriaId: c2.criterionId, countries: [], professions: [101, 102], specialties: [], identifiers: [au.identifierId] },
      ],
      identifierDefinitions: [nz, au]
        .sort((a, b) => a.identifierId - b.identifierId)
        .map((d) => ({
          identifierId: d.identifierId,
          name: d.name,
          desc: 'Test identifier',
          formatDesc: d.formatDesc ?? null,
          formatRegex: d.formatRegex ?? null,
          countryCode: d.countryCode,
        })),
    });
  });

  it('a company without criteria answers empty lists', async () => {
    const company = await createCompany(t.orm);
    expect(await post({ version: 1, entityType: 'company', entityId: String(company.companyId) })).toMatchObject({
      status: 200,
      body: { criteria: [], identifierDefinitions: [] },
    });
  });

  it('answers in two statements however many criteria and definitions the company has', async () => {
    const one = await createCompany(t.orm);
    await createCriterion(t.orm, one.companyId, { countries: ['AU'] });
    const many = await createCompany(t.orm);
    const defs = [await createIdentifier(t.orm, { countryCode: 'AU' }), await createIdentifier(t.orm, { countryCode: 'NZ' })];
    for (const [i, d] of defs.entries())
      await createCriterion(t.orm, many.companyId, { professions: [101 + i], identifiers: [d.identifierId] });
    await createCriterion(t.orm, many.companyId, { countries: ['NZ'] });
    const call = async (companyId: number) => {
      let res: any;
      const statements = await t.countStatements(
        async () => (res = await post({ version: 1, entityType: 'company', entityId: String(companyId) })),
      );
      expect(res.status).toBe(200);
      return { statements, criteria: res.body.criteria.length, definitions: res.body.identifierDefinitions.length };
    };
    // The caller's user row, then the company, its criteria and their definitions together.
    expect(await call(one.companyId)).toEqual({ statements: 2, criteria: 1, definitions: 0 });
    expect(await call(many.companyId)).toEqual({ statements: 2, criteria: 3, definitions: 2 });
  });

  const notDiscoverable = {
    status: 400,
    body: { errorCode: 'WSInvalidParameterException', message: 'entityId does not name a discoverable company.', field: 'entityId' },
  };
  it.each([
    ['unknown', { version: 1, entityType: 'company', entityId: '999999' }, notDiscoverable],
    ['hidden', { version: 1, entityType: 'company', entityId: String(hidden) }, notDiscoverable],
    ['inactive', { version: 1, entityType: 'company', entityId: String(closed) }, notDiscoverable],
    ['not a number', { version: 1, entityType: 'company', entityId: '10x3' }, notDiscoverable],
    ['out of range', { version: 1, entityType: 'company', entityId: '99999999999' }, notDiscoverable],
    // A number is taken as its text (legacy decoding, docs/api/README.md); an object is not text.
    [
      'an object, not text',
      { version: 1, entityType: 'company', entityId: { id: eastwood } },
      { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'Invalid value for entityId.', field: 'entityId' } },
    ],
    [
      'an event',
      { version: 1, entityType: 'event', entityId: '0f8b4c1e-3b1a-4d0e-9a59-5b1f0e7d2c11' },
      {
        status: 400,
        body: { errorCode: 'WSInvalidParameterException', message: 'Events carry no discovery criteria yet.', field: 'entityId' },
      },
    ],
    [
      'an unknown type',
      { version: 1, entityType: 'person', entityId: String(eastwood) },
      {
        status: 400,
        body: { errorCode: 'WSInvalidParameterException', message: 'entityType must be company or event.', field: 'entityType' },
      },
    ],
    [
      'version 2',
      { version: 2, entityType: 'company', entityId: String(eastwood) },
      {
        status: 400,
        body: { errorCode: 'WSUnsupportedVersionException', message: 'Version 2 is not supported; use 1.', field: 'version' },
      },
    ],
    [
      'no version',
      { entityType: 'company', entityId: String(eastwood) },
      { status: 400, body: { errorCode: 'WSInvalidParameterException', message: 'Invalid value for version.', field: 'version' } },
    ],
  ])('%s: 400 naming the field', async (_name, body, expected) => {
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual(expected);
  });

  it('without an auth token: 401', async () => {
    const res = await post({ version: 1, entityType: 'company', entityId: String(eastwood) }, t);
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('criterion tuples', () => {
  it('the same tuple twice for one company is refused by the database, in any order or case', async () => {
    const company = await createCompany(t.orm);
    await createCriterion(t.orm, company.companyId, { countries: ['AU', 'NZ'], professions: [101] });
    const before = await t.countRows('discovery_criterion');
    await expect(createCriterion(t.orm, company.companyId, { countries: ['nz', 'au'], professions: [101, 101] })).rejects.toBeInstanceOf(
      UniqueConstraintViolationException,
    );
    expect(await t.countRows('discovery_criterion')).toBe(before);
    // Another company may hold the same tuple.
    const other = await createCompany(t.orm);
    await createCriterion(t.orm, other.companyId, { countries: ['AU', 'NZ'], professions: [101] });
    expect(await t.countRows('discovery_criterion')).toBe(before + 1);
  });
});

describe('Company as a federation entity', () => {
  it('_entities resolves the companies a user may see with criteria and definitions in a constant number of statements', async () => {
    const query = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Company { companyId companyName companyState companyBannerURL usesCAF cafUrl criteria { criteriaId } identifierDefinitions { identifierId } } } }`;
    const reps = (ids: number[]) => ids.map((companyId) => ({ __typename: 'Company', companyId }));
    let body: any;
    const two = await t.countStatements(async () => (body = (await pat.gql(query, { reps: reps([southgate, eastwood]) })).body));
    expect(body.data._entities).toEqual([
      {
        companyId: southgate,
        companyName: 'Southgate Clinics',
        companyState: 'Victoria',
        companyBannerURL: `http://localhost:4000/files/companies/${southgate}/banner-criteria.png`,
        usesCAF: true,
        cafUrl: 'https://southgateclinics.example/caf',
        criteria: [{ criteriaId: 602 }, { criteriaId: 603 }],
        identifierDefinitions: [],
      },
      {
        companyId: eastwood,
        companyName: 'Eastwood Care',
        companyState: 'Queensland',
        companyBannerURL: `http://localhost:4000/files/companies/${eastwood}/banner-criteria.png`,
        usesCAF: false,
        cafUrl: null,
        criteria: [{ criteriaId: 604 }],
        identifierDefinitions: [{ identifierId: ahpra }],
      },
    ]);
    const seven = await t.countStatements(
      async () =>
        (body = (await pat.gql(query, { reps: reps([northwind, southgate, eastwood, westfield, hidden, closed, pending]) })).body),
    );
    // The hidden wall and the inactive company are not the user's to see.
    expect(body.data._entities.map((c: any) => c?.companyId ?? null)).toEqual([
      northwind,
      southgate,
      eastwood,
      westfield,
      null,
      null,
      pending,
    ]);
    expect(seven).toBe(two);
    // The caller's token, the companies with their visibility, criteria, definitions.
    expect(two).toBe(4);
  });

  it('the subgraph SDL declares Company with @key(fields: "companyId")', async () => {
    const res = await t.gql('{ _service { sdl } }');
    expect(res.body.data!._service.sdl).toMatch(/type Company implements Node @key\(fields: "companyId"\)/);
  });
});
