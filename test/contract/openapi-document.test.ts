// The OpenAPI document as generators and validators read it: named component schemas, the
// token endpoint and security schemes, each rule's bound as a keyword, caching and rate-limit
// headers, @deprecated carried over. (`npm run lint:openapi` runs Redocly's recommended rules.)
import { buildSchema, parse, OperationTypeNode, type OperationDefinitionNode, type FieldNode } from 'graphql';
import { createSchema } from '../../src/graphql/schema';
import { ROUTES } from '../kit/routes';
import { compileRoutes } from '../../src/rest/executor';
import { buildOpenApi, openApiPath } from '../../src/rest/openapi';
import { Components, inputSchema, outputSchema, ruleOfText } from '../../src/rest/json-schema';
import { ruleText } from '../../src/graphql/rules';
import { MODULES, RATE_LIMITED_OPERATIONS } from '../../src/modules';

let doc: any;
let compiled: ReturnType<typeof compileRoutes>;
beforeAll(async () => {
  const schema = await createSchema(MODULES);
  compiled = compileRoutes(schema, ROUTES);
  doc = buildOpenApi(schema, compiled, {
    serverUrl: 'https://api.example.org',
    authBaseUrl: 'https://auth.example.org',
    rateLimited: RATE_LIMITED_OPERATIONS,
  });
});

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([p, ops]) =>
    Object.entries<any>(ops)
      .filter(([m]) => m !== 'servers')
      .map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, method: m, op })),
  );

it('names a component after each GraphQL type an answer holds: no answer has an inline object', () => {
  expect(doc.components.schemas).toEqual(expect.objectContaining({ Address: expect.any(Object), SmartEntry: expect.any(Object) }));
  const inline: string[] = [];
  const walk = (s: any, where: string) => {
    if (!s || typeof s !== 'object') return;
    if (s.type === 'object' || s.properties) inline.push(where);
    // allOf narrows a component (the token endpoint's error codes per status).
    for (const k of ['items', 'anyOf', 'oneOf']) if (s[k]) [s[k]].flat().forEach((x: any) => walk(x, where));
  };
  for (const { key, op } of operations())
    for (const [status, r] of Object.entries<any>(op.responses)) walk(r.content?.['application/json']?.schema, `${key} ${status}`);
  expect(inline).toEqual([]);
  expect(doc.paths['/rest/user/addresses'].get.responses['200'].content['application/json'].schema).toMatchObject({
    type: 'array',
    items: { $ref: '#/components/schemas/Address' },
  });
  expect(doc.paths['/rest/user/addresses'].post.requestBody.content['application/json'].schema).toEqual({
    $ref: '#/components/schemas/AddressInput',
  });
});

