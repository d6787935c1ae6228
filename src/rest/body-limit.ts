// The byte limit of a route's JSON body: at least the largest body its own rules accept, so a
// value within every bound is never refused for its size (a 100,000-character error of emoji,
// each escaped as `\uD83D\uDE00`, is 1.2 MB of JSON). Worked out once per route from the rules
// of its body variables' input types (src/graphql/rules.ts); a route whose arguments carry
// bounds outside input types declares `bodyLimit` itself. Never below the common 1 MB.
import { GraphQLID, GraphQLString, getNullableType, isEnumType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { rulesOf, type FieldRule } from '../graphql/rules';
import type { RouteDef } from './route';
import type { RouteBinding } from './route-binding';

/** The limit of a body no rule bounds. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The most bytes one character takes in JSON: a character outside the BMP written as two escapes. */
export const JSON_CHAR_BYTES = 12;
/** Room for white space and properties a route ignores (legacy clients send extra ones). */
const SLACK = 64 * 1024;

/** The longest JSON a value of `type` may be under `rule` and its fields' rules; null when something is unbounded. */
export function maxJsonBytes(type: GraphQLInputType, rule?: FieldRule): number | null {
  const inner = getNullableType<GraphQLInputType>(type);
  if (isListType(inner)) {
    if (rule?.maxItems === undefined) return null;
    // A rule's length bound applies to each text item of a list.
    const item = maxJsonBytes(inner.ofType, rule.maxLength === undefined ? undefined : { maxLength: rule.maxLength });
    return item === null ? null : 2 + rule.maxItems * (item + 1);
  }
  if (isInputObjectType(inner)) {
    const rules = rulesOf(inner.name);
    let total = 2;
    for (const f of Object.values(inner.getFields())) {
      const field = maxJsonBytes(f.type, rules?.get(f.name));
      if (field === null) return null;
      total += f.name.length + 4 + field;
    }
    return total;
  }
  if (inner === GraphQLString || inner === GraphQLID) return rule?.maxLength === undefined ? null : 2 + rule.maxLength * JSON_CHAR_BYTES;
  if (isEnumType(inner)) return 2 + Math.max(...inner.getValues().map((v) => v.name.length));
  // Numbers, booleans, timestamps.
  return 32;
}

export function bodyLimitOf(def: RouteDef, binding: RouteBinding): number {
  let computed = 0;
  for (const v of binding.variables) {
    if (v.source !== 'body' && v.source !== 'wholeBody') continue;
    const bytes = maxJsonBytes(v.type);
    if (bytes === null) {
      computed = 0;
      break;
    }
    computed += v.name.length + 4 + bytes;
  }
  return Math.max(DEFAULT_BODY_LIMIT, def.bodyLimit ?? 0, computed ? computed + SLACK : 0);
}
