// getRecommendedCriteriaForEntity as a read: whether the company is discoverable, its criteria and
// the identifier definitions they reference, in one statement (discovery.queries.ts) answering
// plain objects for the GraphQL types (no Company or criterion entities hydrated). It replaces a
// company lookup, a criteria lookup and, when criteria ask for identifiers, a definitions lookup.
import type { EntityManager } from '@mikro-orm/core';
import { discoverableCriteria as criteriaOf } from './discovery.queries';
import type { EntityCriteria } from './discovery.types';

/** The company's criteria (id order) and their definitions (id order, each once); null when it is unknown, inactive or hidden. */
export async function discoverableCriteria(em: EntityManager, companyId: number): Promise<(EntityCriteria | null)[]> {
  const [row] = await criteriaOf.run(em, { companyId });
  return [row?.discoverable ? { criteria: row.criteria, identifierDefinitions: row.definitions } : null];
}
