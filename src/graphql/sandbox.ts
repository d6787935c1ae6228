// The example operations Apollo Sandbox opens with: first the home-screen query (the graph in one
// round trip), then the documents the REST routes run, so an analyst starts from the
// specification's operations by name.
import type { RouteDef } from '../rest/route';
import { HOME_SCREEN_QUERY } from './examples';

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

export function sandboxDocument(routes: RouteDef[]): string {
  const header =
    '# Example operations: the home screen, then the operations the REST facade runs by name. Add the header\n# x-service-authtoken: <authToken from POST /rest/user/login> for the user operations.\n\n';
  const documents = [HOME_SCREEN_QUERY.trim(), ...EXAMPLES.map((op) => routes.find((r) => r.operation === op)?.document.trim())];
  return header + documents.filter(Boolean).join('\n\n') + '\n';
}
