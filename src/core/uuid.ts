// The one UUID rule: the form every uuid of the specification takes (in a path, a query or a
// body), and its parse, which answers the uuid lower case as PostgreSQL prints it.
import { invalidParameter } from './errors';
import { checkRule, type FieldRule } from '../graphql/rules';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid's rule for @Rule fields; maxLength lets a module state its column's bound. */
export function uuidRule(maxLength?: number): FieldRule {
  return { ...(maxLength !== undefined && { maxLength }), pattern: UUID_PATTERN, format: 'a UUID' };
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** The uuid, lower case; anything else is WSInvalidParameterException "<field> must be a UUID.". */
export function parseUuid(value: unknown, field: string, rule: FieldRule = uuidRule()): string {
  if (typeof value !== 'string') throw invalidParameter(field, `${field} must be a UUID.`);
  checkRule({ ...rule, required: true }, value, field);
  return value.toLowerCase();
}
