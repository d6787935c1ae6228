import type { ErrorCode } from '../../core/errors';
import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { MAX_USER_ADDRESSES } from './address.service';
import { AddressColumns } from './address.entity';

/**
 * Every field of the Address resource, null when empty: REST bodies carry all of them, in the order
 * of the Address type (address.entity.ts) but for the names the resolver derives from the codes,
 * which the specification places right after their code.
 */
export const ADDRESS_SELECTION = body(
  AddressColumns,
  new Map([[AddressColumns, { after: { typeCode: ['type'], stateCode: ['state'], countryCode: ['country'] } }]]),
);

/** What an operation on one address (by its uuid in the path) may answer. */
const ONE_ADDRESS_ERRORS: ErrorCode[] = [
  'WSInvalidParameterException',
  'WSFieldLengthException',
  'WSInvalidAuthTokenException',
  'WSCacheServiceException',
  'WSAddressNotFoundException',
  'WSAddressServiceException',
];

export const addressRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/addresses',
    credential: 'user',
    document: doc`query getUserAddresses { userAddresses { ${ADDRESS_SELECTION} } }`,
    description:
      'Every field of each address is present, null when empty, with the names of its type, state and country after their codes; ' +
      'an empty array when the caller has none.',
    errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSAddressServiceException'],
  }),
  route({
    at: 'POST /rest/user/addresses',
    credential: 'user',
    document: doc`mutation createUserAddress($input: AddressInput!) { createUserAddress(input: $input) { ${ADDRESS_SELECTION} } }`,
    description: `The uuid is assigned by the service. A user keeps at most ${MAX_USER_ADDRESSES} addresses (WSLimitExceededException beyond).`,
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
    document: doc`mutation updateUserAddressByAddressUUID($addressUUID: String!, $input: AddressInput!) {
      updateUserAddress(addressUUID: $addressUUID, input: $input) { ${ADDRESS_SELECTION} }
    }`,
    description: 'The body uuid is required and must equal the path uuid. Omitted fields keep their value; null erases.',
    errors: ONE_ADDRESS_ERRORS,
  }),
  route({
    at: 'DELETE /rest/user/addresses/:addressUUID',
    credential: 'user',
    document: doc`mutation deleteUserAddressByAddressUUID($addressUUID: String!) { deleteUserAddress(addressUUID: $addressUUID) }`,
    status: 204,
    description: "204 without a body. Another user's address is WSAddressNotFoundException, exactly as an unknown uuid.",
    errors: ONE_ADDRESS_ERRORS,
  }),
];
