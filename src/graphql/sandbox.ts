// Apollo Sandbox, /graphql's landing page: pinned to one build of Apollo's embedded Sandbox, with
// example operations to open with: first the home-screen query (the graph in one round trip),
// then the documents the REST routes run, so an analyst starts from the specification's
// operations by name. Where the page cannot load Sandbox it links to the bundled explorer
// (/graphiql), when that is served (src/explorer/landing-page.ts).
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { Context } from '../context';
import type { RouteDef } from '../rest/route';
import { withExplorerLink } from '../explorer/landing-page';
import { HOME_SCREEN_QUERY } from './examples';

/**
 * The embedded Sandbox build the page loads: a commit of apollographql/embeddable-explorer, whose
 * build Apollo's CDN keeps under it (embeddable-sandbox.cdn.apollographql.com/<commit>/), not the
 * moving `v2` and `_latest` Apollo Server loads by default. This one is @apollo/sandbox 2.7.2's
 * fix of cookies passed through postMessage requests (embeddable-explorer #329). To move on, take
 * the commit of a later release from packages/sandbox/CHANGELOG.md there. Apollo Server names the
 * same version in the links to its favicon and manifest (on its own landing-page CDN).
 */
export const SANDBOX_VERSION = '8c7be6b4ffcf8f76287fc01d43b210073d571fd6';

const EXAMPLES = [
  'getAllTimezones',
  'getConditions',
  'findUserProfile',
  'getUserAddresses',
  'getEConsents',
  'getAddressesForDirectoryContact',
  'getRecommendedEntitiesForUser',
  'getRecommendedCriteriaForEntity',
  'findEventsForUserAndCompany',
  'getSentNotifications',
];

export function sandboxDocument(routes: readonly RouteDef[]): string {
  const header =
    '# Example operations: the home screen, then the operations the REST facade runs by name. Add the header\n# x-service-authtoken: <authToken from POST /rest/user/login> for the user operations.\n\n';
  const documents = [HOME_SCREEN_QUERY.trim(), ...EXAMPLES.map((op) => routes.find((r) => r.operation === op)?.document.trim())];
  return header + documents.filter(Boolean).join('\n\n') + '\n';
}

/** The landing page plugin: Sandbox at SANDBOX_VERSION, opening with sandboxDocument; with the /graphiql link when `explorerLink`. */
export function sandboxLandingPage(routes: readonly RouteDef[], { explorerLink }: { explorerLink: boolean }): ApolloServerPlugin<Context> {
  const page = ApolloServerPluginLandingPageLocalDefault({
    version: SANDBOX_VERSION,
    embed: true,
    includeCookies: false,
    document: sandboxDocument(routes),
    headers: { 'x-service-authtoken': '' },
  });
  return explorerLink ? withExplorerLink(page) : page;
}
