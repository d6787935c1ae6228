// Names the /graphql operation span after the operation Apollo resolved (the HTTP route alone
// says only "graphql"), and marks it with the service's error identifier when the operation
// fails. Does nothing when tracing is off. The name is the client's, one token of any length: the
// span keeps at most MAX_LOGGED_NAME characters of it, as the access log does.
import type { ApolloServerPlugin } from '@apollo/server';
import type { OperationTypeNode } from 'graphql';
import type { Span } from '@opentelemetry/api';
import type { Context } from '../../context';
import { classify } from '../../core/error-mapping';
import { activeSpan, recordOperationError } from '../../observability/tracing';
import { MAX_LOGGED_NAME } from './request-outcome';

/** Names the request's span after its operation (at most MAX_LOGGED_NAME characters of the client's name); the /graphql lane's too. */
export function nameOperationSpan(span: Span, operationName: string | null | undefined, type: OperationTypeNode | undefined): void {
  const name = operationName?.slice(0, MAX_LOGGED_NAME);
  span.updateName(name ?? 'anonymous');
  if (type) span.setAttribute('graphql.operation.type', type);
  if (name) span.setAttribute('graphql.operation.name', name);
}

export function operationSpanPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      const span = activeSpan();
      if (!span?.isRecording()) return;
      return {
        async didResolveOperation({ operationName, operation }) {
          nameOperationSpan(span, operationName, operation?.operation);
        },
        async didEncounterErrors({ errors }) {
          const classified = classify(errors[0]);
          recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
        },
      };
    },
  };
}
