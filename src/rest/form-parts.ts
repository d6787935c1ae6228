// The text parts a multipart route admits, worked out once per route from its document: the
// body variables, or the fields of the input the whole form fills (and a flat form's numbered
// parts), with the bound each field's rule gives (src/graphql/rules.ts). The multipart parser
// refuses any other text part before busboy buffers a byte of it, stops a part at its own bound,
// and refuses a form with more parts than the route declares, so the text one request holds is
// the sum of its route's bounds (docs/security.md, "Hostile input").
import { GraphQLID, GraphQLString, getNullableType, isInputObjectType, isListType, isScalarType, type GraphQLInputType } from 'graphql';
import { rulesOf, type FieldRule } from '../graphql/rules';
import { DEFAULT_BODY_LIMIT } from './body-limit';
import type { RouteBinding } from './route-binding';
import type { FormShape } from './form';
import type { MultipartSpec, TextParts } from './multipart';

/** The most bytes one character takes in any charset a part may declare (UTF-8, UTF-16, ISO-8859-1). */
const CHAR_BYTES = 4;
/** Room for white space around a value (rules measure trimmed text) and for a number's or a code's text. */
const SLACK = 1024;

const isUpload = (type: GraphQLInputType) => {
  const inner = getNullableType<GraphQLInputType>(type);
  return isScalarType(inner) && inner.name === 'Upload';
};

/** Bytes a text part for a field of `type` under `rule` may hold; text no rule bounds gets the common body limit. */
function boundOf(type: GraphQLInputType, rule: FieldRule | undefined): number {
  const inner = getNullableType<GraphQLInputType>(type);
  if (inner === GraphQLString || inner === GraphQLID) {
    if (rule?.maxLength !== undefined) return rule.maxLength * CHAR_BYTES + SLACK;
    if (rule?.oneOf) return Math.max(...rule.oneOf.map((c) => c.length)) * CHAR_BYTES + SLACK;
    return DEFAULT_BODY_LIMIT;
  }
  // Numbers, booleans, codes, timestamps; a list or an object cannot come as one text part (the
  // decoding refuses what does).
  return SLACK;
}

/** The text parts of a multipart route. */
export function textPartsOf(binding: RouteBinding, spec: MultipartSpec, form?: FormShape): TextParts {
  const { files } = spec;
  /** The field's rule, or the route's own length for a part (or a prefix) whose field has none. */
  const ruleOf = (rule: FieldRule | undefined, part: string): FieldRule | undefined =>
    rule ?? (spec.maxLength?.[part] === undefined ? undefined : { maxLength: spec.maxLength[part] });
  const named = new Map<string, number>();
  let numbered: { pattern: RegExp; bounds: Map<string, number>; count: number } | undefined;
  for (const v of binding.variables) {
    if (v.source === 'body' && !isUpload(v.type)) named.set(v.name, boundOf(v.type, undefined));
    if (v.source !== 'wholeBody') continue;
    const input = getNullableType<GraphQLInputType>(v.type);
    if (!isInputObjectType(input)) continue;
    const rules = rulesOf(input.name);
    for (const f of Object.values(input.getFields())) {
      if (f.name === form?.list || isUpload(f.type)) continue;
      named.set(f.name, boundOf(f.type, ruleOf(rules?.get(f.name), f.name)));
    }
    const list = form && input.getFields()[form.list];
    const listType = list && getNullableType<GraphQLInputType>(list.type);
    const item = listType && isListType(listType) ? getNullableType<GraphQLInputType>(listType.ofType) : undefined;
    if (form && item && isInputObjectType(item)) {
      const itemRules = rulesOf(item.name);
      const bounds = new Map<string, number>();
      for (const [prefix, field] of Object.entries(form.parts)) {
        const f = item.getFields()[field];
        if (f && !isUpload(f.type)) bounds.set(prefix, boundOf(f.type, ruleOf(itemRules?.get(field), prefix)));
      }
      // The numbers formToInput reads; a number out of range reaches the service, which names it.
      const pattern = new RegExp(`^(${[...bounds.keys()].join('|')})(0|[1-9]\\d{0,8})$`);
      numbered = { pattern, bounds, count: bounds.size * form.max };
    }
  }
  const numberedBytes = numbered ? [...numbered.bounds.values()].reduce((a, b) => a + b, 0) * (form?.max ?? 0) : 0;
  return {
    bound(name) {
      const own = named.get(name);
      if (own !== undefined) return own;
      const m = numbered?.pattern.exec(name);
      return m ? numbered!.bounds.get(m[1]) : undefined;
    },
    maxParts: named.size + (numbered?.count ?? 0) + files.length,
    maxTextBytes: [...named.values()].reduce((a, b) => a + b, 0) + numberedBytes,
  };
}
