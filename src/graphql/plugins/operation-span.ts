// Names the /graphql operation span after the operation Apollo resolved (the HTTP route alone
// says only "graphql"), and marks it with the service's error identifier when the operation
// fails. Does nothing when tracing is off.
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../../context';
import { classify } from '../error-mapping';
import { activeSpan, recordOperationError } from '../../observability/tracing';

export function operationSpanPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      const span = activeSpan();
      if (!span?.isRecording()) return;
      return {
        async didResolveOperation({ operationName, operation }) {
          span.updateName(operationName ?? 'anonymous');
          if (operation) span.setAttribute('graphql.operation.type', operation.operation);
          if (operationName) span.setAttribute('graphql.operation.name', operationName);
        },
        async didEncounterErrors({ errors }) {
          const classified = classify(errors[0]);
          recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
        },
      };
    },
  };
}
