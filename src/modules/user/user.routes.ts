import { referenceList, route, type RouteDef } from '../../rest/route';

/** Every field of the profile, in the spec's order; the REST body carries all of them. */
const PROFILE_SELECTION = `uId uTitleId uTitle uGenderCode uGenderName uFirstName uLastName uEmail uCountryCode uCountryName
  uPrimaryMobile uInterests uDietaryRequirements uTreatmentNotes uDateOfBirth uCreationDate uPhoto
  uEnableLocation uEnableNotifications uAllowAllEmails uAllowNewsletterEmail
  uProfessionId uProfessionName uSpecialtyId uSpecialtyName uConditionId uConditionName
  uOtherTitle uOtherProfession uOtherSpecialty uSocialNetworkAId uSocialNetworkBId uSocialNetworkCId uSocialNetworkCUrl
  uTimezoneId uTimezoneName uServiceTsAndCs uServiceTrackingConsent uCloudStorageConsent uSearchProviderConsent uSocialNetworkAConsent`;

export const userRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/profile',
    credential: 'user',
    document: `query findUserProfile { userProfile { ${PROFILE_SELECTION} } }`,
    errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
  }),
  route({
    at: 'PUT /rest/user/profile',
    credential: 'user',
    document: `mutation updateUserProfile($input: UpdateUserProfileInput!) { updateUserProfile(input: $input) { updatedFieldCount } }`,
    description:
      'Only fields whose value differs from the stored one are written. Null or omitted fields keep their value; fieldsToNull names the fields to erase. ' +
      'Read-only fields of the profile (uTitle, uGenderName, uCountryName, uProfessionName, uSpecialtyName, uConditionName, uTimezoneName, uCreationDate) may be sent back and are ignored.',
    errors: [
      'WSInvalidParameterException',
      'WSFieldLengthException',
      'WSInvalidAuthTokenException',
      'WSCacheServiceException',
      'WSInsufficientPrivilegesException',
      'WSUserServiceException',
    ],
  }),
  referenceList('/rest/refdata/titles', `query getTitles { titles { titleId titleName } }`),
  referenceList('/rest/refdata/genders', `query getGenders { genders { genderCode genderName } }`),
];
