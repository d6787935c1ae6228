import type { ErrorCode } from '../../graphql/errors';
import { route, type RouteDef } from '../../rest/route';
import { MAX_USER_ADDRESSES } from './address.service';

/** Every field of the Address resource: REST bodies carry all of them, null when empty. */
export const ADDRESS_SELECTION =
  'uuid typeCode type name street city suburb stateCode state postcode countryCode country email phone fax mobile department division jobTitle';

/** What an operation on one address (by its uuid in the path) may answer. */
const ONE_ADDRESS_ERRORS: ErrorCode[] = [
  'WSInvalidParameterException',
  'WSFieldLengthException',
  'WSInvalidAuthTokenException',
  'WSCacheServiceException',
  'WSAddressNotFoundException',
  'WSAddressServiceException',
];

export const addressRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/addresses',
    credential: 'user',
    document: `query getUserAddresses { userAddresses { ${ADDRESS_SELECTION} } }`,
    errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSAddressServiceException'],
  }),
  route({
    at: 'POST /rest/user/addresses',
    credential: 'user',
    document: `mutation createUserAddress($input: AddressInput!) { createUserAddress(input: $input) { ${ADDRESS_SELECTION} } }`,
    description: `typeCode is required; the uuid is assigned by the service. A user keeps at most ${MAX_USER_ADDRESSES} addresses.`,
    errors: [
      'WSInvalidParameterException',
      'WSFieldLengthException',
      'WSLimitExceededException',
      'WSInvalidAuthTokenException',
      'WSCacheServiceException',
      'WSAddressServiceException',
    ],
  }),
  route({
    at: 'PUT /rest/user/addresses/:addressUUID',
    credential: 'user',
    document: `mutation updateUserAddressByAddressUUID($addressUUID: String!, $input: AddressInput!) {
      updateUserAddress(addressUUID: $addressUUID, input: $input) { ${ADDRESS_SELECTION} }
    }`,
    description: 'The body uuid is required and must equal the path uuid. Omitted fields keep their value; null erases.',
    errors: ONE_ADDRESS_ERRORS,
  }),
  route({
    at: 'DELETE /rest/user/addresses/:addressUUID',
    credential: 'user',
    document: `mutation deleteUserAddressByAddressUUID($addressUUID: String!) { deleteUserAddress(addressUUID: $addressUUID) }`,
    status: 204,
    description: 'Copies of the address in smart directory contact records stay, no longer linked to it.',
    errors: ONE_ADDRESS_ERRORS,
  }),
];
