// The matching rule of docs/api/discovery.md through getRecommendedEntitiesForUser: each dimension open,
// matched, unknown and mismatched; full before partial; once per company; the order; the
// three exclusions; pending requests; search terms.
//
// Each case gets its own tag (searchTerms isolates it) and two companies: the case company
// "B <tag>" and an anchor "A <tag>" that is always partly met. Full matches come first, then
// names, so the answer tells the level: full [B, A], partial [A, B], not met [A].
import {
  connect,
  createCompany,
  createCriterion,
  createIdentifier,
  giveIdentifier,
  suffix,
  useTestApp,
  type Client,
  type Dims,
} from '../kit';
import type { User } from '../../src/modules/user/user.entity';

const t = useTestApp();
const ids = { auHeld: 0, auNever: 0, nz: 0 };

beforeAll(async () => {
  ids.auHeld = (await createIdentifier(t.orm, { countryCode: 'AU' })).identifierId;
  ids.auNever = (await createIdentifier(t.orm, { countryCode: 'AU' })).identifierId;
  ids.nz = (await createIdentifier(t.orm, { countryCode: 'NZ' })).identifierId;
});

const PROFILE = { countryCode: 'AU', professionId: 101, specialtyId: 201 };

async function userWith(profile: Partial<User>, held: number[] = []): Promise<{ user: User; auth: Client }> {
  const u = await t.newUser({ ...PROFILE, ...profile });
  for (const id of held) await giveIdentifier(t.orm, u.uId, id);
  return { user: u.user, auth: u };
}

async function recommend(auth: Client, searchTerms: string, version = 2) {
  const res = await auth.rest('POST', '/rest/user/recommended/entities', { body: { version, entityType: ['company'], searchTerms } });
  expect(res.status).toBe(200);
  return res.body as any[];
}

type Expect = 'full' | 'partial' | 'none';

interface Case {
  name: string;
  criterion: () => Dims;
  profile?: Partial<User>;
  held?: () => number[];
  expected: Expect;
}

const CASES: Case[] = [
  { name: 'country open', criterion: () => ({ countries: [] }), expected: 'full' },
  { name: 'country match', criterion: () => ({ countries: ['NZ', 'AU'] }), expected: 'full' },
  { name: 'country unknown', criterion: () => ({ countries: ['AU'] }), profile: { countryCode: null }, expected: 'partial' },
  { name: 'country mismatch', criterion: () => ({ countries: ['NZ'] }), expected: 'none' },
  { name: 'profession open', criterion: () => ({ countries: ['AU'], professions: [] }), expected: 'full' },
  { name: 'profession match', criterion: () => ({ professions: [101] }), expected: 'full' },
  { name: 'profession unknown', criterion: () => ({ professions: [101] }), profile: { professionId: null }, expected: 'partial' },
  { name: 'profession mismatch', criterion: () => ({ professions: [102] }), expected: 'none' },
  { name: 'specialty open', criterion: () => ({ professions: [101], specialties: [] }), expected: 'full' },
  { name: 'specialty match', criterion: () => ({ specialties: [202, 201] }), expected: 'full' },
  { name: 'specialty unknown', criterion: () => ({ specialties: [201] }), profile: { specialtyId: null }, expected: 'partial' },
  { name: 'specialty mismatch', criterion: () => ({ specialties: [202] }), expected: 'none' },
  { name: 'identifier open', criterion: () => ({ identifiers: [] }), held: () => [ids.auHeld], expected: 'full' },
  { name: 'identifier match', criterion: () => ({ identifiers: [ids.auHeld] }), held: () => [ids.auHeld], expected: 'full' },
  { name: 'identifier match, issued elsewhere', criterion: () => ({ identifiers: [ids.nz] }), held: () => [ids.nz], expected: 'full' },
  {
    name: 'identifier unknown (own country, not held)',
    criterion: () => ({ identifiers: [ids.auNever, ids.nz] }),
    held: () => [ids.auHeld],
    expected: 'partial',
  },
  {
    name: 'identifier unknown (no country)',
    criterion: () => ({ identifiers: [ids.nz] }),
    profile: { countryCode: null },
    expected: 'partial',
  },
  {
    name: 'identifier mismatch (none issued in own country)',
    criterion: () => ({ identifiers: [ids.nz] }),
    held: () => [ids.auHeld],
    expected: 'none',
  },
  {
    name: 'unknown and mismatch: not met',
    criterion: () => ({ countries: ['NZ'], professions: [101] }),
    profile: { professionId: null },
    expected: 'none',
  },
  {
    name: 'two unknowns: partial',
    criterion: () => ({ professions: [101], specialties: [201] }),
    profile: { professionId: null, specialtyId: null },
    expected: 'partial',
  },
  {
    name: 'several values in every list, each dimension matched',
    criterion: () => ({ countries: ['NZ', 'AU'], professions: [102, 101], specialties: [202, 201] }),
    expected: 'full',
  },
  {
    name: 'several values in every list, one dimension mismatched',
    criterion: () => ({ countries: ['NZ', 'AU'], professions: [102, 103], specialties: [202, 201] }),
    expected: 'none',
  },
  {
    name: 'no profile values, open lists: full',
    criterion: () => ({ identifiers: [] }),
    profile: { countryCode: null, professionId: null, specialtyId: null },
    expected: 'full',
  },
  {
    name: 'no profile values, every list set: partial',
    criterion: () => ({ countries: ['NZ'], professions: [102], specialties: [202] }),
    profile: { countryCode: null, professionId: null, specialtyId: null },
    expected: 'partial',
  },
  {
    name: 'every dimension matched',
    criterion: () => ({ countries: ['AU'], professions: [101], specialties: [201], identifiers: [ids.auHeld] }),
    held: () => [ids.auHeld],
    expected: 'full',
  },
];

