// The membership module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Company administration of memberships through the company API key: member identifiers and their connections.
import { defineModule } from '../../core/module';
import { MembershipResolver } from './membership.resolver';
import { membershipRoutes } from './membership.routes';

export const membership = defineModule({
  name: 'membership',
  resolvers: [MembershipResolver],
  tag: 'Company administration',
  routes: membershipRoutes,
});
