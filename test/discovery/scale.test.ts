// Matching runs in the database: recommending from 10,000 matching companies takes as many
// SQL statements as recommending from 10.
import { useTestApp } from '../kit';
import { companyLevels } from '../../src/modules/discovery/matching';
import { Params, runSql } from '../../src/db/lean';

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

// Runs on the 10,000 companies seeded above. The statement is prepared (runPrepared): after a few
// runs PostgreSQL may keep one plan for all values, planned without them; that plan must use the
// index too.
it('a selective profile is matched through the indexes, not by reading every criterion, also in the plan kept for all values', async () => {
  const params = new Params();
  const text = companyLevels({ uId: 1, countryCode: 'NZ', professionId: 102, specialtyId: null }, params);
  const [uId, country, keys] = params.values as [number, string, string[]];
  const plans = await t.orm.em.fork().transactional(async (tx) => {
    const explain = async () =>
      (await runSql<any>(tx, `explain execute match_plan(?, ?, ?::text[])`, [uId, country, `{${keys.map((k) => `"${k}"`).join(',')}}`]))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    await runSql(tx, `prepare match_plan as ${text}`);
    const custom = await explain();
    await runSql(tx, 'set local plan_cache_mode = force_generic_plan');
    const generic = await explain();
    await runSql(tx, 'deallocate match_plan');
    return [custom, generic];
  });
  for (const plan of plans) {
    expect(plan).toMatch(/Bitmap Index Scan on "?discovery_criterion_match_keys/);
    expect(plan).not.toMatch(/Seq Scan on "?discovery_criterion/);
  }
  // The generic plan is planned without the values: no literal key appears in it.
  expect(plans[1]).toContain('$3');
});
