// getRecommendedCriteriaForEntity as a read model: whether the company is discoverable, its
// criteria and the identifier definitions they reference, in one statement answering plain
// objects for the GraphQL types (no Company or criterion entities hydrated). It replaces a company
// lookup, a criteria lookup and, when criteria ask for identifiers, a definitions lookup.
import { readModel } from '../../db/lean';
import { Company } from '../company';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition } from './identifier.entity';
import type { EntityCriteria } from './discovery.types';

interface Row {
  discoverable: boolean;
  criteria: DiscoveryCriterion[];
  definitions: IdentifierDefinition[];
}

/** The company's criteria (id order) and their definitions (id order, each once); null when it is unknown, inactive or hidden. */
export const discoverableCriteria = readModel<EntityCriteria | null, [companyId: number], Row>({
  sql: (names) => {
    const co = names(Company);
    const c = names(DiscoveryCriterion);
    const d = names(IdentifierDefinition);
    // json_build_object keys are the GraphQL types' property names; json arrives parsed.
    return `select co.${co.column('active')} and not co.${co.column('hiddenWall')} as discoverable,
      coalesce((select json_agg(json_build_object('criterionId', c.${c.column('criterionId')}, 'countries', c.${c.column('countries')},
          'professions', c.${c.column('professions')}, 'specialties', c.${c.column('specialties')}, 'identifiers', c.${c.column('identifiers')})
          order by c.${c.column('criterionId')})
        from ${c.table} c where c.${c.column('company')} = co.${co.column('companyId')}), '[]') as criteria,
      coalesce((select json_agg(json_build_object('identifierId', d.${d.column('identifierId')}, 'name', d.${d.column('name')},
          'description', d.${d.column('description')}, 'formatDesc', d.${d.column('formatDesc')}, 'formatRegex', d.${d.column('formatRegex')},
          'countryCode', d.${d.column('countryCode')}) order by d.${d.column('identifierId')})
        from ${d.table} d where d.${d.column('identifierId')} in (
          select unnest(c.${c.column('identifiers')}) from ${c.table} c where c.${c.column('company')} = co.${co.column('companyId')})), '[]') as definitions
      from ${co.table} co where co.${co.column('companyId')} = ?`;
  },
  shape: (row) => (row.discoverable ? { criteria: row.criteria, identifierDefinitions: row.definitions } : null),
  prepared: true,
});
