import { referenceList, route, type RouteDef } from '../../rest/route';
import { bodySelection } from '../../rest/body-selection';
import { UserProfile } from './profile.types';
// The names its resolver adds (uTitle, uCountryName, ...) are part of the body: declared before it is derived.
import './user.resolver';

/**
 * Every field of the profile, in the spec's order; the REST body carries all of them. The order is
 * the User type's (profile.types.ts), but for each reference's name, which follows its id or code.
 * The edges other modules add to User (addresses, events, ...) are not in the body: they extend the
 * type this door exports, so they are declared after it is loaded (modules import no cycle).
 */
const PROFILE_SELECTION = bodySelection(
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
      },
    ],
  ]),
);

export const userRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/profile',
    credential: 'user',
    document: `query findUserProfile { userProfile { ${PROFILE_SELECTION} } }`,
    description:
      'A field without a value is null; the name of each reference follows its id or code (uTitle, uGenderName, uCountryName, ...). ' +
      'The client edits it and sends it back to PUT /rest/user/profile.',
    errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
  }),
  route({
    at: 'PUT /rest/user/profile',
    credential: 'user',
    document: `mutation updateUserProfile($input: UpdateUserProfileInput!) { updateUserProfile(input: $input) { updatedFieldCount } }`,
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
    `query getTitles { titles { titleId titleName } }`,
    "Sorted by titleId: the values of a profile's uTitleId.",
  ),
  referenceList(
    '/rest/refdata/genders',
    `query getGenders { genders { genderCode genderName } }`,
    "Sorted by genderName: the values of a profile's uGenderCode.",
  ),
];
