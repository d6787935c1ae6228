import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { EntityCriteria, RecommendedEntity } from './discovery.types';

/** A recommended entity: every field of its type (discovery.types.ts), those of version 2 on last. */
const ENTITY_FIELDS = body(RecommendedEntity, new Map([[RecommendedEntity, { omit: ['company', 'usesCAF', 'cafUrl'] }]]));
/** The version 2 fields, selected under version 2 only (withCaf). */
const CAF_FIELDS = 'usesCAF @include(if: $withCaf) cafUrl @include(if: $withCaf)';

export const discoveryRoutes: DeclaredRoute[] = [
  route({
    at: 'POST /rest/user/recommended/entities',
    credential: 'user',
    // usesCAF and cafUrl exist from version 2 on; under version 1 the keys are left out.
    document: doc`query getRecommendedEntitiesForUser($version: Int!, $entityType: [String!]!, $searchTerms: String, $withCaf: Boolean!) {
      recommendedEntities(version: $version, entityType: $entityType, searchTerms: $searchTerms) { ${ENTITY_FIELDS} ${CAF_FIELDS} }
    }`,
    computed: { withCaf: (v) => v.version !== 1 },
    description:
      'The control object is the JSON body. A company is listed once however many of its criteria are met; entityConnectionPending is true ' +
      'for a request awaiting vetting. Banner and logo URLs are PUBLIC_BASE_URL/files/<storage key>.',
    // The specification's list for endpoint 3 (a searchTerms over its bound is WSInvalidParameterException).
    errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSDiscoverableServiceException'],
  }),
  route({
    at: 'POST /rest/user/recommended/entityCriteria',
    credential: 'user',
    document: doc`query getRecommendedCriteriaForEntity($version: Int!, $entityType: String!, $entityId: String!) {
      recommendedCriteria(version: $version, entityType: $entityType, entityId: $entityId) { ${body(EntityCriteria, new Map())} }
    }`,
    description: 'The control object is the JSON body. Unknown, hidden and inactive companies are WSInvalidParameterException (entityId).',
    errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSDiscoverableServiceException'],
  }),
];
