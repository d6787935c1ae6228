// getRecommendedEntitiesForUser (3) on the demo tenant: Olivia's list, the version 1 and 2
// shapes, the control object's validation, and the GraphQL query with nested loaders.
import { createCompany, createCriterion, createIdentifier, DEMO, OLIVIA, OMAR, suffix, useTestApp, type Client } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const { southgate, eastwood, westfield } = DEMO.companies;

const base = 'http://localhost:4000/files/companies';
const demo = (
  id: number,
  name: string,
  slug: string,
  address: string,
  city: string,
  postcode: string,
  state: string,
  pending: boolean,
) => ({
  entityType: 'company',
  entityId: String(id),
  entityConnectionPending: pending,
  companyBannerURL: `${base}/${id}/banner-criteria.png`,
  companyLogoURL: `${base}/${id}/logo.png`,
  companyName: name,
  companyDesc: `${name}: a demo company wall.`,
  companyAddress: address,
  companyCity: city,
  companyPostcode: postcode,
  companyState: state,
  companyCountry: 'Australia',
  companyContactName: 'Demo Contact',
  companyContactEmail: `contact@${slug}.example`,
  companyWebsite: `https://${slug}.example`,
});
const PENDING = demo(
  DEMO.companies.pending,
  'Pending Partners',
  'pendingpartners',
  '50 King William Street',
  'Adelaide',
  '5000',
  'South Australia',
  true,
);
const SOUTHGATE = demo(southgate, 'Southgate Clinics', 'southgateclinics', '200 Collins Street', 'Melbourne', '3000', 'Victoria', false);
const EASTWOOD = demo(eastwood, 'Eastwood Care', 'eastwoodcare', '12 Queen Street', 'Brisbane', '4000', 'Queensland', false);

const post = (body: unknown, who: Client = olivia) => who.rest('POST', '/rest/user/recommended/entities', { body });

