// REST decodes what legacy clients send the way the Java service these paths come from did
// (docs/api/README.md, "Legacy compatibility (REST decoding)"): unknown properties are ignored, a number is
// taken as its decimal text for a text field, integer text as the integer, "true"/"false" in
// any case as the boolean; anything else of the wrong type is WSInvalidParameterException
// naming the field, and so is text holding a NUL or an unpaired surrogate. The value is walked
// against the GraphQL type of the variable it binds to, so nothing here restates a field: the
// schema says what each one is. /graphql keeps strict
// GraphQL typing; the field rules (lengths, codes) run afterwards, for both, in the resolvers.
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from 'graphql';
import { ServiceError, type ErrorCode } from '../core/errors';
import { isText } from '../core/text';

export interface DecodeOptions {
  /** The identifier of a malformed value (endpoint 2 answers InvalidParameterException). */
  invalid: ErrorCode;
  /** Called with the path of each property the operation does not know. */
  ignored?: (path: string) => void;
}

const INT = /^[-+]?\d{1,10}$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The same words GraphQL's own coercion errors get (error-mapping.ts), so both surfaces read alike. */
function bad(options: DecodeOptions, field: string): never {
  throw new ServiceError(options.invalid, `Invalid value for ${field}.`, { field });
}

/** The last name of a path (`input.smartEntryTags[2].smartTagName` -> `smartTagName`), as errors name fields. */
const leaf = (path: string) =>
  path
    .replace(/\[\d+\]$/, '')
    .split('.')
    .pop()!
    .replace(/\[\d+\]$/, '');

function decodeScalar(type: GraphQLInputType, value: unknown, path: string, options: DecodeOptions): unknown {
  const field = leaf(path);
  if (type === GraphQLString || type === GraphQLID) {
    if (typeof value === 'string') {
      // A path or query value, or a form part: JSON bodies are checked as they are parsed.
      if (!isText(value))
        throw new ServiceError(options.invalid, `${field} holds a character that is not text (NUL or an unpaired surrogate).`, { field });
      return value;
    }
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return bad(options, field);
  }
  if (type === GraphQLInt) {
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2_147_483_647) return value;
    if (typeof value === 'string' && INT.test(value.trim())) {
      const n = Number(value.trim());
      if (Math.abs(n) <= 2_147_483_647) return n;
    }
    // A version that is a number, only not one the operation has (2.5, 1.0, 3000000000), is an
    // unsupported version (DESIGN "Errors"); what is not a number is malformed.
    if (
      field === 'version' &&
      ((typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMBER.test(value.trim())))
    )
      throw new ServiceError('WSUnsupportedVersionException', `Version ${String(value).trim()} is not supported.`, { field });
    return bad(options, field);
  }
  if (type === GraphQLFloat) {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim());
    return bad(options, field);
  }
  if (type === GraphQLBoolean) {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string') {
      const v = value.trim().toLowerCase();
      if (v === 'true') return true;
      if (v === 'false') return false;
    }
    return bad(options, field);
  }
  if (isEnumType(type)) {
    if (typeof value === 'string' && type.getValue(value)) return value;
    return bad(options, field);
  }
  // Our own scalars (Timestamp: epoch milliseconds; Upload: a multipart file) check their values themselves.
  if (isScalarType(type) && type.name === 'Timestamp' && typeof value === 'string' && /^\d{1,15}$/.test(value.trim()))
    return Number(value.trim());
  return value;
}

/**
 * Decodes `value` for a variable or field of GraphQL type `type`. Returns undefined for a value
 * that is absent (the variable is then left out, and GraphQL's own defaults apply).
 */
export function decodeValue(type: GraphQLInputType, value: unknown, path: string, options: DecodeOptions): unknown {
  if (value === undefined) {
    if (isNonNullType(type)) bad(options, leaf(path));
    return undefined;
  }
  if (value === null) {
    if (isNonNullType(type)) bad(options, leaf(path));
    return null;
  }
  const inner = getNullableType<GraphQLInputType>(type);
  if (isListType(inner)) {
    if (!Array.isArray(value)) bad(options, leaf(path));
    return value.map((item, i) => {
      const decoded = decodeValue(inner.ofType, item, `${path}[${i}]`, options);
      return decoded === undefined ? null : decoded;
    });
  }
  if (isInputObjectType(inner)) {
    if (!isObject(value)) bad(options, leaf(path));
    const fields = inner.getFields();
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(value)) {
      const f = fields[name];
      if (!f) {
        options.ignored?.(path ? `${path}.${name}` : name);
        continue;
      }
      const decoded = decodeValue(f.type, v, path ? `${path}.${name}` : name, options);
      if (decoded !== undefined) out[name] = decoded;
    }
    // A missing required field is named as GraphQL's own coercion names it: the field itself
    // at the top of the body, else the object that lacks it (emailParams for emailParams[0].value).
    for (const f of Object.values(fields)) {
      if (isNonNullType(f.type) && f.defaultValue === undefined && !(f.name in out)) bad(options, path ? leaf(path) : f.name);
    }
    return out;
  }
  return decodeScalar(inner, value, path, options);
}

/** A query or path value: text, or several values for a repeated query key (a list variable). */
export function decodeParam(type: GraphQLInputType, value: string | string[] | undefined, name: string, options: DecodeOptions): unknown {
  if (value === undefined) return decodeValue(type, undefined, name, options);
  const inner = getNullableType<GraphQLInputType>(type);
  if (isListType(inner)) return decodeValue(type, Array.isArray(value) ? value : [value], name, options);
  if (Array.isArray(value)) bad(options, name);
  return decodeValue(type, value, name, options);
}
