// Resource limits for client-written GraphQL documents (OWASP API4). REST documents are our
// own, validated once at start-up, and not subject to these.
import { ApolloArmor } from '@escape.tech/graphql-armor';

export const GRAPHQL_LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  maxDirectives: 20,
  maxTokens: 2000,
  maxCost: 5000,
} as const;

/**
 * The representations one `_entities` request may carry (all its `_entities` fields together),
 * in number and in bytes of JSON. The router sends one `_entities` request per fetch step of a
 * query plan, holding the distinct entities of this subgraph that the step reaches: at most the
 * items of the lists the operation read from other subgraphs. 2,000 covers a page of 100 items
 * with 20 references each; a key representation is 40 to 90 bytes (a SmartDirectory's, with its
 * UUID, the longest), so 128 bytes each is 256 KiB. Checked before execution
 * (plugins/representations.ts): a request past either bound is refused whole, never processed.
 */
export const ENTITIES_LIMITS = {
  maxRepresentations: 2000,
  maxRepresentationBytes: 256 * 1024,
} as const;

export function graphqlArmor() {
  return new ApolloArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, allowList: [] },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    // The token limit is graphql-js's own parse option (see graphql/apollo.ts), which Apollo reports as a
    // parse failure (400); armor's plugin would surface as a 500.
    maxTokens: { enabled: false },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1.5, ignoreIntrospection: true },
    // Apollo's hideSchemaDetailsFromClientErrors hides suggestions when GRAPHQL_SUGGESTIONS is off (graphql/apollo.ts).
    blockFieldSuggestion: { enabled: false },
  }).protect();
}
