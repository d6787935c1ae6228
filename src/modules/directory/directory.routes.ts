import { strParam, type RouteDef } from '../../rest/route';
import { invalidParameter } from '../../graphql/errors';
import { ADDRESS_INPUT_SCHEMA, ADDRESS_SCHEMA, ADDRESS_SELECTION } from '../address/address.routes';

const directoryPath = { name: 'directoryUUID', in: 'path' as const, required: true, description: 'UUID of the smart directory.', schema: { type: 'string', maxLength: 50 } };

/** The directory chain, in the order it is checked, after the request-shape checks. */
const CHAIN = [
  'WSSmartDirectoryNotFoundException', 'WSSmartDirectoryNotEnabledForCompanyException', 'WSSmartDirectoryInactiveException',
  'WSUserNotInSmartDirectoryException', 'WSUserContactNotFoundException', 'WSUserNotConsentedException', 'WSNoAddressFieldsInDirectoryException',
];
// WSCacheServiceException: the token cache (Redis) does not answer while the token is checked.
const SHAPE = ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSInvalidParameterException', 'WSFieldLengthException'];

export const directoryRoutes: RouteDef[] = [
  {
    operation: 'getAddressesForDirectoryContact',
    method: 'GET',
    path: '/rest/smartdirectory/:directoryUUID/contactRecord/addresses',
    credential: 'user',
    document: `query getAddressesForDirectoryContact($directoryUUID: String!) {
      directoryContactAddresses(directoryUUID: $directoryUUID) { ${ADDRESS_SELECTION} }
    }`,
    variables: (req) => ({ directoryUUID: strParam(req.params.directoryUUID) }),
    result: (data) => data.directoryContactAddresses,
    openapi: {
      summary: "Addresses of the caller's contact record in a directory (10).",
      tags: ['Smart directory'],
      parameters: [directoryPath],
      response: { type: 'array', items: ADDRESS_SCHEMA },
      errors: [...SHAPE, ...CHAIN, 'WSSmartDirectoryServiceException'],
    },
  },
  {
    operation: 'updateAddressForDirectoryContact',
    method: 'PUT',
    path: '/rest/smartdirectory/:directoryUUID/contactRecord/addresses/:addressUUID',
    credential: 'user',
    document: `mutation updateAddressForDirectoryContact($directoryUUID: String!, $addressUUID: String!, $input: AddressInput!) {
      updateDirectoryContactAddress(directoryUUID: $directoryUUID, addressUUID: $addressUUID, input: $input) { ${ADDRESS_SELECTION} }
    }`,
    variables: (req) => ({ directoryUUID: strParam(req.params.directoryUUID), addressUUID: strParam(req.params.addressUUID), input: req.body }),
    result: (data) => data.updateDirectoryContactAddress,
    openapi: {
      summary: "Update an address of the caller's contact record (7).",
      description:
        'The body uuid is required and must equal the path uuid; postcode or postCode; omitted fields keep their value, null erases. ' +
        'With Sync Up on and the address copied from a profile address, the changed fields are also written to that profile address and to its copies in other Sync Up directories, in one transaction.',
      tags: ['Smart directory'],
      parameters: [directoryPath, { name: 'addressUUID', in: 'path', required: true, description: 'uuid of the contact address.', schema: { type: 'string', maxLength: 50 } }],
      requestBody: { ...ADDRESS_INPUT_SCHEMA, required: ['uuid'] },
      response: ADDRESS_SCHEMA,
      errors: [...SHAPE, ...CHAIN, 'WSContactNotFoundException', 'WSAddressAlreadyFullException', 'WSSmartDirectoryServiceException'],
    },
  },
  {
    operation: 'copyAddressesFromUserToDirectoryContact',
    method: 'POST',
    path: '/rest/smartdirectory/:directoryUUID/contactRecord/addresses/copyFromUser',
    credential: 'user',
    document: `mutation copyAddressesFromUserToDirectoryContact($directoryUUID: String!, $addressUUIDs: [String!]!) {
      copyUserAddressesToDirectoryContact(directoryUUID: $directoryUUID, addressUUIDs: $addressUUIDs) { ${ADDRESS_SELECTION} }
    }`,
    variables: (req) => {
      const addressUUIDs = req.body?.addressUUIDs;
      // GraphQL would coerce a lone string into a one-item list; the REST body must be an array.
      if (addressUUIDs !== undefined && !Array.isArray(addressUUIDs)) throw invalidParameter('addressUUIDs', 'addressUUIDs must be a non-empty array of address uuids.');
      return { directoryUUID: strParam(req.params.directoryUUID), addressUUIDs };
    },
    result: (data) => data.copyUserAddressesToDirectoryContact,
    openapi: {
      summary: "Copy profile addresses into the caller's contact record (9).",
      description:
        'All or nothing, in one transaction. A contact record holds one address per typeCode (WSAddressAlreadyFullException) and one copy of a profile address (WSAlreadyExistsException); at most 10 uuids per request (WSLimitExceededException).',
      tags: ['Smart directory'],
      parameters: [directoryPath],
      requestBody: { type: 'object', properties: { addressUUIDs: { type: 'array', items: { type: 'string', maxLength: 50 }, minItems: 1, maxItems: 10 } }, required: ['addressUUIDs'] },
      response: { type: 'array', items: ADDRESS_SCHEMA },
      errors: [...SHAPE, 'WSLimitExceededException', ...CHAIN, 'WSAddressNotFoundException', 'WSAlreadyExistsException', 'WSAddressAlreadyFullException', 'WSSmartDirectoryServiceException'],
    },
  },
];
