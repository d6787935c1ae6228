// Read models of the graph's edges to directories (User.smartDirectories, Company.smartDirectories):
// the directories a user can open with Query.smartDirectory, the chain of directory.access.ts in
// one statement for all of them: the company has the feature, the directory is active, the user is
// a member of its team, holds a contact record there and has given every required (active)
// consent. Rows are plain objects shaped as the SmartDirectory resolvers read them (a DirectoryRoot),
// with the user's standing (team admin or not), which primes the contacts' viewer.
import type { RowOf } from '../../db/sql';
import type { EntityManager } from '@mikro-orm/core';
import { openDirectoriesAtCompanies, openDirectoriesOfUsers, type OpenDirectoryRow } from './directory.queries';
import type { SmartDirectory } from './directory.entity';

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

/** A row as the resolvers read it: the directory's columns as they are, its relations as their keys. */
function shape({ userId, admin, companyId, teamId, ...own }: OpenDirectoryRow): OpenDirectory {
  return { userId, admin, directory: { ...own, company: { companyId }, team: { teamId } } };
}

/** The directories each of the users (an intArray) can open, by user, then by name: one statement. */
export const openDirectoriesOfUserIds = async (em: EntityManager, userIds: string): Promise<OpenDirectory[]> =>
  (await openDirectoriesOfUsers.run(em, { userIds })).map(shape);

/** The directories the user can open at any of the companies (an intArray), by company, then by name: one statement. */
export const openDirectoriesAtCompanyIds = async (em: EntityManager, userId: number, companyIds: string): Promise<OpenDirectory[]> =>
  (await openDirectoriesAtCompanies.run(em, { userId, companyIds })).map(shape);
