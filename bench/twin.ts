// The GraphQL twin of a REST scenario: a POST /graphql of the route's own document with the
// variables the route builds from the scenario's request (`npm run bench`'s REST/GraphQL column,
// and `focus.ts "<scenario> (GraphQL)"`), and the same as a client's own copy of the document.
import { compileRoutes, type CompiledRoute } from '../src/rest/executor';
import { variablesStage } from '../src/rest/variables';
import { routeTable } from '../src/rest/routes';
import { createSchema } from '../src/graphql/schema';
import type { Scenario } from './scenarios';
import { MODULES } from '../src/modules';

const GRAPHQL = ' (GraphQL)';
const OWN = ' (GraphQL own)';

/**
 * The twin as a client that wrote its own copy of the document sends it: the same operation, a
 * text outside the trusted manifest (a comment first), so /graphql runs it as any client's
 * document (compiled at its second use, src/graphql/jit-executor.ts).
 */
export function ownTwin(twin: Scenario): Scenario {
  const body = twin.body as { query: string };
  return { ...twin, name: twin.name.replace(GRAPHQL, OWN), body: { ...body, query: `# a client's own copy\n${body.query}` } };
}

/** GraphQL POST of a REST route's own document with the variables the route builds from the scenario's request. */
export function graphqlTwin(routes: CompiledRoute[], s: Scenario): Scenario | undefined {
  const url = new URL(s.path, 'http://bench');
  const segments = url.pathname.split('/');
  // The route whose path matches with the fewest parameters (a literal segment wins, as in the router).
  const matches = routes.flatMap((route) => {
    const pattern = route.def.path.split('/');
    if (route.def.method !== s.method || pattern.length !== segments.length) return [];
    const params: Record<string, string> = {};
    for (const [i, p] of pattern.entries()) {
      if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(segments[i]);
      else if (p !== segments[i]) return [];
    }
    return [{ route, params }];
  });
  const match = matches.sort((a, b) => Object.keys(a.params).length - Object.keys(b.params).length)[0];
  if (!match) return undefined;
  const { route, params } = match;
  const variables = variablesStage(route)({ params, query: Object.fromEntries(url.searchParams), body: s.body });
  return {
    ...s,
    name: `${s.name}${GRAPHQL}`,
    method: 'POST',
    path: '/graphql',
    headers: { ...s.headers, 'content-type': 'application/json' },
    body: { query: route.def.document, variables, operationName: route.def.operation },
  };
}

/**
 * The scenarios `names` (focus.ts, pair.ts) among `all`; `"<scenario> (GraphQL)"` names a REST
 * read's twin, `"<scenario> (GraphQL own)"` the twin as a client's own document (ownTwin).
 */
export async function chooseScenarios(all: Scenario[], names: string[]): Promise<Scenario[]> {
  const twinned = (n: string) => n.endsWith(GRAPHQL) || n.endsWith(OWN);
  const routes = names.some(twinned) ? compileRoutes(await createSchema(MODULES), routeTable(MODULES)) : [];
  return names.map((name) => {
    const named = all.find((x) => x.name === name); // a scenario named so itself (library page (GraphQL))
    if (named) return named;
    const suffix = [GRAPHQL, OWN].find((x) => name.endsWith(x));
    const rest = suffix ? name.slice(0, -suffix.length) : name;
    const s = all.find((x) => x.name === rest);
    const twin = s && suffix ? graphqlTwin(routes, s) : undefined;
    const chosen = suffix ? twin && (suffix === OWN ? ownTwin(twin) : twin) : s;
    if (!chosen)
      throw new Error(`no scenario "${name}"; scenarios: ${all.map((x) => x.name).join(', ')} (and a REST read's "${GRAPHQL}" twin)`);
    return chosen;
  });
}
