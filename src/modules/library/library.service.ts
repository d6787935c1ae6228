// Libraries, their publishers and their classification terms. Other modules (support group)
// create libraries and publishers through these functions.
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { ServiceError } from '../../core/errors';
import { isDependencyFailure } from '../../core/error-mapping';
import { Company } from '../company';
import { Team } from '../team';
import { User } from '../user';
import { DEFAULT_MAX_ENTRIES, SmartLibrary, SmartLibraryPublisher } from './library.entity';
import { publisherAnywhere, publisherOf, TERMS, type TermKind } from './library.queries';

const sqlEm = (em: EntityManager) => em as unknown as SqlEntityManager;

export interface NewSmartLibrary {
  companyId: number;
  teamId?: number | null;
  smartLibName: string;
  /** Fixed id (demo data); omitted: generated. */
  smartLibId?: number;
  maxEntries?: number;
}

/** Creates a library (flushes; runs inside the caller's transaction when given one). */
export async function createSmartLibrary(em: EntityManager, data: NewSmartLibrary): Promise<SmartLibrary> {
  const library = em.create(SmartLibrary, {
    ...(data.smartLibId ? { smartLibId: data.smartLibId } : {}),
    company: em.getReference(Company, data.companyId),
    team: data.teamId ? em.getReference(Team, data.teamId) : null,
    smartLibName: data.smartLibName,
    maxEntries: data.maxEntries ?? DEFAULT_MAX_ENTRIES,
  });
  await em.flush();
  return library;
}

/** Gives the user the publisher role on the library; granting it twice is harmless. */
export async function grantPublisher(em: EntityManager, smartLibId: number, userId: number): Promise<void> {
  await sqlEm(em)
    .createQueryBuilder(SmartLibraryPublisher)
    .insert({ library: em.getReference(SmartLibrary, smartLibId), user: em.getReference(User, userId) })
    .onConflict(['library', 'user'])
    .ignore()
    .execute();
}

// Compiled queries (library.queries.ts): both run on every entry created or file uploaded, where
// building a count through the query builder cost more than PostgreSQL takes to answer it.
export async function isPublisher(em: EntityManager, smartLibId: number, userId: number): Promise<boolean> {
  return (await publisherOf.run(em, { libraryId: smartLibId, userId }))[0].found;
}

export async function publishesAnyLibrary(em: EntityManager, userId: number): Promise<boolean> {
  return (await publisherAnywhere.run(em, { userId }))[0].found;
}

/**
 * The privilege checks depend on the identity store: when it does not answer, that is the
 * authorisation service being down (WSAuthorisationServiceException), not the library's.
 */
export async function authorisationStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof ServiceError) && isDependencyFailure(err))
      throw new ServiceError('WSAuthorisationServiceException', undefined, { cause: err });
    throw err;
  }
}

/** "The same name": trimmed, inner spaces collapsed, compatibility-normalised, lower-cased. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

type TermOf<K extends TermKind> = InstanceType<(typeof TERMS)[K]['entity']>;
/** Any kind of term: each has its library, its name column and nameKey. */
type Term = TermOf<TermKind>;

/** The library's terms with these names, creating the missing ones (concurrent creators agree). */
export async function ensureTerms<K extends TermKind>(
  em: EntityManager,
  kind: K,
  smartLibId: number,
  names: string[],
): Promise<TermOf<K>[]> {
  const { entity, name } = TERMS[kind];
  const byKey = new Map<string, string>();
  for (const n of names) if (!byKey.has(nameKey(n))) byKey.set(nameKey(n), n.trim());
  if (!byKey.size) return [];
  const library = em.getReference(SmartLibrary, smartLibId);
  const termEntity: EntityName<Term> = entity;
  await sqlEm(em)
    .createQueryBuilder(termEntity)
    // Each row carries its own kind's name column (name), typed as the column of that kind.
    .insert([...byKey].map(([key, value]) => ({ library, nameKey: key, ...({ [name]: value } as Record<typeof name, string>) })))
    .onConflict(['library', 'nameKey'] as never)
    .ignore()
    .execute();
  return findTerms(em, kind, smartLibId, [...byKey.values()]);
}

/** The library's existing terms with these names (unknown names are left out). */
export async function findTerms<K extends TermKind>(em: EntityManager, kind: K, smartLibId: number, names: string[]): Promise<TermOf<K>[]> {
  if (!names.length) return [];
  const entity: EntityName<Term> = TERMS[kind].entity;
  return em.find(entity, { library: smartLibId, nameKey: { $in: [...new Set(names.map(nameKey))] } }) as Promise<TermOf<K>[]>;
}
