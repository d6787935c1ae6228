// OpenAPI 3.1 document of the REST facade, generated from the route table: each route's
// parameters, request body and answer are derived from its GraphQL document and the schema
// (json-schema.ts, with named components: openapi-names.ts), so the document cannot say
// something the service does not do. Its caching headers come from http-cache.ts, the 429s from
// the modules' rate-limited operations, its tags from the areas (openapi-tags.ts); only the token
// endpoint is written by hand (openapi-token.ts).
import { Kind, OperationTypeNode, getNullableType, isNonNullType, type FragmentDefinitionNode, type GraphQLSchema } from 'graphql';
import { documentIdempotencyKey, IDEMPOTENCY_KEY_PARAMETER, IDEMPOTENT_REPLAYED_HEADER } from './openapi-idempotency';
import { takesIdempotencyKey } from './idempotency';
import { speaksUnprefixed, UNPREFIXED_UNAUTHORISED } from './route-vocabulary';
import { ERROR_REGISTRY, type ErrorCode } from '../core/errors';
import { allRules, type FieldRule } from '../graphql/rules';
import type { Credential, RouteDef } from './route';
import type { CompiledRoute } from './executor';
import { annotated, Components, inputSchema, outputSchema, type JsonSchema } from './json-schema';
import { formSchema } from './form';
import { cacheControlOf, varyOf } from './http-cache';
import { oauthSchemes, TOKEN_PATH, tokenPathItem } from './openapi-token';
import { openApiTags, type ApiTag } from './openapi-tags';
import EXAMPLES from './openapi-examples.json';

interface RecordedExamples {
  request?: unknown;
  response?: unknown;
  /** By parameter name. */
  parameters?: Record<string, unknown>;
  /** By error status. */
  errors?: Record<string, unknown>;
}

/**
 * Each operation's exchanges with the demo tenant (docs/getting-started.md): the JSON body sent
 * and answered (lists cut to two items), the value of each path and query parameter, and the
 * error answers met, by status. test/contract/generated-client.test.ts records them
 * (RECORD_OPENAPI_EXAMPLES=1) and checks them against the schemas; so does Redocly.
 */
const RECORDED: Record<string, RecordedExamples> = EXAMPLES;

const SECURITY: Record<Credential, Record<string, string[]>[]> = {
  none: [],
  user: [{ authToken: [] }],
  system: [{ systemToken: [] }],
  companyKey: [{ companyApiKey: [] }],
  userAndCompanyKey: [{ authToken: [], companyApiKey: [] }],
  bearer: [{ oauth2: ['sso'] }],
};

const CREDENTIAL_ERRORS: Record<Credential, string[]> = {
  none: [],
  user: ['WSInvalidAuthTokenException'],
  system: ['WSInvalidAuthTokenException', 'InsufficientPrivilegesException'],
  companyKey: ['WSInvalidAuthTokenException', 'WSCompanyApiKeyNotActiveException', 'WSCompanyNotActiveException'],
  userAndCompanyKey: ['WSInvalidAuthTokenException', 'WSCompanyApiKeyNotActiveException', 'WSCompanyNotActiveException'],
  bearer: ['WSInvalidAuthTokenException'],
};

