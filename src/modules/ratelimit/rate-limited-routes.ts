// The REST operations whose resolvers call consume(): /openapi.json documents their 429.
export const RATE_LIMITED_OPERATIONS: ReadonlySet<string> = new Set(['loginUser', 'getRecommendedEntitiesForUser', 'uploadSmartFile', 'uploadTileImage']);
