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
