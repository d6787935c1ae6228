// OpenAPI 3.1 document of the REST facade, generated from the route table: each route's
// parameters, request body and answer are derived from its GraphQL document and the schema
// (json-schema.ts), so the document cannot say something the service does not do.
import { Kind, getNullableType, isNonNullType, type FragmentDefinitionNode, type GraphQLSchema } from 'graphql';
import { ERROR_REGISTRY, type ErrorCode } from '../graphql/errors';
import { RATE_LIMITED_OPERATIONS } from '../modules';
import type { Credential } from './route';
import type { CompiledRoute } from './executor';
import { inputSchema, outputSchema, type JsonSchema } from './json-schema';
import { formSchema } from './form';

const SECURITY: Record<Credential, Record<string, string[]>[]> = {
  none: [],
  user: [{ authToken: [] }],
  system: [{ systemToken: [] }],
  companyKey: [{ companyApiKey: [] }],
  userAndCompanyKey: [{ authToken: [], companyApiKey: [] }],
  bearer: [{ bearer: [] }],
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

function parameters(route: CompiledRoute): JsonSchema[] {
  return route.binding.variables
    .filter((v) => v.source === 'path' || v.source === 'query')
    .map((v) => ({
      name: v.name,
      in: v.source,
      required: v.source === 'path' || isNonNullType(v.type),
      // One rule for every route (executor.ts): `?name=` is the parameter left out.
      description: `${v.argument?.description ?? v.name}${v.source === 'query' ? ' An empty value is the parameter left out.' : ''}`,
      schema: inputSchema(getNullableType(v.type) as never, undefined, true),
    }));
}

function requestBody(route: CompiledRoute): JsonSchema | undefined {
  const vars = route.binding.variables;
  const whole = vars.find((v) => v.source === 'wholeBody');
  if (whole) return route.def.form ? formSchema(whole.type, route.def.form) : inputSchema(getNullableType(whole.type), undefined, true);
  const props = vars.filter((v) => v.source === 'body');
  if (!props.length) return undefined;
  const required = props.filter((v) => isNonNullType(v.type)).map((v) => v.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      props.map((v) => [v.name, { ...inputSchema(v.type), ...(v.argument?.description ? { description: v.argument.description } : {}) }]),
    ),
    ...(required.length ? { required } : {}),
  };
}

function responseSchema(schema: GraphQLSchema, route: CompiledRoute): JsonSchema {
  const { document, rootField, rootNode } = route.binding;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const derived = outputSchema(schema, rootField.type, rootNode.selectionSet, fragments);
  return rootField.description ? { description: rootField.description, ...derived } : derived;
}

export function buildOpenApi(schema: GraphQLSchema, routes: CompiledRoute[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const r = route.def;
    const byStatus = new Map<number, string[]>();
    for (const code of new Set([...CREDENTIAL_ERRORS[r.credential], ...r.errors])) {
      const status = ERROR_REGISTRY[code as ErrorCode]?.status;
      if (status === undefined) throw new Error(`Route ${r.operation} names unknown error ${code}`);
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const responses: Record<string, unknown> = {
      [String(r.status ?? 200)]: r.respond
        ? {
            description: 'Success',
            content: { [r.responseContentType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } } },
          }
        : r.body === 'none' || r.status === 204
          ? { description: 'Success, no payload' }
          : { description: 'Success', content: { 'application/json': { schema: responseSchema(schema, route) } } },
    };
    if (r.etag) responses['304'] = { description: 'Not modified (If-None-Match matched the ETag)' };
    if (RATE_LIMITED_OPERATIONS.has(r.operation)) {
      responses['429'] = {
        description: 'WSLimitExceededException: rate limit per user or client address; retry after the Retry-After header (seconds)',
        headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      };
    }
    for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      responses[String(status)] = {
        description: codes.join(', '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      };
    }
    const op: Record<string, unknown> = {
      operationId: r.operation,
      summary: r.summary ?? summaryOf(route.binding.rootField.description),
      tags: r.tags,
      parameters: parameters(route),
      responses,
    };
    if (r.description) op.description = r.description;
    const body = requestBody(route);
    if (body) {
      op.requestBody = {
        required: true,
        description: r.multipart
          ? 'multipart/form-data; each part once.'
          : `JSON, at most ${route.bodyLimit} bytes (413 beyond). A body sent as text/plain or with no media type is read as JSON too; ` +
            'another media type is 415 naming body.',
        content: { [r.multipart ? 'multipart/form-data' : 'application/json']: { schema: body } },
      };
      const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
      responses['413'] ??= { description: 'WSLimitExceededException: the body is larger than the route admits', ...error };
      responses['415'] ??= {
        description: `${r.invalid ?? 'WSInvalidParameterException'} naming body: the body is not of the route's media type`,
        ...error,
      };
    }
    if (SECURITY[r.credential].length) op.security = SECURITY[r.credential];
    const p = openApiPath(r.path);
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Professional network service: REST facade',
      version: '1.0.0',
      description:
        'Every route runs a named GraphQL operation of the /graphql schema in-process. Timestamps are epoch milliseconds. ' +
        'Requests are decoded as the legacy service did: unknown properties are ignored, a number is accepted for a text field, ' +
        'integer text for an integer and "true"/"false" (any case) for a boolean; the schemas below give each field\'s canonical type.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        authToken: { type: 'apiKey', in: 'header', name: 'x-service-authtoken', description: 'User auth token from loginUser.' },
        systemToken: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'System token with a scope.' },
        companyApiKey: { type: 'apiKey', in: 'header', name: 'x-service-company-api-key', description: 'Company API key (UUID).' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'OAuth 2.0 access token from the token endpoint.' },
      },
      schemas: {
        ErrorBody: {
          type: 'object',
          properties: {
            errorCode: { type: 'string', enum: Object.keys(ERROR_REGISTRY), description: "The specification's exception identifier." },
            message: { type: 'string', description: 'Human-readable text.' },
            field: { type: 'string', description: 'The field at fault, when there is one.' },
          },
          required: ['errorCode', 'message'],
        },
      },
    },
  };
}
