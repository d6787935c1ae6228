// Every timestamp on the wire is epoch milliseconds as an integer (REST and GraphQL alike).
// GraphQL's Int is 32-bit, so timestamps get their own scalar.
import { GraphQLScalarType, Kind } from 'graphql';
import { GraphQLUpload } from 'graphql-upload-minimal';

export const Timestamp = new GraphQLScalarType<Date | null, number>({
  name: 'Timestamp',
  description:
    'An instant as integer milliseconds since the Unix epoch (UTC), as ECMAScript time values count them: a JSON number, never a string (1767225600000 is 2026-01-01T00:00:00Z). Codegen: number.',
  specifiedByURL: 'https://tc39.es/ecma262/#sec-time-values-and-time-range',
  serialize(value) {
    if (value instanceof Date) return value.getTime();
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
    throw new TypeError('Timestamp cannot represent this value');
  },
  parseValue(value) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return new Date(value);
    throw new TypeError('Timestamp must be an integer number of milliseconds');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT) {
      const n = Number(ast.value);
      if (Number.isSafeInteger(n)) return new Date(n);
    }
    throw new TypeError('Timestamp must be an integer number of milliseconds');
  },
});

/**
 * graphql-upload-minimal's Upload (a file part of a multipart request, read by the resolver as a
 * stream), with the specification it follows and its wire form said, for client generators.
 */
export const Upload = new GraphQLScalarType({
  ...GraphQLUpload.toConfig(),
  description:
    'A file sent as a part of a multipart request (the GraphQL multipart request specification): in the operation, null at the variable the map names; never a JSON value. Codegen: File (a browser Blob).',
  specifiedByURL: 'https://github.com/jaydenseric/graphql-multipart-request-spec',
});
