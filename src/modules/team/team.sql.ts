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
