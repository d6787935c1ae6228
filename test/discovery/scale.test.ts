// Matching runs in the database: recommending from 10,000 matching companies takes as many
// SQL statements as recommending from 10.
import { useTestApp } from '../kit';
import { matchLevels } from '../../src/modules/discovery/discovery.queries';
import { matchParams } from '../../src/modules/discovery/matching';
import { recommendedCompanies } from '../../src/modules/connection/connection.queries';
import { send } from '../../src/db/sql';

const profile = matchParams({ uId: 1, countryCode: 'NZ', professionId: 102, specialtyId: null });

const t = useTestApp({ demo: false });

/** Bulk-inserts companies named "Scale <n>" with one criterion each, alternating full and partial matches for an AU doctor. */
async function seedCompanies(from: number, to: number): Promise<void> {
  await t.sql(`
    insert into company (company_id, company_name, company_city, company_country_code, company_state_code, logo_key)
    select n, 'Scale ' || lpad(n::text, 6, '0'), 'Sydney', 'AU', 'NSW', 'companies/' || n || '/logo.png'
    from generate_series(${from}, ${to}) n`);
  await t.sql(`
    insert into discovery_criterion (company_id, countries, professions, specialties, identifiers)
    select n, '{AU}', case when n % 2 = 0 then '{101}'::int[] else '{}'::int[] end, '{}', case when n % 2 = 0 then '{}'::int[] else '{1}'::int[] end
    from generate_series(${from}, ${to}) n`);
  await t.sql('analyze company');
  await t.sql('analyze discovery_criterion');
}

it('the statement count with 10,000 companies equals that with 10', async () => {
  await t.sql(`insert into identifier_definition (identifier_id, name, description, country_code) values (1, 'REG', 'Registration', 'AU')`);
  const user = await t.newUser({ countryCode: 'AU', professionId: 101 });
  const call = () => user.rest('POST', '/rest/user/recommended/entities', { body: { version: 2, entityType: ['company'] } });

  await seedCompanies(1, 10);
  let res: any;
  const ten = await t.countStatements(async () => (res = await call()));
  expect(res.status).toBe(200);
  expect(res.body).toHaveLength(10);

  await seedCompanies(11, 10_000);
  const tenThousand = await t.countStatements(async () => (res = await call()));
  expect(res.status).toBe(200);
  expect(res.body).toHaveLength(10_000);
  expect(tenThousand).toBe(ten);
  // The caller's user row, the rate limit's two statements, and the matching itself.
  expect(ten).toBe(4);

  // Full matches (even ids) first, by name; then the partial ones.
  expect(res.body.slice(0, 2).map((e: any) => e.entityId)).toEqual(['2', '4']);
  expect(res.body[4999].entityId).toBe('10000');
  expect(res.body[5000].entityId).toBe('1');
  expect(res.body[5000].companyLogoURL).toBe('http://localhost:4000/files/companies/1/logo.png');
});

// Runs on the 10,000 companies seeded above. The statements are prepared: after a few runs
// PostgreSQL may keep one plan for all values, planned without them; that plan must use the index
// too. The matching fragment (discovery.queries.ts companyLevels) is one text for every profile,
// a value not given being a null parameter: here a profile without a specialty, in the recommended
// companies' statement and in levelsFor's.
it.each([
  ['recommended companies', () => recommendedCompanies.packed.statement(t.orm.em, { ...profile, patterns: [] })],
  ['levelsFor', () => matchLevels.statement(t.orm.em, { ...profile, companyIds: [2, 3, 5, 7, 11, 13] })],
])(
  '%s: a selective profile is matched through the index, not by reading every criterion, also in the plan kept for all values',
  async (_, statement) => {
    const { sql, params } = statement();
    // EXECUTE takes its values as literals.
    const literal = (v: unknown): string => {
      if (v === null) return 'null';
      if (typeof v === 'number') return String(v);
      const text = Array.isArray(v) ? `{${(v as string[]).map((x) => `"${x}"`).join(',')}}` : (v as string);
      return `'${text.replace(/'/g, "''")}'`;
    };
    const plans = await t.orm.em.fork().transactional(async (tx) => {
      const run = async (text: string) => send<Record<string, string>>(tx, text, [], false);
      const explain = async () =>
        (await run(`explain execute match_plan(${params.map(literal).join(', ')})`)).map((r) => r['QUERY PLAN']).join('\n');
      await run(`prepare match_plan as ${sql}`);
      try {
        const custom = await explain();
        await run('set local plan_cache_mode = force_generic_plan');
        return [custom, await explain()];
      } finally {
        await run('deallocate match_plan');
      }
    });
    for (const plan of plans) {
      expect(plan).toMatch(/Bitmap Index Scan on "?discovery_criterion_match_keys/);
      expect(plan).not.toMatch(/Seq Scan on "?discovery_criterion/);
    }
    // The generic plan is planned without the values: no literal key appears in it.
    expect(plans[1]).toContain('$5');
  },
);
