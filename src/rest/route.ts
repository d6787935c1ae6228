// The shape of one REST route: everything the facade, the OpenAPI document and the
// authorization sweep need to know about it, as data.
import type Koa from 'koa';
import type { AppDeps } from '../context';
import type { MultipartSpec } from './multipart';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Which credential a route requires. */
export type Credential = 'none' | 'user' | 'system' | 'companyKey' | 'userAndCompanyKey' | 'bearer';

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParam {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  description: string;
  schema: JsonSchema;
}

export interface RouteDef {
  /** The specification's operation name; also the name of the GraphQL document. */
  operation: string;
  method: HttpMethod;
  /** Koa path, e.g. /rest/user/addresses/:addressUUID */
  path: string;
  credential: Credential;
  /** GraphQL document with exactly one operation, named after `operation`. */
  document: string;
  variables: (req: RestRequest) => Record<string, unknown>;
  /** Turns the GraphQL data into the exact REST body. */
  result: (data: any) => unknown;
  /** Success status (default 200). A 204/200-without-payload route returns undefined from result. */
  status?: number;
  /** Reference data: answer with an ETag and honour If-None-Match. */
  etag?: boolean;
  /** The body is multipart/form-data: text parts and streamed file parts (Upload variables). */
  multipart?: MultipartSpec;
  /** Writes the response itself from the GraphQL data (a file download streams its bytes). */
  respond?: (ctx: Koa.Context, data: any, deps: AppDeps) => Promise<void> | void;
  openapi: {
    summary: string;
    description?: string;
    tags: string[];
    parameters?: OpenApiParam[];
    requestBody?: JsonSchema;
    response?: JsonSchema;
    /** Media type of the success response (default application/json). */
    responseContentType?: string;
    /** Error identifiers this route can answer with. */
    errors: string[];
  };
}

/** Query values arrive as text; whole numbers become numbers so GraphQL's Int accepts them,
 * anything else is passed through for GraphQL to reject with the field named. */
export function intParam(value: string | string[] | undefined): unknown {
  if (Array.isArray(value)) return value;
  if (value === undefined) return undefined;
  return /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}

export function strParam(value: string | string[] | undefined): unknown {
  return value;
}
