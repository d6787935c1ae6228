// Who may read a library, decided once per request for all the libraries it touches.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import type { Context } from '../../context';
import { authorisationStep, readableLibraryIds } from './library.service';
import { SmartEntry } from './library.entity';

export function readableLibrariesLoader(em: EntityManager, userId: number): DataLoader<number, boolean> {
  return new DataLoader(async (ids) => {
    const allowed = await authorisationStep(() => readableLibraryIds(em, userId, ids));
    return ids.map((id) => allowed.has(id));
  });
}

/** Whether the caller (who must present a valid auth token) may read the library. */
export async function canReadLibrary(ctx: Context, smartLibId: number): Promise<boolean> {
  const { user } = await authorisationStep(() => ctx.auth.requireUser());
  return ctx.loaders.readableLibraries(user.uId).load(smartLibId);
}

/** The entry when it exists and the caller may read its library; null otherwise (batched). */
export async function readableEntry(ctx: Context, smartEntryId: number): Promise<SmartEntry | null> {
  const entry = await ctx.loaders.smartEntry.load(smartEntryId);
  if (!entry || !(await canReadLibrary(ctx, entry.library.smartLibId))) return null;
  return entry;
}
