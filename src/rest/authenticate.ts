// The REST facade checks a route's credential before anything else about the request, so a
// caller without one learns nothing about the body's validity (OWASP API2). The principals
// are memoized on the context: the resolver's own check reuses them at no cost.
import type { Context } from '../context';
import type { Credential } from './route';

/** The system scope a route with credential 'system' needs (the only system caller is the ingestion process). */
export const SYSTEM_SCOPE = 'ingestion';

export async function authenticate(credential: Credential, ctx: Context): Promise<void> {
  switch (credential) {
    case 'none':
      return;
    case 'user':
      await ctx.auth.requireUser();
      return;
    case 'system':
      await ctx.auth.requireSystem(SYSTEM_SCOPE);
      return;
    case 'companyKey':
      await ctx.auth.requireCompanyKey();
      return;
    case 'userAndCompanyKey':
      await ctx.auth.requireUser();
      await ctx.auth.requireCompanyKey();
      return;
    case 'bearer':
      await ctx.auth.requireBearer();
      return;
  }
}
