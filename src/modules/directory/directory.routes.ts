import { route, type DeclaredRoute } from '../../rest/route';
import { doc } from '../../rest/body-selection';
import { ADDRESS_SELECTION } from '../address';
import { MAX_COPY } from './contact-address.service';

/** The directory chain, in the order it is checked, after the request-shape checks. */
const CHAIN = [
  'WSSmartDirectoryNotFoundException',
  'WSSmartDirectoryNotEnabledForCompanyException',
  'WSSmartDirectoryInactiveException',
  'WSUserNotInSmartDirectoryException',
  'WSUserContactNotFoundException',
  'WSUserNotConsentedException',
  'WSNoAddressFieldsInDirectoryException',
];
// WSCacheServiceException: the token cache (Redis) does not answer while the token is checked.
const SHAPE = ['WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSInvalidParameterException', 'WSFieldLengthException'];

export const directoryRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/smartdirectory/:directoryUUID/contactRecord/addresses',
    credential: 'user',
    document: doc`query getAddressesForDirectoryContact($directoryUUID: String!) {
      directoryContactAddresses(directoryUUID: $directoryUUID) { ${ADDRESS_SELECTION} }
    }`,
    description:
      'Checked in this order, each failure its identifier: the directory exists, is enabled for its company and active, holds the caller, ' +
      'who has a contact record in it and has given its required consents, and it shows address fields. Every field of each address is present, null when empty.',
    errors: [...SHAPE, ...CHAIN, 'WSSmartDirectoryServiceException'],
  }),
  route({
    at: 'PUT /rest/smartdirectory/:directoryUUID/contactRecord/addresses/:addressUUID',
    credential: 'user',
    document: doc`mutation updateAddressForDirectoryContact($directoryUUID: String!, $addressUUID: String!, $input: AddressInput!) {
      updateDirectoryContactAddress(directoryUUID: $directoryUUID, addressUUID: $addressUUID, input: $input) { ${ADDRESS_SELECTION} }
    }`,
    description:
      'The body uuid is required and must equal the path uuid; postcode or postCode; omitted fields keep their value, null erases. ' +
      'With Sync Up on and the address copied from a profile address, the changed fields are also written to that profile address and to its copies in other Sync Up directories, in one transaction.',
    errors: [...SHAPE, ...CHAIN, 'WSContactNotFoundException', 'WSAddressAlreadyFullException', 'WSSmartDirectoryServiceException'],
  }),
  route({
    at: 'POST /rest/smartdirectory/:directoryUUID/contactRecord/addresses/copyFromUser',
    credential: 'user',
    document: doc`mutation copyAddressesFromUserToDirectoryContact($directoryUUID: String!, $addressUUIDs: [String!]!) {
      copyUserAddressesToDirectoryContact(directoryUUID: $directoryUUID, addressUUIDs: $addressUUIDs) { ${ADDRESS_SELECTION} }
    }`,
    description: `One transaction. A contact record holds one address per typeCode (WSAddressAlreadyFullException) and one copy of a profile address (WSAlreadyExistsException); at most ${MAX_COPY} uuids per request (WSLimitExceededException).`,
    errors: [
      ...SHAPE,
      'WSLimitExceededException',
      ...CHAIN,
      'WSAddressNotFoundException',
      'WSAlreadyExistsException',
      'WSAddressAlreadyFullException',
      'WSSmartDirectoryServiceException',
    ],
  }),
];
