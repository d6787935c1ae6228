// What the two subscription transports (live-ws.ts, live-sse.ts) share: the caller's
// authentication at connect (x-service-authtoken, as every request), the sessions of this
// instance by token, ended at once when any instance revokes the token (the bus) or when it
// expires, the check that a document is one valid subscription under the /graphql limits, and
// GRAPHQL_TRUSTED_DOCUMENTS as /graphql applies it (untrusted).
// It also holds the counts that bound them (config.live): the live connections of the instance
// (taken at a WebSocket's upgrade or an event stream's request, signed in or not, given back when
// the connection ends however it ends) and those of each token (its sessions).
import crypto from 'node:crypto';
import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import type { LiveLimits } from '../config';
import type { Logger } from '../logger';
import { buildContext, type AppDeps, type Context } from '../context';
import { LiveContext } from './live-context';
import { newUuid } from '../core/uuid';
import { ServiceError } from '../core/errors';
import type { RouteDef } from '../rest/route';
import { liveDocumentGuard } from '../graphql/plugins/trusted-documents';
import { graphqlArmor, GRAPHQL_LIMITS } from '../graphql/limits';
import { documentBytes } from '../graphql/apollo';

/** Why a session ended: the token was refused (logout, expiry) or the service is stopping. */
export type EndReason = 'revoked' | 'shutdown';

export interface LiveSession {
  /** The GraphQL context of the connection: its credentials, the rest made on use (release() drops it). */
  ctx: LiveContext;
  userId: number;
  /** Ends the session's transport (closes the socket, completes the stream); called once. */
  close(): void;
}

interface Entry {
  session: LiveSession;
  tokenHash: string;
  token: string;
  end: (reason: EndReason) => void;
  /** When to look at the token again (ms since the epoch; Infinity while a look is under way). */
  due: number;
  ended: boolean;
}

/**
 * How often the sessions due for a look at their token are sought: a session ends within this of
 * its token's expiry. One timer for all the sessions, where a timer of each held some 300 bytes of
 * each idle subscription (docs/performance.md). A turn walks the sessions only when the earliest
 * is due (a walk over ten thousand took 2-4 ms in a CPU profile of the service).
 */
const EXPIRY_SWEEP_MS = 1000;
/** What a client refused for a limit is told to wait before trying again (Retry-After, seconds). */
const RETRY_AFTER_SECONDS = 5;

/** A refusal for a live connection's limit: 429 for the token's, 503 for the instance's. */
const limitExceeded = (status: 429 | 503, message: string) =>
  new ServiceError('WSLimitExceededException', message, { status, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });

export class LiveSessions {
  /** The transports' bounds (LIVE_*). */
  readonly limits: LiveLimits;
  private readonly byToken = new Map<string, Set<Entry>>();
  private readonly stopListening: () => void;
  private readonly trusted: ReturnType<typeof liveDocumentGuard>;
  /** Live connections held on this instance (admit). */
  private connections = 0;
  /** The sweep for sessions due for a look at their token (while any session is open). */
  private sweeper: NodeJS.Timeout | null = null;
  /** No session is due before this (ms since the epoch). */
  private earliestDue = Infinity;

  constructor(
    private readonly deps: AppDeps,
    routes: readonly RouteDef[],
  ) {
    this.limits = deps.config.live;
    this.trusted = liveDocumentGuard(deps.config, routes);
    this.stopListening = deps.services.identity.onRevoked((hashes) => {
      if (hashes) for (const hash of hashes) for (const entry of [...(this.byToken.get(hash) ?? [])]) this.finish(entry, 'revoked');
      // Revocations may have been missed (the bus reconnected): check every token again.
      else for (const set of this.byToken.values()) for (const entry of set) void this.recheck(entry);
    });
  }

  /**
   * Takes one of the instance's live connections (LIVE_MAX_CONNECTIONS) for a connection that
   * starts, before it is signed in; throws WSLimitExceededException (503, Retry-After) when all are
   * held. The function returned gives it back: call it when the connection ends, however it ends
   * (calls after the first do nothing).
   */
  admit(): () => void {
    if (this.connections >= this.limits.maxConnections) {
      this.deps.logger.warn(
        { event: 'live.refused', limit: 'connections', held: this.connections },
        'live connection refused: instance full',
      );
      throw limitExceeded(503, 'This instance holds as many live connections as it serves; try again later.');
    }
    this.connections++;
    let held = true;
    return () => {
      if (held) this.connections--;
      held = false;
    };
  }

