import { route, type RouteDef } from '../../rest/route';

export const discoveryRoutes: RouteDef[] = [
  route({
    at: 'POST /rest/user/recommended/entities',
    credential: 'user',
    // usesCAF and cafUrl exist from version 2 on; under version 1 the keys are left out.
    document: `query getRecommendedEntitiesForUser($version: Int!, $entityType: [String!]!, $searchTerms: String, $withCaf: Boolean!) {
      recommendedEntities(version: $version, entityType: $entityType, searchTerms: $searchTerms) {
        entityType entityId entityConnectionPending companyBannerURL companyLogoURL companyName companyDesc companyAddress
        companyCity companyPostcode companyState companyCountry companyContactName companyContactEmail companyWebsite
        usesCAF @include(if: $withCaf)
        cafUrl @include(if: $withCaf)
      }
    }`,
    computed: { withCaf: (v) => v.version !== 1 },
    description:
      'The control object is the JSON body. A company is returned once when one of its criteria is fully or partly met by the profile, full matches first, then by name; ' +
      'accepted connections, hidden walls and inactive companies never. entityConnectionPending is true for a request awaiting vetting. ' +
      'Banner and logo URLs are PUBLIC_BASE_URL/files/<storage key>.',
    // The specification's list for endpoint 3 (a searchTerms over its bound is WSInvalidParameterException).
    errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSDiscoverableServiceException'],
  }),
  route({
    at: 'POST /rest/user/recommended/entityCriteria',
    credential: 'user',
    document: `query getRecommendedCriteriaForEntity($version: Int!, $entityType: String!, $entityId: String!) {
      recommendedCriteria(version: $version, entityType: $entityType, entityId: $entityId) {
        criteria { criteriaId countries professions specialties identifiers }
        identifierDefinitions { identifierId name desc formatDesc formatRegex countryCode }
      }
    }`,
    description: 'The control object is the JSON body. Unknown, hidden and inactive companies are WSInvalidParameterException (entityId).',
    errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSDiscoverableServiceException'],
  }),
];
