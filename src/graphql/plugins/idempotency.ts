// Idempotency-Key on /graphql (src/http/idempotency.ts, docs/api/README.md): a mutation sent with
// the header runs in one transaction that also stores its answer, and a repeat of the same
// document, operation name and variables by the same caller is answered what was stored, marked
// Idempotent-Replayed, without running. An answer with errors is not stored: when nothing ran
// (refused before execution) the transaction is rolled back; when it ran, what its fields wrote
// commits as it would without the header (each field's own transaction was a savepoint), and the
// key stays free for a corrected retry. A query or subscription ignores the header, as do the
// mutations that exchange an access token for credentials (REST's takesIdempotencyKey).
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { fingerprintOf, idempotencyKeyOf, REPLAYED_HEADER, scopeOf, type KeptAnswer, type PendingKey } from '../../http/idempotency';
import { SYSTEM_SCOPE } from '../../rest/authenticate';
import type { RouteDef } from '../../rest/route';

/** Root mutation fields whose answers are credentials: the REST routes of credential 'bearer'. */
const unkeyedFields = (routes: readonly RouteDef[]): ReadonlySet<string> =>
  new Set(
    routes
      .filter((r) => r.credential === 'bearer')
      .flatMap((r) =>
        parse(r.document)
          .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
          .flatMap((d) => d.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []))),
      ),
  );

/** Apollo takes the status of an error raised before execution from its extensions. */
function withStatus(err: unknown): unknown {
  if (err instanceof ServiceError) (err.extensions as Record<string, unknown>).http = { status: err.status };
  return err;
}

export function idempotencyPlugin(routes: readonly RouteDef[]): ApolloServerPlugin<Context> {
  const UNKEYED_FIELDS = unkeyedFields(routes);
  return {
    async requestDidStart({ request }): Promise<GraphQLRequestListener<Context> | void> {
      const header = request.http?.headers.get('idempotency-key');
      if (header === undefined) return;
      let replayed: KeptAnswer | undefined;
      let pending: PendingKey | undefined;
      return {
        async didResolveOperation({ operation, contextValue, request: req, queryHash }) {
          if (operation?.operation !== OperationTypeNode.MUTATION) return;
          const fields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
          if (fields.some((f) => UNKEYED_FIELDS.has(f))) return;
          try {
            const key = idempotencyKeyOf(header)!;
            const scope = await scopeOf(contextValue, SYSTEM_SCOPE);
            const fingerprint = await fingerprintOf(
              ['POST', '/graphql', queryHash, req.operationName ?? null, req.variables ?? {}, req.extensions ?? {}],
              'name',
            );
            const opened = await contextValue.services.idempotency.open(contextValue.em, contextValue.services.clock.now(), {
              scope,
              key,
              fingerprint,
            });
            if ('replay' in opened) replayed = opened.replay;
            else pending = opened.pending;
          } catch (err) {
            throw withStatus(err);
          }
        },
        async responseForOperation() {
          if (!replayed) return null;
          const headers = new HeaderMap([[REPLAYED_HEADER.toLowerCase(), 'true']]);
          return { http: { status: replayed.status, headers }, body: { kind: 'single', singleResult: JSON.parse(replayed.body ?? '{}') } };
        },
        async willSendResponse({ response }) {
          if (replayed) response.http.headers.set(REPLAYED_HEADER.toLowerCase(), 'true');
          if (!pending) return;
          const open = pending;
          pending = undefined;
          if (response.body.kind !== 'single') return open.abandon();
          const result = response.body.singleResult;
          if (result.data === undefined || result.data === null) return open.abandon();
          const status = response.http.status ?? 200;
          const clean = !result.errors?.length && status >= 200 && status < 300;
          // What a field that failed wrote was rolled back by its own transaction's savepoint.
          await open.keep(clean ? { status, contentType: null, body: JSON.stringify(result) } : null);
        },
      };
    },
  };
}