  /**
   * Authenticates a connection with the token; throws the ServiceError of the refusal
   * (WSInvalidAuthTokenException, WSCacheServiceException; WSLimitExceededException, 429 with
   * Retry-After, when the token already holds LIVE_MAX_CONNECTIONS_PER_TOKEN sessions here). `end`
   * is called once if the token is revoked or expires later, or when the service stops. `apiKey`
   * (x-api-key) is the session's too: under GRAPHQL_TRUSTED_DOCUMENTS=enforce, a system token with
   * the explore scope may subscribe with documents outside the manifest (untrusted). `requestId`
   * is on every line the session logs: an event stream's is its request's, a socket's a new one.
   */
  async open(token: string | undefined, end: (reason: EndReason) => void, apiKey?: string, requestId = newUuid()): Promise<LiveSession> {
    const headers = { ...(token ? { 'x-service-authtoken': token } : {}), ...(apiKey ? { 'x-api-key': apiKey } : {}) };
    // The principal resolved here stays on the context until the first operation has started.
    const ctx = new LiveContext(this.deps, requestId, headers);
    const principal = await ctx.auth.requireUser();
    // Checked and added with no await between: concurrent opens of one token cannot both pass.
    const held = this.byToken.get(principal.tokenHash)?.size ?? 0;
    if (held >= this.limits.maxConnectionsPerToken) {
      ctx.logger.info({ event: 'live.refused', limit: 'token', userId: principal.user.uId, held }, 'live connection refused: token full');
      ctx.release();
      throw limitExceeded(429, `This token holds ${held} live connections, the most allowed; close one first.`);
    }
    const entry: Entry = {
      token: token!,
      tokenHash: principal.tokenHash,
      end,
      due: Infinity,
      ended: false,
      session: { ctx, userId: principal.user.uId, close: () => this.finish(entry, null) },
    };
    let set = this.byToken.get(entry.tokenHash);
    if (!set) this.byToken.set(entry.tokenHash, (set = new Set()));
    set.add(entry);
    this.schedule(entry, principal.expiresAt.getTime());
    return entry.session;
  }

  /**
   * GRAPHQL_TRUSTED_DOCUMENTS for a subscription's text, as /graphql applies it: under `enforce`, the
   * refusal (403 WSInsufficientPrivilegesException) of a document outside the manifest that the
   * session may not explore with; else null (`log` logs an unknown document once).
   */
  async untrusted(session: LiveSession, query: string, operationName: unknown): Promise<ServiceError | null> {
    return this.trusted ? this.trusted(session.ctx, query, operationName) : null;
  }

  /** The service's logger (the transports' lines that belong to no session). */
  get logger(): Logger {
    return this.deps.logger;
  }

  /** Ends every session (the service is stopping). */
  closeAll(): void {
    for (const set of [...this.byToken.values()]) for (const entry of [...set]) this.finish(entry, 'shutdown');
    this.stopListening();
    this.stopSweep();
  }

  /** A context of its own for looking at a session's token again (dropped after). */
  private context(token: string): Context {
    const requestId = crypto.randomUUID();
    return buildContext(this.deps, requestId, { 'x-service-authtoken': token }, () => this.deps.logger.child({ requestId }));
  }

  /** At the token's expiry, look again: a token used meanwhile has slid forward. The session is
   * not a use of its token: looking again never moves the expiry. */
  private schedule(entry: Entry, expiresAt: number): void {
    entry.due = expiresAt + 50;
    this.earliestDue = Math.min(this.earliestDue, entry.due);
    this.sweeper ??= setInterval(() => this.sweep(), EXPIRY_SWEEP_MS).unref();
  }

  /** Looks again at the tokens of the sessions that are due; stops once no session is left. */
  private sweep(): void {
    if (!this.byToken.size) return this.stopSweep();
    const now = Date.now();
    if (now < this.earliestDue) return;
    // The next earliest, among those not due now (a look under way reschedules its own).
    let earliest = Infinity;
    for (const set of this.byToken.values())
      for (const entry of set) {
        if (entry.due <= now) void this.recheck(entry);
        else earliest = Math.min(earliest, entry.due);
      }
    this.earliestDue = earliest;
  }

  private stopSweep(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    this.earliestDue = Infinity;
  }

