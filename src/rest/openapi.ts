// OpenAPI 3.1 document of the REST facade, generated from the route table.
import { ERROR_REGISTRY, type ErrorCode } from '../graphql/errors';
import { RATE_LIMITED_OPERATIONS } from '../modules/ratelimit/rate-limited-routes';
import type { Credential, RouteDef } from './route';

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

export function buildOpenApi(routes: RouteDef[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const byStatus = new Map<number, string[]>();
    for (const code of new Set([...CREDENTIAL_ERRORS[r.credential], ...r.openapi.errors])) {
      const status = ERROR_REGISTRY[code as ErrorCode]?.status;
      if (status === undefined) throw new Error(`Route ${r.operation} names unknown error ${code}`);
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const responses: Record<string, unknown> = {
      [String(r.status ?? 200)]: r.openapi.response
        ? { description: 'Success', content: { [r.openapi.responseContentType ?? 'application/json']: { schema: r.openapi.response } } }
        : { description: 'Success, no payload' },
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
      summary: r.openapi.summary,
      tags: r.openapi.tags,
      parameters: (r.openapi.parameters ?? []).map((p) => ({ ...p, required: p.in === 'path' ? true : Boolean(p.required) })),
      responses,
    };
    if (r.openapi.description) op.description = r.openapi.description;
    if (r.openapi.requestBody) op.requestBody = { required: true, content: { [r.multipart ? 'multipart/form-data' : 'application/json']: { schema: r.openapi.requestBody } } };
    if (SECURITY[r.credential].length) op.security = SECURITY[r.credential];
    const p = openApiPath(r.path);
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Professional network service: REST facade',
      version: '1.0.0',
      description: 'Every route runs a named GraphQL operation of the /graphql schema in-process. Timestamps are epoch milliseconds.',
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
            errorCode: { type: 'string', enum: Object.keys(ERROR_REGISTRY), description: 'The specification\'s exception identifier.' },
            message: { type: 'string', description: 'Human-readable text.' },
            field: { type: 'string', description: 'The field at fault, when there is one.' },
          },
          required: ['errorCode', 'message'],
        },
      },
    },
  };
}
