import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { ConsentDefinition, UserConsent } from './consent.entity';
import type { FieldDefinition } from '../reference-data';
import type { AddressColumns } from '../address';
import { keyed } from '../../core/loaders';
import { directoryStandingLoader, routerDirectoriesLoader } from './directory.reference';
import { ContactRecord, SmartDirectory, SmartDirectoryField } from './directory.entity';
import { intArray } from '../../db/sql';
import { addressesOfContacts } from './directory.queries';
import { openDirectoriesAtCompanyIds, openDirectoriesOfUserIds, type DirectoryRoot, type OpenDirectory } from './directory.reads';

function group<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const map = new Map<K, V[]>(keys.map((k) => [k, []]));
  for (const row of rows) map.get(keyOf(row))?.push(row);
  return keys.map((k) => map.get(k)!);
}

/**
 * Of these contact records, those whose users gave every required (active) consent of their
 * directory: SmartDirectory.contacts lists no other. Two statements at most, for any number of
 * records and directories.
 */
export async function keepConsented(em: EntityManager, records: ContactRecord[]): Promise<ContactRecord[]> {
  if (!records.length) return records;
  const uuids = [...new Set(records.map((r) => r.directory.directoryUUID))];
  const required = await em.find(ConsentDefinition, { directory: { $in: uuids }, consentRequired: true, active: true });
  if (!required.length) return records;
  const answers = await em.find(UserConsent, {
    consent: { $in: required.map((c) => c.id) },
    user: { $in: [...new Set(records.map((r) => r.user.uId))] },
    given: true,
  });
  const given = new Set(answers.map((a) => `${a.user.uId}:${a.consent.id}`));
  return records.filter((r) =>
    required.every((c) => c.directory!.directoryUUID !== r.directory.directoryUUID || given.has(`${r.user.uId}:${c.id}`)),
  );
}

export function createDirectoryLoaders(em: EntityManager) {
  const directoryStanding = keyed((userId: number) => directoryStandingLoader(em, userId));
  /** The directories of the open ones, grouped by `keyOf`; each one's standing primed, so its contacts cost no chain. */
  const opened = <K>(keys: readonly K[], rows: OpenDirectory[], keyOf: (row: OpenDirectory) => K): DirectoryRoot[][] => {
    for (const row of rows) directoryStanding(row.userId).prime(row.directory.directoryUUID, { admin: row.admin });
    return group(keys, rows, keyOf).map((list) => list.map((row) => row.directory));
  };
  return {
    /** The user's standing in directories (Query.smartDirectory's chain), per user. */
    directoryStanding,
    /** The directories each user can open (Query.smartDirectory's chain), by name: one statement per batch of users. */
    openDirectoriesOf: new DataLoader<number, DirectoryRoot[]>(async (userIds) =>
      opened(userIds, await openDirectoriesOfUserIds(em, intArray(userIds)), (row) => row.userId),
    ),
    /** The directories the user can open at each company, by name, per user: one statement per batch of companies. */
    openDirectoriesAt: keyed(
      (userId: number) =>
        new DataLoader<number, DirectoryRoot[]>(async (companyIds) =>
          opened(companyIds, await openDirectoriesAtCompanyIds(em, userId, intArray(companyIds)), (row) => row.directory.company.companyId),
        ),
    ),
    /** Of the given directories, those the router may see. */
    routerDirectories: routerDirectoriesLoader(em),
    directoryByUuid: new DataLoader<string, SmartDirectory | null>(async (uuids) => {
      const rows = await em.find(SmartDirectory, { directoryUUID: { $in: [...uuids] } });
      const found = new Map(rows.map((d) => [d.directoryUUID, d]));
      return uuids.map((u) => found.get(u) ?? null);
    }),

    /** Field definitions a directory shows, by directory uuid, in field id order. */
    directoryFields: new DataLoader<string, FieldDefinition[]>(async (uuids) => {
      const rows = await em.find(
        SmartDirectoryField,
        { directory: { $in: [...uuids] } },
        { populate: ['field'], orderBy: { field: { fieldId: 'asc' } } },
      );
      return group(uuids, rows, (r) => r.directory.directoryUUID).map((list) => list.map((r) => r.field as FieldDefinition));
    }),

    /** Active consents of a directory, in display order. */
    directoryConsents: new DataLoader<string, ConsentDefinition[]>(async (uuids) => {
      const rows = await em.find(
        ConsentDefinition,
        { directory: { $in: [...uuids] }, active: true },
        { orderBy: { sortOrder: 'asc', id: 'asc' } },
      );
      return group(uuids, rows, (r) => r.directory!.directoryUUID);
    }),

    /** Contact records whose users gave every required consent of their directory: at most three statements per batch. */
    consentedContacts: new DataLoader<string, ContactRecord[]>(async (uuids) => {
      const records = await em.find(ContactRecord, { directory: { $in: [...uuids] } });
      return group(uuids, await keepConsented(em, records), (r) => r.directory.directoryUUID);
    }),

    /** Addresses of contact records, by contact id, oldest first. */
    contactAddresses: new DataLoader<number, AddressColumns[]>(async (ids) => {
      const rows = await addressesOfContacts.run(em, { contactIds: [...ids] });
      return group(ids, rows, (r) => r.contactRecord);
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createDirectoryLoaders> {}
}
