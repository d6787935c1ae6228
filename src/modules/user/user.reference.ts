// Who is asking, for the federation reference resolvers (`_entities`). Every entity's
// __resolveReference starts here, so the entities agree on which credential counts:
//   x-service-authtoken   the end user: each entity applies the rule of its root operations;
//   x-api-key             the router's own credential (a system token with the `federation`
//                         scope): the bounded view docs/security.md describes;
//   neither               WSInvalidAuthTokenException, as every root operation answers.
// A user token wins when both are sent: a router forwarding the user's token must not widen
// what that user may read by adding its own. Both principals are memoised per request, so a
// batch of representations costs one credential lookup.
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import type { User } from './user.entity';

export type ReferenceViewer = { kind: 'user'; user: User } | { kind: 'router' };

export const FEDERATION_SCOPE = 'federation';

export async function referenceViewer(ctx: Context): Promise<ReferenceViewer> {
  if (!ctx.credentials.authToken && ctx.credentials.apiKey) {
    await ctx.auth.requireSystem(FEDERATION_SCOPE);
    return { kind: 'router' };
  }
  return { kind: 'user', user: (await ctx.auth.requireUser()).user };
}

/**
 * For the edges of `User` that hold personal data (connections, directories, ...): the record must
 * be the caller's own, as every root operation that reads that data reads only the caller's. Any
 * other user (a federation reference of another uId, resolved by the router's token) is
 * WSInsufficientPrivilegesException; no credential is WSInvalidAuthTokenException.
 */
export async function requireOwnUser(ctx: Context, user: { uId: number }, what: string): Promise<number> {
  const viewer = await referenceViewer(ctx);
  if (viewer.kind !== 'user' || viewer.user.uId !== user.uId) {
    throw new ServiceError('WSInsufficientPrivilegesException', `Only the user themselves may read their ${what}.`);
  }
  return user.uId;
}