describe('the matching rule, dimension by dimension', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const tag = `case${suffix()}`;
    const { auth } = await userWith(c.profile ?? {}, c.held?.() ?? []);
    const subject = await createCompany(t.orm, { companyName: `B ${tag}` });
    const anchor = await createCompany(t.orm, { companyName: `A ${tag}` });
    await createCriterion(t.orm, subject.companyId, c.criterion());
    await createCriterion(t.orm, anchor.companyId, { identifiers: [ids.auNever] });

    const names = (await recommend(auth, tag)).map((e) => e.companyName);
    const expected = { full: [`B ${tag}`, `A ${tag}`], partial: [`A ${tag}`, `B ${tag}`], none: [`A ${tag}`] }[c.expected];
    expect(names).toEqual(expected);
  });
});

describe('companies with several criteria', () => {
  it('when one criterion is partly and another fully met, then the company is a full match and appears once', async () => {
    const tag = `multi${suffix()}`;
    const { auth } = await userWith({});
    const subject = await createCompany(t.orm, { companyName: `B ${tag}` });
    const anchor = await createCompany(t.orm, { companyName: `A ${tag}` });
    await createCriterion(t.orm, subject.companyId, { identifiers: [ids.auNever] });
    await createCriterion(t.orm, subject.companyId, { countries: ['AU'] });
    await createCriterion(t.orm, subject.companyId, { professions: [101] });
    await createCriterion(t.orm, anchor.companyId, { identifiers: [ids.auNever] });
    expect((await recommend(auth, tag)).map((e) => e.entityId)).toEqual([String(subject.companyId), String(anchor.companyId)]);
  });

  it('when one criterion mismatches and another is partly met, then the company is a partial match', async () => {
    const tag = `mixed${suffix()}`;
    const { auth } = await userWith({});
    const subject = await createCompany(t.orm, { companyName: `A ${tag}` });
    const full = await createCompany(t.orm, { companyName: `B ${tag}` });
    await createCriterion(t.orm, subject.companyId, { countries: ['NZ'] });
    await createCriterion(t.orm, subject.companyId, { identifiers: [ids.auNever] });
    await createCriterion(t.orm, full.companyId, { countries: ['AU'] });
    expect((await recommend(auth, tag)).map((e) => e.entityId)).toEqual([String(full.companyId), String(subject.companyId)]);
  });

  it('when a company has no criteria, then it is never recommended', async () => {
    const tag = `nocrit${suffix()}`;
    const { auth } = await userWith({});
    await createCompany(t.orm, { companyName: `A ${tag}` });
    expect(await recommend(auth, tag)).toEqual([]);
  });
});

