// The team module's SQL (docs/development.md, "Reads and writes"), in schema/sql/team.sql: the
// fragments other modules' queries ask of its tables. The arguments are expressions of the asker's
// query (a column of its own, or a parameter); the aliases inside start with the module's name.
import { sql, type Expression, type SqlBool } from 'kysely';
import { queriesOf } from '../../db/sql';
import { Team, TeamMember } from './team.entity';

const { eb } = queriesOf({ Team, TeamMember });

/** The memberships of user `userId` of team `teamId` (at most one: a user is in a team once). */
const membershipsOf = (teamId: Expression<number>, userId: Expression<number>) =>
  eb.selectFrom('TeamMember as team_m').where('team_m.team', '=', teamId).where('team_m.user', '=', userId);

/** Whether user `userId` is a member of team `teamId`: `exists (...)`. */
export const teamMemberExists = (teamId: Expression<number>, userId: Expression<number>): Expression<SqlBool> =>
  eb.exists(membershipsOf(teamId, userId).select(sql.lit(1).as('one')));
