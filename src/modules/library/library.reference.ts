// Federation: how the gateway turns { smartEntryId } / { smartLibId } into our entities.
// Batched through the request's loaders; what the caller may not read resolves to null.
import type { Context } from '../../context';
import type { SmartEntry, SmartLibrary } from './library.entity';
import { canReadLibrary, readableEntry } from './library.access';

export function resolveSmartEntryReference(ref: { smartEntryId: number }, ctx: Context): Promise<SmartEntry | null> {
  return readableEntry(ctx, Number(ref.smartEntryId));
}

export async function resolveSmartLibraryReference(ref: { smartLibId: number }, ctx: Context): Promise<SmartLibrary | null> {
  const smartLibId = Number(ref.smartLibId);
  const library = await ctx.loaders.smartLibrary.load(smartLibId);
  return library && (await canReadLibrary(ctx, smartLibId)) ? library : null;
}
