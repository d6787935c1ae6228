import type { RouteDef } from '../../rest/route';

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const int = { type: 'integer' };

const RECOMMENDED_ENTITY = {
  type: 'object',
  properties: {
    entityType: str,
    entityId: str,
    entityConnectionPending: { type: 'boolean' },
    companyBannerURL: nullableStr,
    companyLogoURL: nullableStr,
    companyName: { type: 'string', maxLength: 100 },
    companyDesc: nullableStr,
    companyAddress: nullableStr,
    companyCity: nullableStr,
    companyPostcode: nullableStr,
    companyState: nullableStr,
    companyCountry: nullableStr,
    companyContactName: nullableStr,
    companyContactEmail: nullableStr,
    companyWebsite: nullableStr,
    usesCAF: { type: 'boolean', description: 'Version 2 only.' },
    cafUrl: { ...nullableStr, description: 'Version 2 only.' },
  },
  required: [
    'entityType', 'entityId', 'entityConnectionPending', 'companyBannerURL', 'companyLogoURL', 'companyName', 'companyDesc', 'companyAddress',
    'companyCity', 'companyPostcode', 'companyState', 'companyCountry', 'companyContactName', 'companyContactEmail', 'companyWebsite',
  ],
};

export const discoveryRoutes: RouteDef[] = [
  {
    operation: 'getRecommendedEntitiesForUser',
    method: 'POST',
    path: '/rest/user/recommended/entities',
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
    variables: (req) => ({
      version: req.body?.version,
      entityType: req.body?.entityType,
      searchTerms: req.body?.searchTerms,
      withCaf: req.body?.version !== 1,
    }),
    result: (data) => data.recommendedEntities,
    openapi: {
      summary: 'Companies recommended to the caller (3).',
      description:
        'The control object is the JSON body. A company is returned once when one of its criteria is fully or partly met by the profile, full matches first, then by name; ' +
        'accepted connections, hidden walls and inactive companies never. entityConnectionPending is true for a request awaiting vetting. ' +
        'Banner and logo URLs are PUBLIC_BASE_URL/files/<storage key>.',
      tags: ['Discovery'],
      requestBody: {
        type: 'object',
        properties: {
          version: { type: 'integer', enum: [1, 2], description: '2: current; 1: without usesCAF and cafUrl.' },
          entityType: { type: 'array', minItems: 1, items: { type: 'string', enum: ['company', 'event'] } },
          searchTerms: { type: 'string', minLength: 1, maxLength: 255, description: 'Words that must each occur in the name, description or city.' },
        },
        required: ['version', 'entityType'],
      },
      response: { type: 'array', items: RECOMMENDED_ENTITY },
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSUnsupportedVersionException', 'WSDiscoverableServiceException'],
    },
  },
  {
    operation: 'getRecommendedCriteriaForEntity',
    method: 'POST',
    path: '/rest/user/recommended/entityCriteria',
    credential: 'user',
    document: `query getRecommendedCriteriaForEntity($version: Int!, $entityType: String!, $entityId: String!) {
      recommendedCriteria(version: $version, entityType: $entityType, entityId: $entityId) {
        criteria { criteriaId countries professions specialties identifiers }
        identifierDefinitions { identifierId name desc formatDesc formatRegex countryCode }
      }
    }`,
    variables: (req) => ({ version: req.body?.version, entityType: req.body?.entityType, entityId: req.body?.entityId }),
    result: (data) => data.recommendedCriteria,
    openapi: {
      summary: 'Discovery criteria of a company and the identifier definitions they reference (4).',
      description: 'The control object is the JSON body. Unknown, hidden and inactive companies are WSInvalidParameterException (entityId).',
      tags: ['Discovery'],
      requestBody: {
        type: 'object',
        properties: {
          version: { type: 'integer', enum: [1] },
          entityType: { type: 'string', enum: ['company', 'event'] },
          entityId: { type: 'string', description: 'The company id as text.' },
        },
        required: ['version', 'entityType', 'entityId'],
      },
      response: {
        type: 'object',
        properties: {
          criteria: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                criteriaId: int,
                countries: { type: 'array', items: str },
                professions: { type: 'array', items: int },
                specialties: { type: 'array', items: int },
                identifiers: { type: 'array', items: int },
              },
              required: ['criteriaId', 'countries', 'professions', 'specialties', 'identifiers'],
            },
          },
          identifierDefinitions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { identifierId: int, name: str, desc: str, formatDesc: nullableStr, formatRegex: nullableStr, countryCode: str },
              required: ['identifierId', 'name', 'desc', 'formatDesc', 'formatRegex', 'countryCode'],
            },
          },
        },
        required: ['criteria', 'identifierDefinitions'],
      },
      errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', 'WSDiscoverableServiceException'],
    },
  },
];