describe("Olivia's demo recommendations", () => {
  it('version 2: Pending Partners (pending, full) and Southgate (full) by name, then Eastwood (partial), with usesCAF and cafUrl', async () => {
    const res = await post({ version: 2, entityType: ['company'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { ...PENDING, usesCAF: false, cafUrl: null },
      { ...SOUTHGATE, usesCAF: true, cafUrl: 'https://southgateclinics.example/caf' },
      { ...EASTWOOD, usesCAF: false, cafUrl: null },
    ]);
  });

  it('version 1: the same entities without the usesCAF and cafUrl keys', async () => {
    const res = await post({ version: 1, entityType: ['company', 'event'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([PENDING, SOUTHGATE, EASTWOOD]);
    for (const e of res.body) expect(Object.keys(e)).not.toEqual(expect.arrayContaining(['usesCAF']));
    for (const e of res.body) expect('cafUrl' in e).toBe(false);
  });

  it('events only: reserved, nothing yet', async () => {
    expect(await post({ version: 2, entityType: ['event'] })).toMatchObject({ status: 200, body: [] });
  });

  it('searchTerms narrows the suggestions', async () => {
    expect((await post({ version: 2, entityType: ['company'], searchTerms: 'melbourne' })).body).toEqual([
      { ...SOUTHGATE, usesCAF: true, cafUrl: 'https://southgateclinics.example/caf' },
    ]);
  });

  it('Omar (NZ, no profession) is offered Westfield Labs, partly: it asks for an MCNZ number he has not given', async () => {
    const res = await post({ version: 1, entityType: ['company'] }, t.as(OMAR));
    expect(res.body.map((e: any) => [e.entityId, e.companyCountry, e.companyState])).toEqual([[String(westfield), 'New Zealand', null]]);
  });

  it('a user whose profile meets no criterion gets an empty array', async () => {
    const user = await t.newUser({ countryCode: 'FR' });
    expect(await post({ version: 2, entityType: ['company'] }, user)).toMatchObject({ status: 200, body: [] });
  });
});

describe('control object validation', () => {
  const invalid = (field: string, message: string) => ({ status: 400, body: { errorCode: 'WSInvalidParameterException', message, field } });

  it.each([
    [
      { version: 3, entityType: ['company'] },
      {
        status: 400,
        body: { errorCode: 'WSUnsupportedVersionException', message: 'Version 3 is not supported; use 1 or 2.', field: 'version' },
      },
    ],
    [
      { version: 0, entityType: ['company'] },
      {
        status: 400,
        body: { errorCode: 'WSUnsupportedVersionException', message: 'Version 0 is not supported; use 1 or 2.', field: 'version' },
      },
    ],
    [{ entityType: ['company'] }, invalid('version', 'Invalid value for version.')],
    [{ version: 'two', entityType: ['company'] }, invalid('version', 'Invalid value for version.')],
    [{ version: 2 }, invalid('entityType', 'Invalid value for entityType.')],
    [{ version: 2, entityType: [] }, invalid('entityType', 'entityType must list at least one of company and event.')],
    [{ version: 2, entityType: ['company', 'person'] }, invalid('entityType', 'entityType must list at least one of company and event.')],
    [
      { version: 2, entityType: ['company'], searchTerms: '' },
      invalid('searchTerms', 'searchTerms, when present, must be a non-empty string.'),
    ],
    [
      { version: 2, entityType: ['company'], searchTerms: '   ' },
      invalid('searchTerms', 'searchTerms, when present, must be a non-empty string.'),
    ],
    // A number would be taken as its text (legacy decoding); a boolean is not text.
    [{ version: 2, entityType: ['company'], searchTerms: true }, invalid('searchTerms', 'Invalid value for searchTerms.')],
    [
      { version: 2, entityType: ['company'], searchTerms: 'x'.repeat(256) },
      {
        status: 400,
        // Endpoint 3 lists no WSFieldLengthException.
        body: { errorCode: 'WSInvalidParameterException', message: 'searchTerms must be at most 255 characters.', field: 'searchTerms' },
      },
    ],
  ])('%j is refused', async (body, expected) => {
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual(expected);
  });

  it('without an auth token: 401 WSInvalidAuthTokenException', async () => {
    const res = await t.rest('POST', '/rest/user/recommended/entities', { body: { version: 2, entityType: ['company'] } });
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('GraphQL recommendedEntities', () => {
  const QUERY = `query($terms: String) {
    recommendedEntities(version: 2, entityType: ["company"], searchTerms: $terms) {
      entityId companyName entityConnectionPending usesCAF
      company { companyId companyState companyCountry companyLogoURL criteria { criteriaId countries professions specialties identifiers } identifierDefinitions { identifierId name desc } }
    }
  }`;

  it('answers the demo list with each company and its criteria', async () => {
    const res = await olivia.gql(QUERY);
    expect(res.body.errors).toBeUndefined();
    const [pendingPartners, southgateClinics, eastwoodCare] = res.body.data!.recommendedEntities;
    expect(pendingPartners).toMatchObject({ entityId: String(DEMO.companies.pending), entityConnectionPending: true, usesCAF: false });
    expect(southgateClinics.company).toEqual({
      companyId: southgate,
      companyState: 'Victoria',
      companyCountry: 'Australia',
      companyLogoURL: `${base}/${southgate}/logo.png`,
      criteria: [
        { criteriaId: 602, countries: ['AU'], professions: [101], specialties: [201, 202], identifiers: [] },
        { criteriaId: 603, countries: ['AU'], professions: [102], specialties: [], identifiers: [] },
      ],
      identifierDefinitions: [],
    });
    expect(eastwoodCare.company.identifierDefinitions).toEqual([
      { identifierId: DEMO.identifiers.ahpra, name: 'AHPRA', desc: 'Australian Health Practitioner Regulation Agency registration number' },
    ]);
  });

  it('version 1 answers null for usesCAF and cafUrl', async () => {
    const res = await olivia.gql(`{ recommendedEntities(version: 1, entityType: ["company"]) { entityId usesCAF cafUrl } }`);
    expect(res.body.data!.recommendedEntities[1]).toEqual({ entityId: String(southgate), usesCAF: null, cafUrl: null });
  });

  it('the statement count does not grow with the companies returned and their criteria', async () => {
    const tag = `gql${suffix()}`;
    const auth = await t.newUser({ countryCode: 'AU' });
    const idDef = await createIdentifier(t.orm, { countryCode: 'AU' });
    const add = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const c = await createCompany(t.orm, { companyName: `C${i} ${tag}` });
        await createCriterion(t.orm, c.companyId, { countries: ['AU'] });
        await createCriterion(t.orm, c.companyId, { identifiers: [idDef.identifierId] });
      }
    };
    await add(2);
    const run = async () => {
      const res = await auth.gql(QUERY, { terms: tag });
      expect(res.body.errors).toBeUndefined();
      return res.body.data!.recommendedEntities.length;
    };
    let rows = 0;
    const few = await t.countStatements(async () => (rows = await run()));
    expect(rows).toBe(2);
    await add(6);
    const many = await t.countStatements(async () => (rows = await run()));
    expect(rows).toBe(8);
    expect(many).toBe(few);
    // The caller's user row, the rate limit's two statements, the matching itself, then one
    // batched statement each for the companies, their criteria and the identifier definitions.
    expect(few).toBe(7);
  });
});

describe('the companies read as one packed value (src/modules/discovery/discovery.packed.ts)', () => {
  it('a company whose texts hold the separators is answered exactly, the rows then read plain in one more statement', async () => {
    const tag = `pack${suffix()}`;
    const auth = await t.newUser({ countryCode: 'AU' });
    const plain = await createCompany(t.orm, { companyName: `Plain ${tag}`, companyDesc: '', companyCity: null });
    await createCriterion(t.orm, plain.companyId, { countries: ['AU'] });
    const entry = (id: number, name: string, desc: string | null, city: string | null) => ({
      entityType: 'company',
      entityId: String(id),
      entityConnectionPending: false,
      companyBannerURL: null,
      companyLogoURL: null,
      companyName: name,
      companyDesc: desc,
      companyAddress: null,
      companyCity: city,
      companyPostcode: null,
      companyState: null,
      companyCountry: 'Australia',
      companyContactName: null,
      companyContactEmail: null,
      companyWebsite: null,
      usesCAF: false,
      cafUrl: null,
    });
    let res: any;
    const packed = await t.countStatements(async () => (res = await post({ version: 2, entityType: ['company'], searchTerms: tag }, auth)));
    expect(res.body).toEqual([entry(plain.companyId, `Plain ${tag}`, '', null)]);

    // A description that would forge a second row, and a city that is the packing's NULL mark.
    const odd = await createCompany(t.orm, { companyName: `Odd ${tag}`, companyDesc: `x\u001f\u001e1\u001fForged`, companyCity: '\u001d' });
    await createCriterion(t.orm, odd.companyId, { countries: ['AU'] });
    const fallback = await t.countStatements(
      async () => (res = await post({ version: 2, entityType: ['company'], searchTerms: tag }, auth)),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      entry(odd.companyId, `Odd ${tag}`, `x\u001f\u001e1\u001fForged`, '\u001d'),
      entry(plain.companyId, `Plain ${tag}`, '', null),
    ]);
    expect(fallback).toBe(packed + 1);
  });
});