describe('order', () => {
  it('full matches first, then partial ones, each by name regardless of case, then by id', async () => {
    const tag = `order${suffix()}`;
    const { auth } = await userWith({});
    const make = async (name: string, dims: Dims) => {
      const c = await createCompany(t.orm, { companyName: `${name} ${tag}` });
      await createCriterion(t.orm, c.companyId, dims);
      return c;
    };
    await make('gamma', { countries: ['AU'] });
    await make('aardvark', { identifiers: [ids.auNever] });
    await make('Beta', { countries: ['AU'] });
    await make('alpha', { professions: [101] });
    await make('Zebra', { identifiers: [ids.auNever] });
    const twin1 = await make('twin', { countries: ['AU'] });
    const twin2 = await make('twin', { countries: ['AU'] });
    const body = await recommend(auth, tag);
    expect(body.map((e) => `${e.companyName.replace(` ${tag}`, '')}:${e.entityId}`)).toEqual([
      `alpha:${body[0].entityId}`,
      `Beta:${body[1].entityId}`,
      `gamma:${body[2].entityId}`,
      `twin:${twin1.companyId}`,
      `twin:${twin2.companyId}`,
      `aardvark:${body[5].entityId}`,
      `Zebra:${body[6].entityId}`,
    ]);
  });

  it('names are in the order of the database\'s ICU root collation ("und-x-icu"): accents, case, digits, punctuation', async () => {
    const tag = `icu${suffix()}`;
    const { auth } = await userWith({});
    const names = [
      'Émile',
      'eagle',
      'Emile',
      'acme',
      'Acme',
      'ACME',
      'Ärzte',
      'Arzt',
      'zeta',
      'Ωmega',
      '10 Labs',
      '9 Labs',
      "O'Brien",
      'Obrien',
      'o-brien',
      // Café composed (made first, so the lower id) and decomposed: equal to the collation, so
      // ordered by their bytes, the decomposed one first.
      'Caf\u00e9',
      'Cafe\u0301',
    ];
    for (const name of names) {
      const c = await createCompany(t.orm, { companyName: `${name} ${tag}` });
      await createCriterion(t.orm, c.companyId, { countries: ['AU'] });
    }
    const body = await recommend(auth, tag);
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select company_name from company where company_name like ? order by company_name collate "und-x-icu", company_id`, [
        `% ${tag}`,
      ]);
    expect(body.map((e) => e.companyName)).toEqual(rows.map((r: any) => r.company_name));
    // The collation, not code points: the accented and capitalised names sit beside their plain twins.
    expect(body.map((e) => e.companyName.replace(` ${tag}`, ''))).toEqual([
      '10 Labs',
      '9 Labs',
      'acme',
      'Acme',
      'ACME',
      'Arzt',
      'Ärzte',
      'Cafe\u0301',
      'Caf\u00e9',
      'eagle',
      'Emile',
      'Émile',
      'o-brien',
      "O'Brien",
      'Obrien',
      'zeta',
      'Ωmega',
    ]);
  });
});

describe('exclusions and connection states', () => {
  it('never returns accepted connections, hidden walls or inactive companies; returns requests by state', async () => {
    const tag = `state${suffix()}`;
    const { user, auth } = await userWith({});
    const make = async (name: string, data: object, dims: Dims = { countries: ['AU'] }) => {
      const c = await createCompany(t.orm, { companyName: `${name} ${tag}`, ...data });
      await createCriterion(t.orm, c.companyId, dims);
      return c;
    };
    const accepted = await make('accepted', {});
    await make('hidden', { hiddenWall: true });
    await make('inactive', { active: false });
    const pending = await make('pending', {});
    const pendingPartial = await make('pendingpartial', {}, { identifiers: [ids.auNever] });
    const requested = await make('requested', {}, { identifiers: [ids.auNever] });
    const rejected = await make('rejected', {});
    const free = await make('free', {});
    await connect(t.orm, user.uId, accepted.companyId, 'accepted');
    await connect(t.orm, user.uId, pending.companyId, 'pending');
    await connect(t.orm, user.uId, pendingPartial.companyId, 'pending');
    await connect(t.orm, user.uId, requested.companyId, 'requested');
    await connect(t.orm, user.uId, rejected.companyId, 'rejected');

    const body = await recommend(auth, tag);
    expect(body.map((e) => [e.companyName.replace(` ${tag}`, ''), e.entityConnectionPending])).toEqual([
      ['free', false],
      ['pending', true],
      ['rejected', false],
      ['pendingpartial', false],
      ['requested', false],
    ]);
    expect(body.map((e) => e.entityId)).toEqual([free, pending, rejected, pendingPartial, requested].map((c) => String(c.companyId)));
  });

  it("another user's connection does not affect the caller", async () => {
    const tag = `other${suffix()}`;
    const { auth } = await userWith({});
    const { user: other } = await userWith({});
    const c = await createCompany(t.orm, { companyName: `X ${tag}` });
    await createCriterion(t.orm, c.companyId, { countries: ['AU'] });
    await connect(t.orm, other.uId, c.companyId, 'accepted');
    expect((await recommend(auth, tag)).map((e) => [e.entityId, e.entityConnectionPending])).toEqual([[String(c.companyId), false]]);
  });
});

describe('searchTerms', () => {
  it('every term must occur in the name, description or city, case-insensitive; wildcards are literal', async () => {
    const tag = `search${suffix()}`;
    const { auth } = await userWith({});
    const make = async (data: object) => {
      const c = await createCompany(t.orm, { companyName: `Company ${tag}`, ...data });
      await createCriterion(t.orm, c.companyId, { countries: ['AU'] });
      return c;
    };
    const byName = await make({ companyName: `Heart Clinic ${tag}`, companyDesc: null, companyCity: 'Darwin' });
    const byDesc = await make({ companyName: `Other ${tag}`, companyDesc: 'A HEART centre', companyCity: 'Hobart' });
    const byCity = await make({ companyName: `Third ${tag}`, companyDesc: '100% care_plans', companyCity: 'Heartsville' });
    await make({ companyName: `Fourth ${tag}`, companyDesc: 'Lungs', companyCity: 'Perth' });

    const ids = async (terms: string) => (await recommend(auth, terms)).map((e) => e.entityId);
    expect(await ids(`heart ${tag.toUpperCase()}`)).toEqual([byName, byDesc, byCity].map((c) => String(c.companyId)));
    expect(await ids(`  ${tag}   darwin `)).toEqual([String(byName.companyId)]);
    expect(await ids(`${tag} 100%`)).toEqual([String(byCity.companyId)]);
    expect(await ids(`${tag} t_ird`)).toEqual([]);
    expect(await ids(`${tag} %`)).toEqual([String(byCity.companyId)]);
    expect(await ids(`${tag} nowhere`)).toEqual([]);
  });
});
