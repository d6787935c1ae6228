/** A record's global id as the schema promises it (src/graphql/node.ts): base64url of `<type>:<key>`. */
export const nodeId = (type: string, key: string | number): string => Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');

/** A key and a name of each entity type the federation router resolves, as fragments on them. */
export const ENTITY_FIELDS = `... on Company { companyId companyName }
  ... on User { uId uFirstName }
  ... on Event { eventUUID eName }
  ... on SmartLibrary { smartLibId smartLibName }
  ... on SmartEntry { smartEntryId smartEntryName }
  ... on SmartDirectory { directoryUUID directoryName }`;
