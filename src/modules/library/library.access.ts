// Who may read a library, decided once per request for all the libraries it touches.
import DataLoader from 'dataloader';
import type { Context } from '../../context';
import { requireUser } from '../identity/principal';
import { authorisationStep, readableLibraryIds } from './library.service';
import { SmartEntry } from './library.entity';

function readable(ctx: Context, userId: number): DataLoader<number, boolean> {
  const key = `library:readable:${userId}`;
  let loader = ctx.memo.get(key) as DataLoader<number, boolean> | undefined;
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const allowed = await authorisationStep(() => readableLibraryIds(ctx.em, userId, ids));
      return ids.map((id) => allowed.has(id));
    });
    ctx.memo.set(key, loader);
  }
  return loader;
}

/** Whether the caller (who must present a valid auth token) may read the library. */
export async function canReadLibrary(ctx: Context, smartLibId: number): Promise<boolean> {
  const { user } = await authorisationStep(() => requireUser(ctx));
  return readable(ctx, user.uId).load(smartLibId);
}

/** The entry when it exists and the caller may read its library; null otherwise (batched). */
export async function readableEntry(ctx: Context, smartEntryId: number): Promise<SmartEntry | null> {
  const entry = await ctx.loaders.smartEntry.load(smartEntryId);
  if (!entry || !(await canReadLibrary(ctx, entry.library.smartLibId))) return null;
  return entry;
}
