// The variables stage of a REST route: its document's variables from the path, the query string
// and the body, bound by name (route-binding.ts) and decoded as the legacy service did (decode.ts).
// What a route reads and how is settled once at start-up; a value that does not decode is thrown
// as the route's `invalid` identifier naming it.
import { ServiceError } from '../core/errors';
import { formPairs, NotText } from '../core/text';
import { decodeParam, decodeValue } from './decode';
import { formToInput } from './form';
import { takesBody } from './request-body';
import type { RouteBinding } from './route-binding';
import type { RouteDef } from './route';

/** The parts of a request the variables are read from. */
export interface VariableSource {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  querystring?: string;
  body: unknown;
}

type Variables = Record<string, unknown>;

/** The route's variables stage; `ignored` is told each body property no variable reads. */
export function variablesStage(
  route: { def: RouteDef; binding: RouteBinding },
  ignored?: (path: string) => void,
): (req: VariableSource) => Variables {
  const { def, binding } = route;
  const options = { invalid: def.invalid ?? ('WSInvalidParameterException' as const), ignored };
  const withBody = takesBody(binding);
  const computed = Object.entries(def.computed ?? {});
  return (req) => {
    if (req.querystring) {
      // Koa decodes percent-escapes that are not UTF-8 as U+FFFD: read strictly, they are refused.
      try {
        formPairs(req.querystring);
      } catch (err) {
        if (err instanceof NotText) throw new ServiceError(options.invalid, err.message, { field: err.field });
        throw err;
      }
    }
    const isObject = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body);
    if (withBody && req.body !== undefined && !isObject)
      throw new ServiceError(options.invalid, 'The body must be a JSON object.', { field: 'body' });
    const body = isObject ? (req.body as Variables) : {};
    const variables: Variables = {};
    const known = new Set<string>();
    for (const v of binding.variables) {
      let value: unknown;
      switch (v.source) {
        case 'path':
          value = decodeParam(v.type, req.params[v.name], v.name, options);
          break;
        case 'query':
          // An empty value of a parameter (`?pageNum=`) is the parameter left out, on every route.
          value = decodeParam(v.type, req.query[v.name] === '' ? undefined : req.query[v.name], v.name, options);
          break;
        case 'body':
          known.add(v.name);
          value = decodeValue(v.type, body[v.name], v.name, options);
          break;
        case 'wholeBody':
          value = decodeValue(v.type, def.form ? formToInput(body, def.form) : body, '', options);
          break;
      }
      if (value !== undefined) variables[v.name] = value;
    }
    if (ignored && known.size) for (const k of Object.keys(body)) if (!known.has(k)) ignored(k);
    for (const [name, compute] of computed) variables[name] = compute(variables);
    return variables;
  };
}
