// Property-based fuzzing of every REST route from its OpenAPI description: whatever the
// path, query, headers and body, the answer is a 2xx, or a 4xx carrying a specification
// identifier; never a 5xx; and a 4xx changes no stored row.
import fc from 'fast-check';
import { DEMO, fingerprint, NORTHWIND, OLIVIA, useTestApp } from '../kit';
import { ROUTES } from '../kit/routes';
import type { RouteDef } from '../../src/rest/route';
import { openApiPath } from '../../src/rest/openapi';

type JsonSchema = Record<string, unknown>;
import { ERROR_REGISTRY } from '../../src/core/errors';

const t = useTestApp();
let token: string;
let doc: any;
beforeAll(async () => {
  token = await t.as(OLIVIA).token();
  doc = (await t.rest('GET', '/openapi.json')).body;
});

const junk = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '2147483648',
    'null',
    'true',
    '[]',
    '{}',
    'a'.repeat(3000),
    '😀',
    '../../etc/passwd',
    "' or 1=1 --",
    '%00',
  ),
);

/** Values shaped by the schema most of the time, anything at all otherwise. */
function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 3) return junk;
  // Named components (#/components/schemas/AddressInput) and nullable ones (anyOf with null).
  if (typeof schema.$ref === 'string') return fromSchema(doc.components.schemas[schema.$ref.split('/').pop()!], depth);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map((s) => fromSchema(s, depth)));
  const s = schema as any;
  let shaped: fc.Arbitrary<unknown>;
  if (s.enum) shaped = fc.constantFrom(...s.enum);
  else if (s.type === 'integer')
    shaped = fc.oneof(
      fc.integer({ min: -5, max: 5000 }),
      fc.constantFrom(OLIVIA, NORTHWIND, DEMO.library.smartLibId, DEMO.library.welcomePackEntryId),
    );
  else if (s.type === 'number') shaped = fc.double({ noNaN: true });
  else if (s.type === 'boolean') shaped = fc.boolean();
  else if (s.type === 'string') {
    shaped = s.format === 'uuid' ? fc.uuid() : fc.string({ minLength: s.minLength ?? 0, maxLength: (s.maxLength ?? 40) + 5 });
  } else if (s.type === 'array') shaped = fc.array(fromSchema(s.items, depth + 1), { maxLength: 12 });
  else if (s.type === 'object' && s.properties) {
    shaped = fc.record(Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, fromSchema(v as JsonSchema, depth + 1)])), {
      requiredKeys: [],
    });
  } else shaped = junk;
  return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: junk });
}

interface Param {
  name: string;
  in: 'path' | 'query';
  schema: JsonSchema;
}

function requestArb(route: RouteDef) {
  const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
  const params: Param[] = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const requestBody = op.requestBody ? (Object.values(op.requestBody.content)[0] as { schema: JsonSchema }).schema : undefined;
  return fc.record({
    path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fromSchema(p.schema)]))),
    query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fromSchema(p.schema)])), { requiredKeys: [] }),
    body: requestBody ? fromSchema(requestBody) : fc.constant(undefined),
    auth: fc.constantFrom('valid', 'none', 'junk'),
  });
}

const CODES = new Set(Object.keys(ERROR_REGISTRY));
const MUTATING = (r: RouteDef) => r.method !== 'GET';

describe.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it('never answers 5xx; a 4xx carries a spec identifier and changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(route), async (req) => {
        let path = route.path;
        for (const [k, v] of Object.entries(req.path)) path = path.replace(`:${k}`, encodeURIComponent(String(v)));
        const qs = new URLSearchParams(
          Object.entries(req.query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)] as [string, string]),
        ).toString();
        const headers: Record<string, string> = {};
        if (req.auth === 'valid') headers['x-service-authtoken'] = token;
        if (req.auth === 'junk') headers['x-service-authtoken'] = 'junk-token';
        const before = MUTATING(route) ? await fingerprint(t.orm) : undefined;
        const res = await t.rest(route.method, qs ? `${path}?${qs}` : path, { headers, body: req.body });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(CODES.has(res.body?.errorCode)).toBe(true);
          if (before) expect(await fingerprint(t.orm)).toEqual(before);
        }
      }),
      { numRuns: MUTATING(route) ? 25 : 40, seed: 20261122 },
    );
  });
});
