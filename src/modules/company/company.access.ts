// The one answer to "which roles does this user hold on the company?": a per-request loader
// (company.loaders.ts) that batches every (user, company) pair a request asks about into one
// statement. Events, notifications, connections and support groups all ask here.
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import type { CompanyRoleName } from './company.entity';
import { pairKey } from '../../core/loaders';

export function rolesOn(ctx: Context, userId: number, companyId: number): Promise<CompanyRoleName[]> {
  return ctx.loaders.companyRoles.load(pairKey(userId, companyId));
}

export async function isCompanyAdmin(ctx: Context, userId: number, companyId: number): Promise<boolean> {
  return (await rolesOn(ctx, userId, companyId)).includes('ADMIN');
}

/** WSInsufficientPrivilegesException unless the user is an ADMIN of the company. */
export async function requireCompanyAdmin(
  ctx: Context,
  userId: number,
  companyId: number,
  message = 'Only an admin of the company may do this.',
): Promise<void> {
  if (!(await isCompanyAdmin(ctx, userId, companyId))) throw new ServiceError('WSInsufficientPrivilegesException', message);
}