  private async recheck(entry: Entry): Promise<void> {
    if (entry.ended) return;
    // One look at a time.
    entry.due = Infinity;
    try {
      const principal = await this.context(entry.token).auth.checkUser();
      this.schedule(entry, principal.expiresAt.getTime());
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'WSInvalidAuthTokenException') this.finish(entry, 'revoked');
      // The cache or the database did not answer: look again shortly rather than drop the client.
      else this.schedule(entry, Date.now() + 5_000);
    }
  }

  /** Unregisters; `reason` null: the transport itself closed (nothing to tell it). */
  private finish(entry: Entry, reason: EndReason | null): void {
    if (entry.ended) return;
    entry.ended = true;
    entry.session.ctx.release();
    const set = this.byToken.get(entry.tokenHash);
    set?.delete(entry);
    if (set?.size === 0) this.byToken.delete(entry.tokenHash);
    if (reason) entry.end(reason);
  }
}

const armor = graphqlArmor();
const RULES = [...specifiedRules, ...armor.validationRules];

/**
 * Valid documents kept, by text (least recently used out first): the same subscription from ten
 * thousand clients is one document, parsed and validated once. A document that fails validation is
 * not kept. Documents keep their locations, so that an error names where it is in the text, as
 * /graphql's answers do (asAnswered).
 */
export const MAX_LIVE_DOCUMENTS = 64;
/**
 * The heap the kept documents may take together, as /graphql's document store measures it
 * (documentBytes: the text and 400 bytes a token): 8 MB holds a 64 KB document of long names, a
 * socket message's most, or 40 KB of the densest text, one-letter fields (whose tokens take some
 * 480 bytes each on the heap: some 10 MB).
 */
const MAX_LIVE_DOCUMENTS_BYTES = 8 * 1024 * 1024;

/** The kept documents of each schema. */
const documents = new WeakMap<GraphQLSchema, LRUCache<string, DocumentNode>>();

function documentsOf(schema: GraphQLSchema): LRUCache<string, DocumentNode> {
  let kept = documents.get(schema);
  if (!kept) {
    kept = new LRUCache({ max: MAX_LIVE_DOCUMENTS, maxSize: MAX_LIVE_DOCUMENTS_BYTES, sizeCalculation: documentBytes });
    documents.set(schema, kept);
  }
  return kept;
}

/** How many valid subscription documents are kept for `schema` now (tests and diagnostics). */
export const liveDocumentsKept = (schema: GraphQLSchema): number => documents.get(schema)?.size ?? 0;

/**
 * Parses and validates a document sent to a subscription transport: one subscription operation
 * (queries and mutations go to POST /graphql), within the same limits as /graphql. A text seen
 * before answers the document parsed then (the same object).
 */
export function subscriptionDocument(
  schema: GraphQLSchema,
  query: unknown,
  operationName?: string | null,
): { document: DocumentNode } | { errors: GraphQLError[] } {
  // The codes Apollo gives the same failures on /graphql.
  const bad = (message: string, code = 'BAD_REQUEST') => ({ errors: [new GraphQLError(message, { extensions: { code } })] });
  if (typeof query !== 'string' || !query) return bad('A GraphQL document (query) is required.');
  const kept = documentsOf(schema);
  let document = kept.get(query);
  if (!document) {
    try {
      document = parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
    } catch (err) {
      if (!(err instanceof GraphQLError)) return bad('The document does not parse.', 'GRAPHQL_PARSE_FAILED');
      // A syntax error keeps its place in the text (its locations).
      const { source, positions } = err;
      return { errors: [new GraphQLError(err.message, { source, positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
    }
    let errors: readonly GraphQLError[];
    try {
      errors = validate(schema, document, RULES);
    } catch (err) {
      // graphql-js 16's SingleFieldSubscriptionsRule throws where a variable decides the root field
      // (`notificationReceived @include(if: $on)`): it collects the fields without variables.
      if (!(err instanceof GraphQLError)) throw err;
      errors = [err];
    }
    if (errors.length) {
      return {
        errors: errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })),
      };
    }
    kept.set(query, document);
  }
  // The named operation, or the only one.
  const operation = getOperationAST(document, operationName || undefined);
  if (!operation) return bad('Name the operation to run (operationName).', 'OPERATION_RESOLUTION_FAILURE');
  if (operation.operation !== OperationTypeNode.SUBSCRIPTION) {
    return bad('Only subscriptions are served here; send queries and mutations to POST /graphql.');
  }
  return { document };
}
