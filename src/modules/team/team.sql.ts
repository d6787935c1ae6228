// Predicates and reads on this module's tables for other modules' statements: a module that needs
// to know whether a user is in a team asks here, and its own SQL never names this module's tables
// (test/unit/sql-owners.test.ts). Written from the entities' metadata, so call them from a
// statement's builder (readModel's `sql`, sqlOnce), which receives `n`. The arguments are SQL
// expressions of the caller's statement (a column of its own, or a placeholder); the aliases
// inside are prefixed with the module's name, so they cannot hide one of the caller's.
import type { NamesOf } from '../../db/lean';
import { TeamMember } from './team.entity';

/** Whether user `userId` is a member of team `teamId`: `exists (...)`. */
export function isTeamMemberSql(n: NamesOf, teamId: string, userId: string): string {
  const m = n(TeamMember);
  return `exists (select 1 from ${m.table} team_m where team_m.${m.column('team')} = ${teamId} and team_m.${m.column('user')} = ${userId})`;
}

/** The id of user `userId`'s membership of team `teamId`, null when not a member: a scalar subquery. */
export function teamMemberIdSql(n: NamesOf, teamId: string, userId: string): string {
  const m = n(TeamMember);
  return `(select team_m.${m.column('id')} from ${m.table} team_m
    where team_m.${m.column('team')} = ${teamId} and team_m.${m.column('user')} = ${userId} limit 1)`;
}

/**
 * User `userId`'s membership of team `teamId` as a `left join` (at most one row: a user is in a
 * team once), with the expressions of its id and its team-admin flag (null when not a member).
 */
export function teamMembershipJoinSql(n: NamesOf, teamId: string, userId: string): { leftJoin: string; id: string; isTeamAdmin: string } {
  const m = n(TeamMember);
  return {
    leftJoin: `left join ${m.table} team_m on team_m.${m.column('team')} = ${teamId} and team_m.${m.column('user')} = ${userId}`,
    id: `team_m.${m.column('id')}`,
    isTeamAdmin: `team_m.${m.column('isTeamAdmin')}`,
  };
}
