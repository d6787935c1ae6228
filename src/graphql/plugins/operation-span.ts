// Names the /graphql operation span after the operation Apollo resolved (the HTTP route alone
// says only "graphql"), and marks it with the service's error identifier when the operation
// fails. Does nothing when tracing is off. The name is the client's, one token of any length: the
// span keeps at most MAX_LOGGED_NAME characters of it, as the access log does.
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../../context';
import { classify } from '../../core/error-mapping';
import { activeSpan, recordOperationError } from '../../observability/tracing';
import { MAX_LOGGED_NAME } from './request-outcome';

export function operationSpanPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      const span = activeSpan();
      if (!span?.isRecording()) return;
      return {
        async didResolveOperation({ operationName, operation }) {
          const name = operationName?.slice(0, MAX_LOGGED_NAME);
          span.updateName(name ?? 'anonymous');
          if (operation) span.setAttribute('graphql.operation.type', operation.operation);
          if (name) span.setAttribute('graphql.operation.name', name);
        },
        async didEncounterErrors({ errors }) {
          const classified = classify(errors[0]);
          recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
        },
      };
    },
  };
}
