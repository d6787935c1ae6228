// Trusted documents on /graphql (GRAPHQL_TRUSTED_DOCUMENTS): a document is known when the SHA-256
// of its text, or the id it is sent by (extensions.persistedQuery.sha256Hash), is in the manifest
// (trusted-manifest.ts).
//   log      every document runs; the first request of each unknown document is logged.
//   enforce  an unknown document is refused, unless the caller may explore: a system token
//            (x-api-key) with the `explore` scope, or the router's `federation` scope (the router
//            plans its own fetches and safelists its clients itself).
// The guard runs while the request's context is built (src/http/graphql-route.ts), before Apollo
// reads the persisted query store, parses or validates anything: an Apollo plugin cannot refuse
// that early (a plugin hook that throws before parsing is answered as an internal error). A
// refusal also keeps Apollo from registering the document as a persisted query, so under
// `enforce` no one else can register one. The manifest's documents are found by id too
// (manifestFirst), so a client may send the id alone. The live transports (src/http/live-*.ts)
// check a subscription's text the same way (liveDocumentGuard), with the connection's x-api-key.
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { PrefixingKeyValueCache, type KeyValueCache, type KeyValueCacheSetOptions } from '@apollo/utils.keyvaluecache';
import type { Config } from '../../config';
import type { RouteDef } from '../../rest/route';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { documentId, trustedDocuments } from '../trusted-manifest';

/** The system-token scope that may run documents outside the manifest under `enforce`. */
export const EXPLORE_SCOPE = 'explore';
/** The router's own scope (src/modules/user/user.reference.ts): its query plans' fetches are not client documents. */
const ROUTER_SCOPE = 'federation';

/** Unknown documents remembered per instance, so each is logged once (the oldest is forgotten first). */
export const LOGGED_UNKNOWN_MAX = 1000;

export const NOT_TRUSTED_MESSAGE =
  'The document is not in the trusted documents manifest. Send a manifest document (its text, or its id as ' +
  'extensions.persistedQuery.sha256Hash), or a system token with the explore scope in x-api-key.';

/** Apollo answers an error of the context function with the status and headers it carries. */
function refusal(error: ServiceError): ServiceError {
  (error.extensions as Record<string, unknown>).http = { status: error.status, headers: new HeaderMap([['cache-control', 'no-store']]) };
  return error;
}

const lacksScope = (err: unknown) => err instanceof ServiceError && err.code === 'InsufficientPrivilegesException';

/**
 * Whether the caller may run a document outside the manifest. Only an x-api-key is looked at; an
 * unknown or revoked one is answered as everywhere (401 WSInvalidAuthTokenException), so an
 * explorer learns that their key is wrong rather than that the document is.
 */
async function mayExplore(ctx: Context): Promise<boolean> {
  if (!ctx.credentials.apiKey) return false;
  for (const scope of [ROUTER_SCOPE, EXPLORE_SCOPE]) {
    try {
      await ctx.auth.requireSystem(scope);
      return true;
    } catch (err) {
      if (!lacksScope(err)) throw err;
    }
  }
  return false;
}

/** A GraphQL-over-HTTP request as it arrived: the JSON body, the multipart operations, or GET's query parameters. */
type RawRequest = { query?: unknown; operationName?: unknown; extensions?: unknown };

/**
 * The id of the document a request names: the SHA-256 of its text, else the persisted query id it
 * sends. Null when it names none (a malformed or batched request): Apollo answers those.
 */
function documentIdOf(request: unknown): string | null {
  if (!request || typeof request !== 'object' || Array.isArray(request)) return null;
  const { query, extensions } = request as RawRequest;
  if (typeof query === 'string' && query) return documentId(query);
  let ext = extensions;
  if (typeof ext === 'string') {
    try {
      ext = JSON.parse(ext);
    } catch {
      return null;
    }
  }
  const hash = (ext as { persistedQuery?: { sha256Hash?: unknown } } | null | undefined)?.persistedQuery?.sha256Hash;
  return typeof hash === 'string' ? hash : null;
}

/** GET's query parameters as Apollo reads them: each of them only when given once (else Apollo refuses the request). */
export function getParameters(search: string): RawRequest {
  const params = new URLSearchParams(search);
  const once = (name: string) => (params.getAll(name).length === 1 ? params.get(name)! : undefined);
  return { query: once('query'), operationName: once('operationName'), extensions: once('extensions') };
}

/**
 * What the guard let through, per request: the document's id, or EXPLORER for a caller who may
 * explore. Keyed by the request's credentials, an object of its own that Apollo's copy of the
 * context shares.
 */
const admitted = new WeakMap<Context['credentials'], string>();
const EXPLORER = '*';

/** The check of a request's document; `id` when the caller knows it already (the /graphql lane), else the request's. */
export type TrustedDocumentGuard = (ctx: Context, request: unknown, id?: string) => Promise<void>;

