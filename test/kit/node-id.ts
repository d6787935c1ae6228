/** A record's global id as the schema promises it (src/graphql/node.ts): base64url of `<type>:<key>`. */
export const nodeId = (type: string, key: string | number): string => Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');
