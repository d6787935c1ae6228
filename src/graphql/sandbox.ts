// The example operations Apollo Sandbox opens with: the documents the REST routes run, so an
// analyst starts from the specification's operations by name.
import type { RouteDef } from '../rest/route';

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
    '# Example operations (the REST facade runs these by name). Add the header\n# x-service-authtoken: <authToken from POST /rest/user/login> for the user operations.\n\n';
  return (
    header +
    EXAMPLES.map((op) => routes.find((r) => r.operation === op)?.document.trim())
      .filter(Boolean)
      .join('\n\n') +
    '\n'
  );
}