it('a type selected with two field sets: the larger keeps the name, the other is named after its operation', () => {
  const schema = buildSchema(`type Query { a: T! b: [T!]! } type T { x: Int! y: String z: Boolean! }`);
  const components = new Components();
  const root = (src: string) => (parse(src).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
  const a = outputSchema(components, 'getA', schema, schema.getQueryType()!.getFields().a.type, root('{ a { x } }').selectionSet, {});
  const b = outputSchema(components, 'getB', schema, schema.getQueryType()!.getFields().b.type, root('{ b { x y z } }').selectionSet, {});
  const again = outputSchema(components, 'getC', schema, schema.getQueryType()!.getFields().a.type, root('{ a { x } }').selectionSet, {});
  const { schemas, resolve } = components.finish();
  expect(resolve({ a, b, again })).toEqual({
    a: { $ref: '#/components/schemas/T_getA' },
    b: { type: 'array', items: { $ref: '#/components/schemas/T' } },
    again: { $ref: '#/components/schemas/T_getA' },
  });
  expect(Object.keys(schemas)).toEqual(['T', 'T_getA']);
  expect(schemas.T_getA).toEqual({ type: 'object', properties: { x: { type: 'integer' } }, required: ['x'], additionalProperties: false });
});

it('documents the token endpoint under AUTH_BASE_URL and the oauth2 flows it serves', () => {
  const token = doc.paths['/as/token.oauth2'];
  expect(token.servers).toEqual([{ url: 'https://auth.example.org' }]);
  expect(Object.keys(token.post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
  expect(Object.keys(token.post.responses)).toEqual(['200', '400', '401', '429', '500', '503']);
  expect(token.post.responses['429'].headers).toHaveProperty('Retry-After');
  expect(doc.components.schemas.OAuthError.required).toEqual(['error', 'error_description']);
  expect(doc.components.securitySchemes.oauth2.flows).toEqual({
    password: expect.objectContaining({ tokenUrl: 'https://auth.example.org/as/token.oauth2' }),
    authorizationCode: expect.objectContaining({ authorizationUrl: 'https://auth.example.org/as/authorization.oauth2' }),
  });
  expect(doc.paths['/rest/user/login'].post.security).toEqual([{ oauth2: ['sso'] }]);
});

it('every operation carries an example from the demo tenant (a request body, an answer or a parameter); every path parameter has one', () => {
  const exemplified = (m: any) => m?.example !== undefined || Object.keys(m?.examples ?? {}).length > 0;
  const without = operations()
    .filter(
      ({ op }) =>
        !Object.values<any>(op.requestBody?.content ?? {}).some(exemplified) &&
        !Object.values<any>(op.responses).some((r) => Object.values<any>(r.content ?? {}).some(exemplified)) &&
        !(op.parameters ?? []).some(exemplified),
    )
    .map((o) => o.key);
  expect(without).toEqual([]);
  const pathParameters = operations().flatMap(({ key, op }) =>
    (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => ({ key, name: p.name, example: p.example })),
  );
  expect(pathParameters.filter((p) => p.example === undefined)).toEqual([]);
  expect(pathParameters.length).toBeGreaterThan(10);
  // What a recorded exchange gives: a parameter's value, and the answer of an error status.
  const logout = doc.paths['/rest/user/logout'].post;
  expect(logout.responses['401'].content['application/json'].example).toMatchObject({ errorCode: 'WSInvalidAuthTokenException' });
  expect(doc.paths['/rest/smartlib/files/{smartFileId}/content'].get.parameters[0]).toMatchObject({
    name: 'smartFileId',
    example: expect.any(Number),
  });
  // Error examples are per operation: the shared error content is not changed.
  expect(doc.paths['/rest/user/addresses'].get.responses['401'].content['application/json'].example).toBeUndefined();
});

it('every operation states its security: the public ones an empty list', () => {
  for (const r of ROUTES) {
    const op = doc.paths[openApiPath(r.path)][r.method.toLowerCase()];
    expect({ op: r.operation, security: op.security }).toEqual({
      op: r.operation,
      security: r.credential === 'none' ? [] : expect.arrayContaining([expect.any(Object)]),
    });
  }
});

it('every bound a description states in the rules words is a keyword too', () => {
  const missing: string[] = [];
  const walk = (o: any, where: string) => {
    if (!o || typeof o !== 'object') return;
    const rule = typeof o.description === 'string' ? ruleOfText(o.description) : undefined;
    if (rule) {
      const s = o.in ? o.schema : o;
      const has = (k: 'maxLength' | 'maxItems', n?: number) => n === undefined || s[k] === n || s.items?.[k] === n || s.anyOf;
      if (!has('maxLength', rule.maxLength) || !has('maxItems', rule.maxItems)) missing.push(where);
    }
    for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`);
  };
  walk(doc, '');
  expect(missing).toEqual([]);
  expect(ruleOfText(`Name. ${ruleText({ required: true, maxLength: 80, maxItems: 3 })}`)).toEqual({ maxLength: 80, maxItems: 3 });
  // The address input: the length, code list and pattern of its rules.
  const input = doc.components.schemas.AddressInput.properties;
  expect(input.city).toMatchObject({ maxLength: expect.any(Number) });
  expect(JSON.stringify(doc.components.schemas)).toContain('"pattern"');
});

it('a field, argument or input field GraphQL marks @deprecated is deprecated: true', () => {
  const schema = buildSchema(`
    type Query { t(old: Int @deprecated(reason: "gone")): T! }
    type T { x: Int! @deprecated(reason: "use y") y: Int! }
    input I { a: String @deprecated(reason: "use b") b: String }`);
  const components = new Components();
  const sel = (parse('{ t { x y } }').definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
  const out = outputSchema(components, 'getT', schema, schema.getQueryType()!.getFields().t.type, sel.selectionSet, {});
  inputSchema(components, schema.getType('I') as never);
  const { schemas } = components.finish();
  expect(out).toEqual({ $ref: expect.any(String) });
  expect(schemas.T.properties).toEqual({ x: { type: 'integer', deprecated: true }, y: { type: 'integer' } });
  expect((schemas.I as any).properties.a).toEqual({ type: ['string', 'null'], deprecated: true });
});

it('every GET answers ETag and Cache-Control and may answer 304; rate-limited routes carry RateLimit headers', () => {
  for (const { key, method, op } of operations()) {
    const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
    if (method === 'get') {
      expect({ key, headers: Object.keys(op.responses[success].headers ?? {}) }).toEqual({
        key,
        headers: expect.arrayContaining(['ETag', 'Cache-Control']),
      });
      expect({ key, has304: '304' in op.responses }).toEqual({ key, has304: true });
    }
    if (RATE_LIMITED_OPERATIONS.has(op.operationId)) {
      for (const status of [success, '429'])
        expect(Object.keys(op.responses[status].headers)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
    }
  }
  expect(doc.paths['/rest/refdata/titles'].get.responses['200'].headers['Cache-Control'].schema.enum).toEqual(['public, max-age=3600']);
  expect(doc.paths['/rest/user/profile'].get.responses['200'].headers.Vary.schema.enum).toEqual(['x-service-authtoken']);
});

it('every mutation but the token exchanges takes Idempotency-Key and may answer 409 and 422; no read does', () => {
  const mutations = new Set(compiled.filter((r) => r.operationType === OperationTypeNode.MUTATION).map((r) => r.def.operation));
  const keyed: string[] = [];
  for (const { op } of operations()) {
    const takes = (op.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey');
    if (!takes) continue;
    keyed.push(op.operationId);
    const ok = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))![1];
    expect(ok.headers['Idempotent-Replayed']).toEqual({ $ref: '#/components/headers/IdempotentReplayed' });
    expect(op.responses['409'].description).toMatch(/Idempotency-Key: a request with this key is still running/);
    expect(op.responses['422'].description).toMatch(/Idempotency-Key: the key was used with another request/);
  }
  const exchanges = ROUTES.filter((r) => r.credential === 'bearer').map((r) => r.operation);
  expect(keyed.sort()).toEqual([...mutations].filter((m) => !exchanges.includes(m)).sort());
  expect(keyed).toEqual(
    expect.arrayContaining(['createSmartEntry', 'createUserAddress', 'sendNotification', 'createSupportGroup', 'uploadSmartFile']),
  );
  expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
});
