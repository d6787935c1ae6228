import type { RouteDef } from '../../rest/route';

const str = { type: ['string', 'null'] };
const int = { type: ['integer', 'null'] };
const bool = { type: 'boolean' };

/** Every field of the profile, in the spec's order; the REST body carries all of them. */
const PROFILE_SELECTION = `uId uTitleId uTitle uGenderCode uGenderName uFirstName uLastName uEmail uCountryCode uCountryName
  uPrimaryMobile uInterests uDietaryRequirements uTreatmentNotes uDateOfBirth uCreationDate uPhoto
  uEnableLocation uEnableNotifications uAllowAllEmails uAllowNewsletterEmail
  uProfessionId uProfessionName uSpecialtyId uSpecialtyName uConditionId uConditionName
  uOtherTitle uOtherProfession uOtherSpecialty uSocialNetworkAId uSocialNetworkBId uSocialNetworkCId uSocialNetworkCUrl
  uTimezoneId uTimezoneName uServiceTsAndCs uServiceTrackingConsent uCloudStorageConsent uSearchProviderConsent uSocialNetworkAConsent`;

const PROFILE_SCHEMA = {
  uId: { type: 'integer' }, uTitleId: int, uTitle: str, uGenderCode: str, uGenderName: str, uFirstName: str, uLastName: str,
  uEmail: { type: 'string' }, uCountryCode: str, uCountryName: str, uPrimaryMobile: str, uInterests: str, uDietaryRequirements: str,
  uTreatmentNotes: str, uDateOfBirth: { type: ['string', 'null'], format: 'date' }, uCreationDate: { type: 'string', format: 'date' }, uPhoto: str,
  uEnableLocation: bool, uEnableNotifications: bool, uAllowAllEmails: bool, uAllowNewsletterEmail: bool,
  uProfessionId: int, uProfessionName: str, uSpecialtyId: int, uSpecialtyName: str, uConditionId: int, uConditionName: str,
  uOtherTitle: str, uOtherProfession: str, uOtherSpecialty: str, uSocialNetworkAId: str, uSocialNetworkBId: str, uSocialNetworkCId: str,
  uSocialNetworkCUrl: str, uTimezoneId: str, uTimezoneName: str,
  uServiceTsAndCs: str, uServiceTrackingConsent: str, uCloudStorageConsent: str, uSearchProviderConsent: str, uSocialNetworkAConsent: str,
};

const { uId: _uId, ...UPDATE_FIELDS } = PROFILE_SCHEMA;

export const userRoutes: RouteDef[] = [
  {
    operation: 'findUserProfile',
    method: 'GET',
    path: '/rest/user/profile',
    credential: 'user',
    document: `query findUserProfile { userProfile { ${PROFILE_SELECTION} } }`,
    variables: () => ({}),
    result: (data) => data.userProfile,
    openapi: {
      summary: "The caller's profile, every field present (null when empty).",
      tags: ['User profile'],
      response: { type: 'object', properties: PROFILE_SCHEMA, required: Object.keys(PROFILE_SCHEMA) },
      errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
    },
  },
  {
    operation: 'updateUserProfile',
    method: 'PUT',
    path: '/rest/user/profile',
    credential: 'user',
    document: `mutation updateUserProfile($input: UpdateUserProfileInput!) { updateUserProfile(input: $input) { updatedFieldCount } }`,
    variables: (req) => ({ input: req.body }),
    result: (data) => data.updateUserProfile,
    openapi: {
      summary: "Update the caller's profile (11).",
      description:
        'Only fields whose value differs from the stored one are written. Null or omitted fields keep their value; fieldsToNull names the fields to erase. ' +
        'Read-only fields of the profile (uTitle, uGenderName, uCountryName, uProfessionName, uSpecialtyName, uConditionName, uTimezoneName, uCreationDate) may be sent back and are ignored.',
      tags: ['User profile'],
      requestBody: {
        type: 'object',
        properties: { uId: { type: 'integer' }, fieldsToNull: { type: 'array', items: { type: 'string' } }, ...UPDATE_FIELDS },
        required: ['uId'],
      },
      response: { type: 'object', properties: { updatedFieldCount: { type: 'integer' } }, required: ['updatedFieldCount'] },
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSInsufficientPrivilegesException', 'WSUserServiceException'],
    },
  },
  {
    operation: 'getTitles',
    method: 'GET',
    path: '/rest/refdata/titles',
    credential: 'none',
    document: `query getTitles { titles { titleId titleName } }`,
    variables: () => ({}),
    result: (data) => data.titles,
    etag: true,
    openapi: {
      summary: 'List the titles a profile can carry (uTitleId).',
      tags: ['Reference data'],
      response: { type: 'array', items: { type: 'object', properties: { titleId: { type: 'integer' }, titleName: { type: 'string' } }, required: ['titleId', 'titleName'] } },
      errors: ['WSRefDataServiceException'],
    },
  },
  {
    operation: 'getGenders',
    method: 'GET',
    path: '/rest/refdata/genders',
    credential: 'none',
    document: `query getGenders { genders { genderCode genderName } }`,
    variables: () => ({}),
    result: (data) => data.genders,
    etag: true,
    openapi: {
      summary: 'List the genders a profile can carry (uGenderCode).',
      tags: ['Reference data'],
      response: { type: 'array', items: { type: 'object', properties: { genderCode: { type: 'string' }, genderName: { type: 'string' } }, required: ['genderCode', 'genderName'] } },
      errors: ['WSRefDataServiceException'],
    },
  },
];
