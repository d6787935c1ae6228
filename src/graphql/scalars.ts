// Every timestamp on the wire is epoch milliseconds as an integer (REST and GraphQL alike).
// GraphQL's Int is 32-bit, so timestamps get their own scalar.
import { GraphQLScalarType, Kind } from 'graphql';

export const Timestamp = new GraphQLScalarType<Date | null, number>({
  name: 'Timestamp',
  description: 'An instant as integer milliseconds since the Unix epoch (UTC).',
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
