// The team module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Teams of a company and their members (team admins included).
import { defineModule } from '../../core/module';
import { Team, TeamMember } from './team.entity';

export const team = defineModule({
  name: 'team',
  entities: [Team, TeamMember],
});

export { Team, TeamMember } from './team.entity';
export { memberOfCompanyTeams, teamAdminOf, teamMemberExists, teamMemberIdOf, teamMemberships } from './team.queries';
