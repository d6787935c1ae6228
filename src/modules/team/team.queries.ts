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

/** The id of user `userId`'s membership of team `teamId`, null when not a member: a scalar subquery. */
export const teamMemberIdOf = (teamId: Expression<number>, userId: Expression<number>): Expression<number | null> =>
  membershipsOf(teamId, userId).select('team_m.id').limit(sql.lit(1)) as never;

/** Whether user `userId` is a team admin of team `teamId`, null when not a member: a scalar subquery. */
export const teamAdminOf = (teamId: Expression<number>, userId: Expression<number>): Expression<boolean | null> =>
  membershipsOf(teamId, userId).select('team_m.isTeamAdmin').limit(sql.lit(1)) as never;

/** Every team membership as a table to join (`teamId`, `userId`, `admin`): one row per member of a team. */
export const teamMemberships = () =>
  eb.selectFrom('TeamMember as team_m').select(['team_m.team as teamId', 'team_m.user as userId', 'team_m.isTeamAdmin as admin']);

/**
 * Whether user `userId` is a member of a team of company `companyId`, of one of `teamIds` (an int
 * array) when it is given: `exists (...)`.
 */
export const memberOfCompanyTeams = (
  userId: Expression<number>,
  companyId: Expression<number>,
  teamIds: Expression<number[]> | null,
): Expression<SqlBool> => {
  const members = eb
    .selectFrom('TeamMember as team_m')
    .innerJoin('Team as team_t', 'team_t.teamId', 'team_m.team')
    .select(sql.lit(1).as('one'))
    .where('team_m.user', '=', userId)
    .where('team_t.company', '=', companyId);
  return eb.exists(teamIds ? members.where('team_t.teamId', '=', sql<number>`any(${teamIds})`) : members);
};
