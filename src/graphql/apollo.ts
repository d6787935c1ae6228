// The Apollo server of /graphql: the document limits, what clients may see (introspection,
// error details), the Sandbox landing page (which links to the bundled explorer at /graphiql
// when Sandbox cannot load; neither is served with introspection off), and the service's own plugins. Started here; the
// HTTP mount is src/http/graphql-route.ts.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config';
import type { Context } from '../context';
import { ROUTES } from '../rest/routes';
import { graphqlArmor, GRAPHQL_LIMITS } from './limits';
import { withExplorerLink } from '../explorer/landing-page';
import { sandboxDocument } from './sandbox';
import { formatError } from './format-error';
import { operationSpanPlugin } from './plugins/operation-span';
import { requestOutcomePlugin } from './plugins/request-outcome';
import { jitExecutor, jitGateway } from './jit-executor';

export async function startApollo(schema: GraphQLSchema, config: Config): Promise<ApolloServer<Context>> {
  const armor = graphqlArmor();
  const apollo = new ApolloServer<Context>({
    // The schema through a gateway whose executor runs hot documents as compiled code (jit-executor.ts).
    gateway: jitGateway(schema, jitExecutor(schema).executor),
    validationRules: armor.validationRules,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    // server.ts owns the signals: it drains HTTP first, then stops Apollo, then the database.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: !config.introspection,
    formatError,
    plugins: [
      ...armor.plugins,
      ApolloServerPluginInlineTraceDisabled(),
      // No type or field carries a cache hint, so every answer is no-store (set by
      // requestOutcomePlugin). Apollo's cache-control plugin hooks every field of every operation
      // (and wraps every resolver of the schema in place to do it): 8-11% of a list read's CPU.
      ApolloServerPluginCacheControlDisabled(),
      // Sandbox reads the schema by introspection: without it the page could show nothing.
      config.introspection
        ? withExplorerLink(
            ApolloServerPluginLandingPageLocalDefault({
              embed: true,
              includeCookies: false,
              document: sandboxDocument(ROUTES),
              headers: { 'x-service-authtoken': '' },
            }),
          )
        : ApolloServerPluginLandingPageDisabled(),
      operationSpanPlugin(),
      requestOutcomePlugin(),
    ],
  });
  await apollo.start();
  return apollo;
}
