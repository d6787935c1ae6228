// The discovery module's hand-written SQL (docs/development.md, "Reads and writes"), in
// schema/sql/discovery.sql: a company's criteria with the identifier definitions they reference
// (getRecommendedCriteriaForEntity). Whether the company may be discovered is the company module's
// fragment.
import { sql } from 'kysely';
import { queriesOf } from '../../db/sql';
import { companyDiscoverable } from '../company';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition, UserIdentifier } from './identifier.entity';

const { compiled } = queriesOf({ DiscoveryCriterion, IdentifierDefinition, UserIdentifier });

/**
 * Whether the company is discoverable (null when there is no such company), its criteria (id
 * order) and the identifier definitions they reference (id order, each once), as JSON arrays whose
 * keys are the GraphQL types' property names. One row.
 */
export const discoverableCriteria = compiled(
  (db, p: { companyId: number }) => {
    const company = sql<number>`${p.companyId}::int`;
    const criteria = db
      .selectFrom('DiscoveryCriterion as c')
      .select((c) =>
        sql`coalesce(json_agg(json_build_object('criterionId', ${c.ref('c.criterionId')}, 'countries', ${c.ref('c.countries')}, 'professions', ${c.ref('c.professions')}, 'specialties', ${c.ref('c.specialties')}, 'identifiers', ${c.ref('c.identifiers')}) order by ${c.ref('c.criterionId')}), '[]')`.as(
          'v',
        ),
      )
      .where('c.company', '=', company);
    const definitions = db
      .selectFrom('IdentifierDefinition as d')
      .select((d) =>
        sql`coalesce(json_agg(json_build_object('identifierId', ${d.ref('d.identifierId')}, 'name', ${d.ref('d.name')}, 'description', ${d.ref('d.description')}, 'formatDesc', ${d.ref('d.formatDesc')}, 'formatRegex', ${d.ref('d.formatRegex')}, 'countryCode', ${d.ref('d.countryCode')}) order by ${d.ref('d.identifierId')}), '[]')`.as(
          'v',
        ),
      )
      .where((d) =>
        d(
          'd.identifierId',
          'in',
          db
            .selectFrom('DiscoveryCriterion as c')
            .select((c) => sql<number>`unnest(${c.ref('c.identifiers')})`.as('id'))
            .where('c.company', '=', company),
        ),
      );
    return db
      .selectNoFrom([
        sql<boolean | null>`${companyDiscoverable(company)}`.as('discoverable'),
        criteria.as('criteria'),
        definitions.as('definitions'),
      ])
      .$castTo<{ discoverable: boolean | null; criteria: DiscoveryCriterion[]; definitions: IdentifierDefinition[] }>();
  },
  { prepared: true },
);
