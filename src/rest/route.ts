// The shape of one REST route: what only the route knows, as data. Everything else follows
// from its GraphQL document and the schema (route-binding.ts): variables bind to the path, the
// query and the body by name, the body of the answer is the root field, and the OpenAPI
// request and response schemas are derived from the document's types (openapi.ts).
import type Koa from 'koa';
import type { Context } from '../context';
import type { ErrorCode } from '../core/errors';
import type { MultipartSpec } from './multipart';
import type { FormShape } from './form';
import type { ApiTag } from './openapi-tags';
import type { RouteText } from './body-selection';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Which credential a route requires. */
export type Credential = 'none' | 'user' | 'system' | 'companyKey' | 'userAndCompanyKey' | 'bearer';

/**
 * Where a variable's value comes from. By default: a path parameter of the same name; for an
 * input object variable, the whole body; otherwise a query value (GET, DELETE) or a body
 * property (POST, PUT) of the same name.
 */
export type Binding = 'path' | 'query' | 'body' | 'wholeBody';

export interface RouteDef {
  /** The specification's operation name; also the name of the GraphQL document. */
  operation: string;
  method: HttpMethod;
  /** Koa path, e.g. /rest/user/addresses/:addressUUID */
  path: string;
  credential: Credential;
  /** GraphQL document with exactly one operation, named after `operation`. */
  document: string;
  /**
   * OpenAPI summary, where the root field's description does not fit the REST answer (default: its
   * first sentence). The operation's description opens with this summary, or else with the root
   * field's whole description: what the operation does, said once.
   */
  summary?: string;
  /** What the REST wire adds to that (the answer, its order, who may call): the description goes on with it. */
  description: string;
  /** The operation's area, its one OpenAPI tag (default: the module definition's). */
  tag?: ApiTag;
  /** Error identifiers this route can answer with. */
  errors: string[];
  /** Success status (default 200). */
  status?: number;
  /** 'none': the answer has no payload (204, and endpoint 2's 200). Default: the root field. */
  body?: 'none';
  /** Reference data: the same for everyone, so any cache may keep it an hour (http-cache.ts). */
  reference?: boolean;
  /** Bindings that differ from the default (see Binding). */
  bind?: Record<string, Binding>;
  /** Variables the route computes from the bound ones; clients do not send them. */
  computed?: Record<string, (variables: Record<string, unknown>) => unknown>;
  /**
   * Bytes of JSON body the route admits, where its arguments carry bounds no input type's rule
   * says (body-limit.ts works the rest out from the rules; never below 1 MB).
   */
  bodyLimit?: number;
  /** The identifier of a malformed value (default WSInvalidParameterException). */
  invalid?: ErrorCode;
  /** A check of the caller that must pass before the body is read (uploads: nothing of a refused caller is stored). */
  before?: (ctx: Context) => Promise<unknown>;
  /** The body is multipart/form-data: text parts and file parts (Upload variables). */
  multipart?: MultipartSpec;
  /** A flat form whose numbered parts (assetName1, assetImageFile1, ...) fill a list of the input (form.ts). */
  form?: FormShape;
  /**
   * Writes the response itself from the GraphQL data (a file download streams its bytes), with the
   * request's context (its EntityManager and loaders: what the document read is read again without
   * a statement). A method, so that each route's writer may declare the shape of its own document's data.
   */
  respond?(ctx: Koa.Context, data: unknown, request: Context): Promise<void> | void;
  /** Media type of a `respond` answer (default application/json). */
  responseContentType?: string;
  /**
   * The whole list, streamed, when the request does not name `unless` (a page number): the
   * document runs in batches of `batch` items, each after the `cursor` field of the last.
   */
  wholeList?: { unless: string; after: string; pageSize: string; cursor: string; batch: number };
}

/**
 * A route as its module declares it: its document may hold REST bodies (body-selection.ts doc and
 * body), which the route table works out once every module is loaded (routes.ts).
 */
export type DeclaredRoute = Omit<RouteDef, 'document'> & { document: RouteText };

/** A route as a module writes it: `at` is "METHOD /path"; the operation is the document's name. */
export type RouteSpec = Omit<DeclaredRoute, 'operation' | 'method' | 'path'> & { at: `${HttpMethod} /${string}` };

export function route({ at, ...rest }: RouteSpec): DeclaredRoute {
  const [method, path] = at.split(' ') as [HttpMethod, string];
  const written = typeof rest.document === 'string' ? rest.document : rest.document.written;
  const operation = /^\s*(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(written)?.[1];
  if (!operation) throw new Error(`Route ${at}: the document must be a named query or mutation`);
  return { operation, method, path, ...rest };
}

/**
 * A public reference list: no credential, kept by caches (http-cache.ts); a filter it takes can be
 * invalid. `description` is what the REST answer adds to the root field's description.
 */
export function referenceList(path: `/${string}`, document: RouteText, description: string): DeclaredRoute {
  const errors = (typeof document === 'string' ? document : document.written).includes('$')
    ? ['WSInvalidParameterException', 'WSRefDataServiceException']
    : ['WSRefDataServiceException'];
  return route({ at: `GET ${path}`, credential: 'none', document, reference: true, tag: 'Reference data', description, errors });
}