/**
 * What GRAPHQL_TRUSTED_DOCUMENTS says of a document, by its id, for a caller: 'manifest' or
 * 'explorer' (under `enforce`, a caller who may explore) when it may run, null when it runs
 * anyway (`log`, after logging an unknown id once; or no id: Apollo's to refuse), else the
 * refusal. The /graphql guard and the live transports' (liveDocumentGuard) share it, and so its
 * one log of unknown ids.
 */
type Verdict = 'manifest' | 'explorer' | null | ServiceError;
type Judge = (ctx: Context, id: string | null, operationName: unknown) => Promise<Verdict>;

const judges = new WeakMap<Config, Judge | null>();

function judgeOf(config: Config, routes: readonly RouteDef[]): Judge | null {
  if (judges.has(config)) return judges.get(config)!;
  const mode = config.trustedDocuments;
  let judge: Judge | null = null;
  if (mode !== 'off') {
    const trusted = trustedDocuments(config, routes);
    const logged = new Set<string>();
    judge = async (ctx, id, operationName) => {
      if (id !== null && trusted.has(id)) return 'manifest';
      if (id === null) return null;
      if (mode === 'log') {
        if (logged.has(id)) return null;
        if (logged.size >= LOGGED_UNKNOWN_MAX) logged.delete(logged.values().next().value!);
        logged.add(id);
        ctx.logger.warn(
          {
            documentId: id,
            operationName: typeof operationName === 'string' ? operationName.slice(0, 100) : undefined,
            apiKey: Boolean(ctx.credentials.apiKey),
          },
          'document not in the trusted documents manifest',
        );
        return null;
      }
      try {
        return (await mayExplore(ctx)) ? 'explorer' : new ServiceError('WSInsufficientPrivilegesException', NOT_TRUSTED_MESSAGE);
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        return err;
      }
    };
  }
  judges.set(config, judge);
  return judge;
}

/** The check of GRAPHQL_TRUSTED_DOCUMENTS for /graphql; null when it is `off`. Throws the refusal under `enforce`. */
export function trustedDocumentGuard(config: Config, routes: readonly RouteDef[]): TrustedDocumentGuard | null {
  const judge = judgeOf(config, routes);
  if (!judge) return null;
  // Only `enforce`'s plugin reads what was admitted (trustedDocumentsPlugin).
  const enforced = config.trustedDocuments === 'enforce';
  return async (ctx, request, knownId) => {
    const id = knownId ?? documentIdOf(request);
    // A request naming no document is Apollo's to refuse (400); should it run one after all, the plugin refuses it.
    const verdict = await judge(ctx, id, (request as RawRequest | null)?.operationName);
    if (verdict === 'manifest') {
      if (enforced) admitted.set(ctx.credentials, id!);
    } else if (verdict === 'explorer') {
      if (enforced) admitted.set(ctx.credentials, EXPLORER);
    } else if (verdict) {
      if (ctx.request) ctx.request.errorCode = verdict.code;
      throw refusal(verdict);
    }
  };
}

/**
 * The same check for a subscription sent to a live transport (the WebSocket on /graphql,
 * /graphql/stream), by the SHA-256 of its text (the live transports take text, not ids): the
 * refusal under `enforce`, else null. `ctx` is the session's, whose x-api-key says who may explore.
 */
export function liveDocumentGuard(
  config: Config,
  routes: readonly RouteDef[],
): ((ctx: Context, query: string, operationName: unknown) => Promise<ServiceError | null>) | null {
  const judge = judgeOf(config, routes);
  if (!judge) return null;
  return async (ctx, query, operationName) => {
    const verdict = await judge(ctx, documentId(query), operationName);
    return verdict instanceof ServiceError ? verdict : null;
  };
}

/**
 * Under `enforce`, the second line: the document Apollo resolved must be the one the guard let
 * through (the same hash), should Apollo ever read a request otherwise than the guard did. Thrown
 * from didResolveOperation, the refusal is answered as a GraphQL error with its status; nothing
 * has run and no persisted query has been registered yet.
 */
export function trustedDocumentsPlugin(config: Config): ApolloServerPlugin<Context> | null {
  if (config.trustedDocuments !== 'enforce') return null;
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, queryHash }) {
          const id = admitted.get(contextValue.credentials);
          if (id === EXPLORER || id === queryHash) return;
          throw refusal(new ServiceError('WSInsufficientPrivilegesException', NOT_TRUSTED_MESSAGE));
        },
      };
    },
  };
}

/**
 * The automatic-persisted-query store with the manifest in front: a manifest document's id is
 * always found, whatever the store holds or has evicted. Keys are the bare hashes (Apollo's
 * `apq:` prefix is not needed: the store holds nothing else; the Redis store adds its own).
 */
export function manifestFirst(store: KeyValueCache<string>, bodies: ReadonlyMap<string, string>): KeyValueCache<string> {
  return PrefixingKeyValueCache.cacheDangerouslyDoesNotNeedPrefixesForIsolation({
    get: async (key: string) => bodies.get(key) ?? store.get(key),
    set: async (key: string, value: string, options?: KeyValueCacheSetOptions) => {
      if (!bodies.has(key)) await store.set(key, value, options);
    },
    delete: (key: string) => store.delete(key),
  });
}
