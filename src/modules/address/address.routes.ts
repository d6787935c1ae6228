import { strParam, type RouteDef } from '../../rest/route';
import { ADDRESS_LIMITS } from './address.entity';

/** Every field of the Address resource: REST bodies carry all of them, null when empty. */
export const ADDRESS_SELECTION = 'uuid typeCode type name street city suburb stateCode state postcode countryCode country email phone fax mobile department division jobTitle';

const bounded = (max: number) => ({ type: ['string', 'null'], maxLength: max });
const nullableStr = { type: ['string', 'null'] };

export const ADDRESS_SCHEMA = {
  type: 'object',
  properties: {
    uuid: { type: 'string', maxLength: ADDRESS_LIMITS.uuid },
    typeCode: { type: 'string', enum: ['W', 'P', 'O'] },
    type: { type: 'string', enum: ['Work', 'Personal', 'Other'] },
    name: bounded(255), street: bounded(255), city: bounded(100), suburb: bounded(100),
    stateCode: bounded(6), state: nullableStr, postcode: bounded(20), countryCode: bounded(2), country: nullableStr,
    email: bounded(255), phone: bounded(30), fax: bounded(30), mobile: bounded(30),
    department: bounded(50), division: bounded(50), jobTitle: bounded(50),
  },
  required: ADDRESS_SELECTION.split(' '),
};

/** Request body: the address fields, postcode under either spelling; type/state/country may be echoed. */
export const ADDRESS_INPUT_SCHEMA = {
  type: 'object',
  properties: { ...ADDRESS_SCHEMA.properties, postCode: bounded(20) },
};

const addressPath = { name: 'addressUUID', in: 'path' as const, required: true, description: 'uuid of one of the caller\'s addresses.', schema: { type: 'string', maxLength: 50 } };

export const addressRoutes: RouteDef[] = [
  {
    operation: 'getUserAddresses',
    method: 'GET',
    path: '/rest/user/addresses',
    credential: 'user',
    document: `query getUserAddresses { userAddresses { ${ADDRESS_SELECTION} } }`,
    variables: () => ({}),
    result: (data) => data.userAddresses,
    openapi: {
      summary: "List the caller's addresses.",
      tags: ['User profile'],
      response: { type: 'array', items: ADDRESS_SCHEMA },
      errors: ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSAddressServiceException'],
    },
  },
  {
    operation: 'createUserAddress',
    method: 'POST',
    path: '/rest/user/addresses',
    credential: 'user',
    document: `mutation createUserAddress($input: AddressInput!) { createUserAddress(input: $input) { ${ADDRESS_SELECTION} } }`,
    variables: (req) => ({ input: req.body }),
    result: (data) => data.createUserAddress,
    openapi: {
      summary: "Add an address to the caller's profile.",
      description: 'typeCode is required; the uuid is assigned by the service. A user keeps at most 50 addresses.',
      tags: ['User profile'],
      requestBody: { ...ADDRESS_INPUT_SCHEMA, required: ['typeCode'] },
      response: ADDRESS_SCHEMA,
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSLimitExceededException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSAddressServiceException'],
    },
  },
  {
    operation: 'updateUserAddressByAddressUUID',
    method: 'PUT',
    path: '/rest/user/addresses/:addressUUID',
    credential: 'user',
    document: `mutation updateUserAddressByAddressUUID($addressUUID: String!, $input: AddressInput!) {
      updateUserAddress(addressUUID: $addressUUID, input: $input) { ${ADDRESS_SELECTION} }
    }`,
    variables: (req) => ({ addressUUID: strParam(req.params.addressUUID), input: req.body }),
    result: (data) => data.updateUserAddress,
    openapi: {
      summary: "Update one of the caller's addresses (8).",
      description: 'The body uuid is required and must equal the path uuid. Omitted fields keep their value; null erases.',
      tags: ['User profile'],
      parameters: [addressPath],
      requestBody: { ...ADDRESS_INPUT_SCHEMA, required: ['uuid'] },
      response: ADDRESS_SCHEMA,
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSAddressNotFoundException', 'WSAddressServiceException'],
    },
  },
  {
    operation: 'deleteUserAddressByAddressUUID',
    method: 'DELETE',
    path: '/rest/user/addresses/:addressUUID',
    credential: 'user',
    document: `mutation deleteUserAddressByAddressUUID($addressUUID: String!) { deleteUserAddress(addressUUID: $addressUUID) }`,
    variables: (req) => ({ addressUUID: strParam(req.params.addressUUID) }),
    result: () => undefined,
    status: 204,
    openapi: {
      summary: "Delete one of the caller's addresses.",
      description: 'Copies of the address in smart directory contact records stay, no longer linked to it.',
      tags: ['User profile'],
      parameters: [addressPath],
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSAddressNotFoundException', 'WSAddressServiceException'],
    },
  },
];
