// Who may read a library, decided once per request for all the libraries it touches, in the
// statement that reads the libraries themselves (library.read.ts).
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import type { Context } from '../../context';
import { authorisationStep } from './library.service';
import { librariesReadableBy } from './library.read';
import type { EntryRow, LibraryRow } from './library.sql';

/** Per user: each library when it exists and the user may read it, else null. */
export function readableLibrariesLoader(em: EntityManager, userId: number): DataLoader<number, LibraryRow | null> {
  return new DataLoader(async (ids) => {
    const found = await authorisationStep(() => librariesReadableBy(em, userId, ids));
    return found.map((f) => (f?.readable ? f.library : null));
  });
}

/** The library when it exists and the caller (who must present a valid auth token) may read it; null otherwise. */
export async function readableLibrary(ctx: Context, smartLibId: number): Promise<LibraryRow | null> {
  const { user } = await authorisationStep(() => ctx.auth.requireUser());
  return ctx.loaders.readableLibraries(user.uId).load(smartLibId);
}

/** Whether the caller (who must present a valid auth token) may read the library. */
export async function canReadLibrary(ctx: Context, smartLibId: number): Promise<boolean> {
  return (await readableLibrary(ctx, smartLibId)) !== null;
}

/** The entry when it exists and the caller may read its library; null otherwise (batched). */
export async function readableEntry(ctx: Context, smartEntryId: number): Promise<EntryRow | null> {
  const entry = await ctx.loaders.smartEntry.load(smartEntryId);
  if (!entry || !(await canReadLibrary(ctx, entry.library))) return null;
  return entry;
}
