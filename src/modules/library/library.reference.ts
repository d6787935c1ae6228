// Federation: how the gateway turns { smartEntryId } / { smartLibId } into our types (plain rows).
// Batched through the request's loaders (the entries, then one statement reading and deciding
// every library the request touches); what the caller may not read resolves to null.
//
// Rule, as Query.smartLibrary and Query.smartEntry: a user resolves a library they may read
// (its publishers, its company's ADMINs, members of its team, or, for a library of no team,
// users with an accepted connection to its company) and the entries of such libraries; the
// router's federation token resolves none (no root operation reads a library without a user;
// forward the user's token); no credential is WSInvalidAuthTokenException. Unknown and
// unreadable ids are null without an error.
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { isDependencyFailure } from '../../core/error-mapping';
import type { EntryRow, LibraryRow } from './library.sql';
import { readableEntry, readableLibrary } from './library.access';
import { referenceViewer } from '../user';

/** Whether the caller is a user (the only principal a library reference resolves for). */
async function userViewer(ctx: Context): Promise<boolean> {
  try {
    return (await referenceViewer(ctx)).kind === 'user';
  } catch (err) {
    if (!(err instanceof ServiceError) && isDependencyFailure(err))
      throw new ServiceError('WSAuthorisationServiceException', undefined, { cause: err });
    throw err;
  }
}

/** The id, or null when it is not a PostgreSQL integer (so no such record). */
const validId = (value: unknown): number | null => {
  const id = Number(value);
  return Number.isInteger(id) && Math.abs(id) <= 0x7fffffff ? id : null;
};

export async function resolveSmartEntryReference(ref: { smartEntryId: number | string }, ctx: Context): Promise<EntryRow | null> {
  const smartEntryId = validId(ref.smartEntryId);
  if (!(await userViewer(ctx)) || smartEntryId === null) return null;
  return readableEntry(ctx, smartEntryId);
}

export async function resolveSmartLibraryReference(ref: { smartLibId: number | string }, ctx: Context): Promise<LibraryRow | null> {
  const smartLibId = validId(ref.smartLibId);
  if (!(await userViewer(ctx)) || smartLibId === null) return null;
  return readableLibrary(ctx, smartLibId);
}
