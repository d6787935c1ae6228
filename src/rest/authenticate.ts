// The REST facade checks a route's credential before anything else about the request, so a
// caller without one learns nothing about the body's validity (OWASP API2). The principals
// are memoized on the context: the resolver's own check reuses them at no cost.
import type { Context } from '../context';
import { requireBearer, requireCompanyKey, requireSystem, requireUser } from '../modules/identity/principal';
import type { Credential } from './route';

/** The system scope a route with credential 'system' needs (the only system caller is the ingestion process). */
export const SYSTEM_SCOPE = 'ingestion';

export async function authenticate(credential: Credential, ctx: Context): Promise<void> {
  switch (credential) {
    case 'none':
      return;
    case 'user':
      await requireUser(ctx);
      return;
    case 'system':
      await requireSystem(ctx, SYSTEM_SCOPE);
      return;
    case 'companyKey':
      await requireCompanyKey(ctx);
      return;
    case 'userAndCompanyKey':
      await requireUser(ctx);
      await requireCompanyKey(ctx);
      return;
    case 'bearer':
      await requireBearer(ctx);
      return;
  }
}
