// Read models of the graph's edges to directories (User.smartDirectories, Company.smartDirectories):
// the directories a user can open with Query.smartDirectory, the chain of directory.access.ts in
// one statement for all of them: the company has the feature, the directory is active, the user is
// a member of its team, holds a contact record there and has given every required (active)
// consent. Rows are plain objects shaped as the SmartDirectory resolvers read them (a DirectoryRoot),
// with the user's standing (team admin or not), which primes the contacts' viewer.
import { readModel, type NamesOf } from '../../db/lean';
import type { RowOf } from '../../db/rows';
import { ownFieldProperties } from '../../graphql/graph-fields';
import { Company } from '../company';
import { TeamMember } from '../team';
import { ConsentDefinition, UserConsent } from './consent.entity';
import { ContactRecord, SmartDirectory } from './directory.entity';

/**
 * What the SmartDirectory type and its field resolvers read of a directory: an entity or a row of a
 * read model: the columns of the type's own fields (every column but the relations and the
 * creation time), and the keys of its company and team.
 */
export type DirectoryRoot = Omit<RowOf<SmartDirectory>, 'company' | 'team' | 'createdAt'> & {
  company: { companyId: number };
  team: { teamId: number };
};

/** A directory a user can open, with that user's standing in it. */
export interface OpenDirectory {
  userId: number;
  admin: boolean;
  directory: DirectoryRoot;
}

type Row = Omit<DirectoryRoot, 'company' | 'team'> & { companyId: number; teamId: number; userId: number; admin: boolean };

/** A row as the resolvers read it: the directory's columns as they are, its relations as their keys. */
function shape({ userId, admin, companyId, teamId, ...own }: Row): OpenDirectory {
  return { userId, admin, directory: { ...own, company: { companyId }, team: { teamId } } };
}

/**
 * The properties of the SmartDirectory type's own fields, from its metadata (the fields its
 * resolvers add read the relations); called once, when a statement is first written.
 */
const ownProps = () => ownFieldProperties(SmartDirectory) as (keyof SmartDirectory & string)[];

/** The open directories of the members `m` matching `where`, in `order` (`d` the directory, `m` the team member). */
function openDirectoriesSql(n: NamesOf, where: string, order: string): string {
  const d = n(SmartDirectory);
  const c = n(Company);
  const m = n(TeamMember);
  const r = n(ContactRecord);
  const cd = n(ConsentDefinition);
  const uc = n(UserConsent);
  const fields = [
    d.fields('d', ownProps()),
    `d.${d.column('company')} as "companyId"`,
    `d.${d.column('team')} as "teamId"`,
    `m.${m.column('user')} as "userId"`,
    `m.${m.column('isTeamAdmin')} as "admin"`,
  ];
  return `select ${fields.join(', ')}
    from ${d.table} d
    join ${c.table} c on c.${c.column('companyId')} = d.${d.column('company')}
    join ${m.table} m on m.${m.column('team')} = d.${d.column('team')}
    join ${r.table} r on r.${r.column('directory')} = d.${d.column('directoryUUID')} and r.${r.column('user')} = m.${m.column('user')}
    where ${where} and c.${c.column('smartDirectoryEnabled')} and d.${d.column('active')}
      and not exists (select 1 from ${cd.table} cd where cd.${cd.column('directory')} = d.${d.column('directoryUUID')}
        and cd.${cd.column('consentRequired')} and cd.${cd.column('active')}
        and not exists (select 1 from ${uc.table} uc where uc.${uc.column('consent')} = cd.${cd.column('id')}
          and uc.${uc.column('user')} = m.${m.column('user')} and uc.${uc.column('given')}))
    order by ${order}, d.${d.column('directoryName')}, d.${d.column('directoryUUID')}`;
}

/** The directories each of the users (an intArray) can open, by user, then by name. */
export const openDirectoriesOfUsers = readModel<OpenDirectory, [userIds: string], Row>({
  sql: (n) => openDirectoriesSql(n, `m.${n(TeamMember).column('user')} = any(?::int[])`, `m.${n(TeamMember).column('user')}`),
  shape,
});

/** The directories the user can open at any of the companies (an intArray), by company, then by name. */
export const openDirectoriesAtCompanies = readModel<OpenDirectory, [userId: number, companyIds: string], Row>({
  sql: (n) =>
    openDirectoriesSql(
      n,
      `m.${n(TeamMember).column('user')} = ? and d.${n(SmartDirectory).column('company')} = any(?::int[])`,
      `d.${n(SmartDirectory).column('company')}`,
    ),
  shape,
});