/** /rest/x/:id -> /rest/x/{id} */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The first sentence of the root field's description: what the operation does. */
function summaryOf(description: string | null | undefined): string {
  const text = description ?? '';
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/**
 * What the operation does, in full (the route's own summary, or else the root field's whole
 * description, which the summary is the first sentence of), then what the REST wire adds (the
 * route's description): each said once, where the route or its field is declared.
 */
function descriptionOf(route: CompiledRoute): string {
  const r = route.def;
  const does = r.summary ?? route.binding.rootField.description;
  if (!does) throw new Error(`Route ${r.operation}: its root field has no description, so the route must give its summary`);
  return `${does}\n\n${r.description}`;
}

/** The rules of the arguments of each root field (args classes), by "Query.field" and argument name. */
function argumentRules(): Map<string, Map<string, FieldRule>> {
  const out = new Map<string, Map<string, FieldRule>>();
  for (const r of allRules()) {
    if (r.kind !== 'args') continue;
    for (const coordinate of r.usedBy ?? []) {
      const args = out.get(coordinate) ?? out.set(coordinate, new Map()).get(coordinate)!;
      args.set(r.fieldName, r.rule);
    }
  }
  return out;
}

interface Derivation {
  components: Components;
  argRules: Map<string, Map<string, FieldRule>>;
  rateLimited: ReadonlySet<string>;
}

function ruleOfArgument(d: Derivation, route: CompiledRoute, argument: string | undefined): FieldRule | undefined {
  if (!argument) return undefined;
  const root = route.binding.operation.operation === OperationTypeNode.MUTATION ? 'Mutation' : 'Query';
  return d.argRules.get(`${root}.${route.binding.rootField.name}`)?.get(argument);
}

function parameters(d: Derivation, route: CompiledRoute): JsonSchema[] {
  return route.binding.variables
    .filter((v) => v.source === 'path' || v.source === 'query')
    .map((v) => ({
      name: v.name,
      in: v.source,
      required: v.source === 'path' || isNonNullType(v.type),
      // One rule for every route (executor.ts): `?name=` is the parameter left out.
      description: `${v.argument?.description ?? v.name}${v.source === 'query' ? ' An empty value is the parameter left out.' : ''}`,
      ...(v.argument?.deprecationReason ? { deprecated: true } : {}),
      schema: inputSchema(d.components, getNullableType(v.type) as never, ruleOfArgument(d, route, v.argument?.name), true),
    }));
}

function requestBody(d: Derivation, route: CompiledRoute): JsonSchema | undefined {
  const vars = route.binding.variables;
  const whole = vars.find((v) => v.source === 'wholeBody');
  if (whole) {
    return route.def.form
      ? formSchema(d.components, whole.type, route.def.form)
      : inputSchema(d.components, getNullableType(whole.type), ruleOfArgument(d, route, whole.argument?.name), true);
  }
  const props = vars.filter((v) => v.source === 'body');
  if (!props.length) return undefined;
  const rules = props.map((v) => ruleOfArgument(d, route, v.argument?.name));
  const required = props.filter((v, i) => isNonNullType(v.type) || rules[i]?.required).map((v) => v.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      props.map((v, i) => [
        v.name,
        annotated(inputSchema(d.components, v.type, rules[i]), v.argument?.description, v.argument?.deprecationReason),
      ]),
    ),
    ...(required.length ? { required } : {}),
  };
}

function responseSchema(d: Derivation, schema: GraphQLSchema, route: CompiledRoute): JsonSchema {
  const { document, rootField, rootNode } = route.binding;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  const derived = outputSchema(d.components, route.def.operation, schema, rootField.type, rootNode.selectionSet, fragments);
  return rootField.description ? { description: rootField.description, ...derived } : derived;
}

