// A GraphQL query reads on a replica that has the caller's writes (src/db/replicas.ts); a mutation
// runs, reads included, on the primary. Installed only with DATABASE_REPLICA_URLS.
import type { ApolloServerPlugin } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import { credentialKey, type Context } from '../../context';
import { markWrite, routeReads } from '../../db/replicas';

export const readRoutingPlugin: ApolloServerPlugin<Context> = {
  async requestDidStart({ contextValue }) {
    if (!contextValue.services.reads) return;
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === OperationTypeNode.QUERY) await routeReads(credentialKey(contextValue.credentials));
        else if (operation?.operation === OperationTypeNode.MUTATION) markWrite();
      },
    };
  },
};
