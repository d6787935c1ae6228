import { referenceList, route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { UserProfile } from './profile.types';

/**
 * Every field of the profile, in the spec's order; the REST body carries all of them. The order is
 * the User type's (profile.types.ts), but for each reference's name, which follows its id or code.
 * The body is worked out once every module is loaded, so the edges other modules add to User are
 * fields of it too; they are GraphQL's, not the REST body's, and are left out by name.
 */
const PROFILE_SELECTION = body(
  UserProfile,
  new Map([
    [
      UserProfile,
      {
        after: {
          uTitleId: ['uTitle'],
          uGenderCode: ['uGenderName'],
          uCountryCode: ['uCountryName'],
          uProfessionId: ['uProfessionName'],
          uSpecialtyId: ['uSpecialtyName'],
          uConditionId: ['uConditionName'],
          uTimezoneId: ['uTimezoneName'],
        },
        omit: ['addresses', 'smartDirectories', 'events', 'notifications', 'unreadNotificationCount', 'connections', 'smartLibraries'],
      },
    ],
  ]),
);

export const userRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/profile',
    credential: 'user',
    document: doc`query findUserProfile { userProfile { ${PROFILE_SELECTION} } }`,
    description:
      'A field without a value is null; the name of each reference follows its id or code (uTitle, uGenderName, uCountryName, ...). ' +
      'The client edits it and sends it back to PUT /rest/user/profile.',
    errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
  }),
  route({
    at: 'PUT /rest/user/profile',
    credential: 'user',
    document: doc`mutation updateUserProfile($input: UpdateUserProfileInput!) { updateUserProfile(input: $input) { updatedFieldCount } }`,
    description:
      'Null or omitted fields keep their value, so a client that leaves filled fields out loses no data; fieldsToNull names the fields to erase. ' +
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
  referenceList(
    '/rest/refdata/titles',
    doc`query getTitles { titles { titleId titleName } }`,
    "Sorted by titleId: the values of a profile's uTitleId.",
  ),
  referenceList(
    '/rest/refdata/genders',
    doc`query getGenders { genders { genderCode genderName } }`,
    "Sorted by genderName: the values of a profile's uGenderCode.",
  ),
];