/** The route's area: every operation carries exactly one of the document's tags. */
function tagOf(r: RouteDef): ApiTag {
  if (!r.tag) throw new Error(`Route ${r.operation} has no area: its module or itself must name one (openapi-tags.ts)`);
  return r.tag;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

export interface OpenApiOptions {
  /** PUBLIC_BASE_URL: the server of the REST routes. */
  serverUrl: string;
  /** AUTH_BASE_URL: where the token and authorization endpoints are (default: serverUrl). */
  authBaseUrl?: string;
  /** The operations that count against a rate limit: they can answer 429 (the modules' `rateLimited`). */
  rateLimited: ReadonlySet<string>;
}

function responsesOf(d: Derivation, schema: GraphQLSchema, route: CompiledRoute): Record<string, unknown> {
  const r = route.def;
  // Every route reads its query string strictly: percent-escapes that are not UTF-8 are its invalid identifier (executor.ts).
  const unprefixed = speaksUnprefixed(r);
  const credentialErrors = unprefixed
    ? CREDENTIAL_ERRORS[r.credential].filter((c) => !c.startsWith('WS'))
    : CREDENTIAL_ERRORS[r.credential];
  const codes = new Set([...credentialErrors, r.invalid ?? 'WSInvalidParameterException', ...r.errors]);
  const byStatus = new Map<number, string[]>();
  const add = (status: number, code: string) => byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const code of codes) {
    const status = ERROR_REGISTRY[code as ErrorCode]?.status;
    if (status === undefined) throw new Error(`Route ${r.operation} names unknown error ${code}`);
    add(status, code);
  }
  // Endpoint 2 answers its credential failure in its own identifiers (route-vocabulary.ts); the body limit's 413 is said below.
  if (unprefixed) add(UNPREFIXED_UNAUTHORISED.status, `${UNPREFIXED_UNAUTHORISED.code} (${UNPREFIXED_UNAUTHORISED.when})`);
  const get = r.method === 'GET';
  const limited = d.rateLimited.has(r.operation);
  const headers: Record<string, unknown> = {};
  if (get) {
    headers.ETag = header('ETag');
    const cacheControl = cacheControlOf(r);
    headers['Cache-Control'] = {
      description: cacheControl.startsWith('public, max-age')
        ? 'Public reference data: any cache may keep it for max-age seconds.'
        : cacheControl.startsWith('private')
          ? 'Behind a credential: kept by the client only, revalidated (If-None-Match) before each use.'
          : 'Public, revalidated (If-None-Match) before each use.',
      schema: { type: 'string', enum: [cacheControl] },
    };
    const vary = varyOf(r);
    if (vary) headers.Vary = { description: 'The credential headers the answer depends on.', schema: { type: 'string', enum: [vary] } };
  }
  if (limited) Object.assign(headers, { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') });
  const withHeaders = Object.keys(headers).length ? { headers } : {};
  const success = String(r.status ?? 200);
  const responses: Record<string, unknown> = {
    [success]: r.respond
      ? {
          description: 'Success',
          ...withHeaders,
          content: { [r.responseContentType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } } },
        }
      : r.body === 'none' || r.status === 204
        ? { description: 'Success, no payload', ...withHeaders }
        : { description: 'Success', ...withHeaders, content: { 'application/json': { schema: responseSchema(d, schema, route) } } },
  };
  if (get) {
    responses['304'] = {
      description: 'Not modified: If-None-Match named the current ETag.',
      headers: { ETag: headers.ETag, 'Cache-Control': headers['Cache-Control'], ...(headers.Vary ? { Vary: headers.Vary } : {}) },
    };
  }
  if (limited) {
    responses['429'] = {
      description: 'WSLimitExceededException: rate limit per user or client address; retry after the Retry-After header (seconds)',
      headers: { 'Retry-After': header('RetryAfter'), RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') },
      content: ERROR_CONTENT,
    };
  }
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    // The 429 of a rate limit already lists the identifier with its headers.
    if (status === 429 && responses['429']) continue;
    responses[String(status)] = { description: list.join(', '), content: ERROR_CONTENT };
  }
  return responses;
}

export function buildOpenApi(schema: GraphQLSchema, routes: CompiledRoute[], options: OpenApiOptions): Record<string, unknown> {
  const { serverUrl, authBaseUrl = options.serverUrl } = options;
  const d: Derivation = { components: new Components(), argRules: argumentRules(), rateLimited: options.rateLimited };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const r = route.def;
    const responses = responsesOf(d, schema, route);
    const example = RECORDED[r.operation];
    const recordedParameters = parameters(d, route).map((p) =>
      example?.parameters?.[p.name as string] !== undefined ? { ...p, example: example.parameters[p.name as string] } : p,
    );
    const op: Record<string, unknown> = {
      operationId: r.operation,
      summary: r.summary ?? summaryOf(route.binding.rootField.description),
      description: descriptionOf(route),
      tags: [tagOf(r)],
      parameters: [...recordedParameters, ...(r.method === 'GET' ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : [])],
      responses,
    };
    if (takesIdempotencyKey(r, route.operationType)) documentIdempotencyKey(op, responses, String(r.status ?? 200), ERROR_CONTENT);
    if (route.binding.rootField.deprecationReason) op.deprecated = true;
    const answer = (responses[String(r.status ?? 200)] as { content?: Record<string, Record<string, unknown>> }).content?.[
      'application/json'
    ];
    if (answer && example?.response !== undefined) answer.example = example.response;
    const body = requestBody(d, route);
    if (body) {
      op.requestBody = {
        required: true,
        description: r.multipart
          ? 'multipart/form-data; each part once.'
          : `JSON, at most ${route.bodyLimit} bytes (413 beyond). A body sent as text/plain or with no media type is read as JSON too; ` +
            'another media type is 415 naming body.',
        content: {
          [r.multipart ? 'multipart/form-data' : 'application/json']: {
            schema: body,
            ...(example?.request !== undefined && !r.multipart ? { example: example.request } : {}),
          },
        },
      };
      const tooLarge = speaksUnprefixed(r) ? `${r.invalid} naming body` : 'WSLimitExceededException';
      responses['413'] ??= { description: `${tooLarge}: the body is larger than the route admits`, content: ERROR_CONTENT };
      responses['415'] ??= {
        description: `${r.invalid ?? 'WSInvalidParameterException'} naming body: the body is not of the route's media type`,
        content: ERROR_CONTENT,
      };
    }
    for (const [status, answer] of Object.entries(example?.errors ?? {})) {
      const error = responses[status] as { content?: Record<string, Record<string, unknown>> } | undefined;
      // ERROR_CONTENT is shared: the example goes on a copy.
      if (error?.content) error.content = { 'application/json': { ...error.content['application/json'], example: answer } };
    }
    // Public operations say so (an empty list), so that a client sends no credential.
    op.security = SECURITY[r.credential];
    const p = openApiPath(r.path);
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: op };
  }
  paths[TOKEN_PATH] = tokenPathItem(d.components, serverUrl, authBaseUrl);
  d.components.named('ErrorBody', {
    type: 'object',
    properties: {
      errorCode: { type: 'string', enum: Object.keys(ERROR_REGISTRY), description: "The specification's exception identifier." },
      message: { type: 'string', description: 'Human-readable text.' },
      field: { type: 'string', description: 'The field at fault, when there is one.' },
    },
    required: ['errorCode', 'message'],
  });
  const { schemas, resolve } = d.components.finish();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Professional network service: REST facade',
      version: '1.0.0',
      description:
        'Every route runs a named GraphQL operation of the /graphql schema in-process. Timestamps are epoch milliseconds. ' +
        'Requests are decoded as the legacy service did: unknown properties are ignored, a number is accepted for a text field, ' +
        'integer text for an integer and "true"/"false" (any case) for a boolean; the schemas below give each field\'s canonical type.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      // The operator of this deployment, reached where it serves the API.
      contact: { name: 'Operator of this service', url: serverUrl },
    },
    servers: [{ url: serverUrl }],
    tags: openApiTags(),
    paths: resolve(paths),
    components: {
      securitySchemes: {
        authToken: { type: 'apiKey', in: 'header', name: 'x-service-authtoken', description: 'User auth token from loginUser.' },
        systemToken: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'System token with a scope.' },
        companyApiKey: { type: 'apiKey', in: 'header', name: 'x-service-company-api-key', description: 'Company API key (UUID).' },
        ...oauthSchemes(authBaseUrl),
      },
      schemas,
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The ETag of an answer held: 304 without a body when it is still current.',
          schema: { type: 'string' },
        },
        IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER,
      },
      headers: { ...HEADERS, IdempotentReplayed: IDEMPOTENT_REPLAYED_HEADER },
    },
  };
}

/** The response headers the routes share. */
const HEADERS = {
  ETag: {
    description: 'The entity tag of the answer; send it back in If-None-Match to get 304 when nothing changed.',
    schema: { type: 'string' },
  },
  NoStore: { description: 'Tokens are never cached.', schema: { type: 'string', enum: ['no-store'] } },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  RateLimit: {
    description:
      'IETF RateLimit field: per policy, the requests left (r) and the seconds until the window resets (t), ' +
      'e.g. "recommended-user";r=2;t=60. Keep to the smallest r.',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'IETF RateLimit-Policy field: per policy, the quota (q) and the window in seconds (w), e.g. "recommended-user";q=3;w=60.',
    schema: { type: 'string' },
  },
};
