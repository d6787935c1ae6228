// The Apollo server of /graphql: the document limits, what clients may see (introspection, "Did
// you mean" suggestions, error details), the Sandbox landing page (which links to the bundled
// explorer at /graphiql when Sandbox cannot load and that is served), each switched on by its own
// variable and off by default in production (src/config.ts), the service's own plugins,
// its two caches of client documents bounded in bytes (the persisted queries' in Redis with
// REDIS_URL, the trusted documents found there by id). Started here; the HTTP mount, which checks
// documents against the trusted manifest, is src/http/graphql-route.ts.
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { DocumentNode, GraphQLSchema, Token } from 'graphql';
import type { Config } from '../config';
import type { Context } from '../context';
import type { Logger } from '../logger';
import { connectRedis } from '../core/store';
import type { RouteDef } from '../rest/route';
import { graphqlArmor, GRAPHQL_LIMITS } from './limits';
import { sandboxLandingPage } from './sandbox';
import { formatError } from './format-error';
import { operationSpanPlugin } from './plugins/operation-span';
import { requestOutcomePlugin } from './plugins/request-outcome';
import { textInputPlugin } from './plugins/text-input';
import { idempotencyPlugin } from './plugins/idempotency';
import { readRoutingPlugin } from './plugins/read-routing';
import { representationsPlugin } from './plugins/representations';
import { manifestFirst, trustedDocumentsPlugin } from './plugins/trusted-documents';
import { trustedDocuments } from './trusted-manifest';
import { memoryApqStore, redisApqStore } from './apq-store';
import { jitExecutor, jitGateway, MAX_COMPILED, MAX_COMPILED_BYTES, type JitExecutor } from './jit-executor';

/**
 * Bytes of heap the parsed documents kept (least recently used out first) may take, by
 * documentBytes(): a client app sends a few dozen distinct documents of a few KB to a few tens of
 * KB. Apollo's default store holds 30 MiB measured as each document's JSON, which leaves out the
 * source text every node's location keeps (a document padded with a 200 KB comment counts as 500
 * bytes) and is a quarter of what the nodes take on the heap.
 */
export const DOCUMENT_STORE_BYTES = 8 * 1024 * 1024;

/**
 * The heap a parsed document holds, near enough: its source text (each node's location points to
 * it) and 400 bytes a token for the token, its node and the node's location (measured with
 * graphql 16: 3.3 KB for a 10-token query, 21 KB for the 60-token home screen, 528 KB for 1,800
 * tokens, each with the source).
 */
export function documentBytes(document: DocumentNode): number {
  const loc = document.loc;
  if (!loc) return 5 * Buffer.byteLength(JSON.stringify(document));
  let tokens = 0;
  for (let t: Token | null = loc.startToken; t; t = t.next) tokens++;
  return Buffer.byteLength(loc.source.body) + 400 * tokens;
}

/** Apollo Sandbox as /graphql's landing page, pinned (sandbox.ts), with a link to /graphiql for when it cannot load, if that is served. */
function sandbox(config: Config, routes: readonly RouteDef[]): ApolloServerPlugin<Context> {
  return sandboxLandingPage(routes, { explorerLink: config.explorer });
}

/**
 * Automatic persisted queries: the documents' text by hash, in Redis with REDIS_URL (shared by
 * every instance; its connection closes with the server), else up to GRAPHQL_APQ_CACHE_BYTES here
 * (Apollo's own default is 30 MiB); 0 turns them off (PERSISTED_QUERY_NOT_SUPPORTED). Unless
 * trusted documents are off, the manifest's documents are found by id too.
 */
function persistedQueries(config: Config, logger: Logger, routes: readonly RouteDef[]) {
  if (config.apqCacheBytes === 0) return { persistedQueries: false as const, plugins: [] };
  const { redisUrl, redisKeyPrefix } = config.auth;
  const redis = redisUrl ? connectRedis(redisUrl, redisKeyPrefix, logger) : null;
  const store = redis ? redisApqStore(redis, logger) : memoryApqStore(config.apqCacheBytes);
  const closing: ApolloServerPlugin<Context> = { serverWillStart: async () => ({ serverWillStop: async () => redis?.disconnect() }) };
  return {
    persistedQueries: { cache: manifestFirst(store, config.trustedDocuments === 'off' ? new Map() : trustedDocuments(config, routes)) },
    plugins: redis ? [closing] : [],
  };
}

/** The executor of each Apollo server started here, whose lanes /graphql runs (src/http/graphql-lane.ts). */
const executors = new WeakMap<ApolloServer<Context>, JitExecutor>();
export const jitOf = (apollo: ApolloServer<Context>): JitExecutor | undefined => executors.get(apollo);

export async function startApollo(
  schema: GraphQLSchema,
  config: Config,
  logger: Logger,
  routes: readonly RouteDef[],
): Promise<ApolloServer<Context>> {
  const armor = graphqlArmor();
  const apq = persistedQueries(config, logger, routes);
  // The trusted documents compiled now; Apollo runs a copy of the context, which shares its credentials.
  const jit = jitExecutor(schema, MAX_COMPILED, MAX_COMPILED_BYTES, {
    trusted: trustedDocuments(config, routes),
    validationRules: armor.validationRules,
    answerKey: (context) => (context as Context).credentials,
  });
  const apollo = new ApolloServer<Context>({
    // The schema through a gateway whose executor runs hot documents as compiled code (jit-executor.ts).
    gateway: jitGateway(schema, jit.executor),
    validationRules: armor.validationRules,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    persistedQueries: apq.persistedQueries,
    documentStore: new InMemoryLRUCache<DocumentNode>({ maxSize: DOCUMENT_STORE_BYTES, sizeCalculation: documentBytes }),
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    // server.ts owns the signals: it drains HTTP first, then stops Apollo, then the database.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    // Drops the "Did you mean" of validation errors (a variable's bad value is answered by
    // format-error.ts without one; the schema has no enums whose values graphql-js would suggest).
    hideSchemaDetailsFromClientErrors: !config.suggestions,
    formatError,
    plugins: [
      ...armor.plugins,
      ApolloServerPluginInlineTraceDisabled(),
      // No type or field carries a cache hint, so every answer is no-store (set by
      // requestOutcomePlugin). Apollo's cache-control plugin hooks every field of every operation
      // (and wraps every resolver of the schema in place to do it): 8-11% of a list read's CPU.
      ApolloServerPluginCacheControlDisabled(),
      // Sandbox reads the schema by introspection: config refuses GRAPHQL_SANDBOX without it.
      config.sandbox ? sandbox(config, routes) : ApolloServerPluginLandingPageDisabled(),
      operationSpanPlugin(),
      requestOutcomePlugin(),
      textInputPlugin(),
      // With replicas: a query's reads on one that has the caller's writes; a mutation's on the primary.
      ...(config.databaseReplicaUrls.length ? [readRoutingPlugin] : []),
      // A mutation sent with an Idempotency-Key: stored with its write, replayed to a repeat.
      idempotencyPlugin(routes),
      // The router's `_entities`: bounded and checked before graphql-js coerces a representation.
      representationsPlugin(),
      ...apq.plugins,
      // Under GRAPHQL_TRUSTED_DOCUMENTS=enforce: the document run is the one the /graphql guard admitted.
      ...[trustedDocumentsPlugin(config)].filter((p) => p !== null),
    ],
  });
  await apollo.start();
  executors.set(apollo, jit);
  return apollo;
}
