// Connections between users and company walls: requests, re-checks when the profile changes,
// company admins' decisions, and the "is this user connected" checks other modules use.
//
// Transitions (level = best criterion level of the user's profile, see discovery/matching.ts):
//   request (new, requested, pending or rejected row)   full -> pending (accepted if the company does
//                                                       not vet); partial -> requested; none -> refused
//   profile or identifier change (requested, pending)   full -> pending/accepted; partial -> requested;
//                                                       none -> rejected (reason criteria)
//   admin approve (pending)                             -> accepted
//   admin decline (requested, pending)                  -> rejected (reason declined)
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { invalidParameter, ServiceError } from '../../core/errors';
import { User } from '../user';
import { Company } from '../company';
import { CompanyConnection, CONNECTION_STATUSES, type ConnectionStatus } from './connection.entity';
import { LEVEL, levelsFor, type Level } from '../discovery';
import { storeIdentifierValues, type IdentifierValue } from '../discovery';

const OPEN: ConnectionStatus[] = ['requested', 'pending'];

/** Moves a connection to the state its level calls for; `now` stamps what changed. */
function applyLevel(c: CompanyConnection, level: Level, vets: boolean, now: Date): void {
  if (level === LEVEL.none) {
    c.status = 'rejected';
    c.rejectedAt = now;
    c.rejectionReason = 'criteria';
  } else if (level === LEVEL.partial) {
    c.status = 'requested';
  } else if (!vets) {
    c.status = 'accepted';
    c.acceptedAt = now;
  } else if (c.status !== 'pending') {
    c.status = 'pending';
    c.pendingAt = now;
  }
}

export function checkStatusFilter(status: string | null | undefined): ConnectionStatus | undefined {
  if (status === undefined || status === null) return undefined;
  if (!(CONNECTION_STATUSES as readonly string[]).includes(status)) {
    throw invalidParameter('status', `status must be one of ${CONNECTION_STATUSES.join(', ')}.`);
  }
  return status as ConnectionStatus;
}

/**
 * The caller asks to connect to a company, optionally supplying identifier values the
 * criteria ask for (stored as the user's own values). Refused, with nothing stored, when the
 * profile meets none of the company's criteria.
 */
export async function requestConnection(
  em: EntityManager,
  userId: number,
  companyId: number,
  identifiers: IdentifierValue[],
): Promise<CompanyConnection> {
  return em.transactional(async (tx) => {
    // Locking the user row serialises this with the user's other requests and profile updates
    // (which lock it too), so a decision never rests on a profile that is changing meanwhile.
    const user = await tx.findOneOrFail(User, { uId: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const company = await tx.findOne(Company, { companyId });
    if (!company || !company.active || company.hiddenWall)
      throw invalidParameter('companyId', 'companyId does not name a discoverable company.');
    let connection = await tx.findOne(CompanyConnection, { user: userId, company: companyId });
    if (connection?.status === 'accepted')
      throw new ServiceError('WSAlreadyExistsException', 'The user is already connected to the company.');
    if (identifiers.length) await storeIdentifierValues(tx, userId, identifiers);
    const level = (await levelsFor(tx, user, [companyId])).get(companyId)!;
    if (level === LEVEL.none) throw invalidParameter('companyId', "The profile meets none of the company's discovery criteria.");
    const now = new Date();
    connection ??= tx.create(CompanyConnection, { user: tx.getReference(User, userId), company, status: 'requested', requestedAt: now });
    Object.assign(connection, { requestedAt: now, rejectedAt: null, rejectionReason: null, decidedBy: null });
    if (connection.status === 'rejected') connection.status = 'requested';
    applyLevel(connection, level, company.vetsConnections, now);
    await tx.flush();
    // New identifier values may also settle the user's other open requests.
    if (identifiers.length) await recheckOpenConnections(tx, userId);
    return connection;
  });
}

/**
 * Re-applies the matching rule to the user's open (requested or pending) connections. Runs
 * inside the caller's transaction (profile updates, identifier changes).
 */
export async function recheckOpenConnections(em: EntityManager, userId: number): Promise<void> {
  const open = await em.find(CompanyConnection, { user: userId, status: { $in: OPEN } }, { populate: ['company'] });
  if (!open.length) return;
  const user = await em.findOneOrFail(User, { uId: userId });
  const levels = await levelsFor(
    em,
    user,
    open.map((c) => c.company.companyId),
  );
  const now = new Date();
  for (const c of open) applyLevel(c, levels.get(c.company.companyId)!, c.company.vetsConnections, now);
  await em.flush();
}

/** The caller (adminId) must be an admin of the company: the resolver checks (requireCompanyAdmin). */
export async function decideConnection(
  em: EntityManager,
  adminId: number,
  companyId: number,
  userId: number,
  decision: 'approve' | 'decline',
): Promise<CompanyConnection> {
  return em.transactional(async (tx) => {
    const connection = await tx.findOne(CompanyConnection, { user: userId, company: companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!connection) throw new ServiceError('WSRecordNotFoundException', 'The user has no connection request with the company.');
    const allowed: ConnectionStatus[] = decision === 'approve' ? ['pending'] : OPEN;
    if (!allowed.includes(connection.status)) {
      throw new ServiceError(
        'WSInvalidParameterException',
        `The connection is ${connection.status}; only ${allowed.join(' or ')} requests can be ${decision}d.`,
      );
    }
    const now = new Date();
    if (decision === 'approve') Object.assign(connection, { status: 'accepted', acceptedAt: now });
    else Object.assign(connection, { status: 'rejected', rejectedAt: now, rejectionReason: 'declined' });
    connection.decidedBy = tx.getReference(User, adminId);
    await tx.flush();
    return connection;
  });
}

/** The caller must be an admin of the company: the resolver checks (requireCompanyAdmin). */
export async function listCompanyConnections(
  em: EntityManager,
  companyId: number,
  status?: ConnectionStatus,
): Promise<CompanyConnection[]> {
  // Oldest first: the vetting queue is worked in arrival order.
  return em.find(CompanyConnection, { company: companyId, ...(status ? { status } : {}) }, { orderBy: { requestedAt: 'asc', id: 'asc' } });
}

/** Whether the user has an accepted connection to the company (support groups, membership). */
export async function hasAcceptedConnection(em: EntityManager, userId: number, companyId: number): Promise<boolean> {
  return (await em.count(CompanyConnection, { user: userId, company: companyId, status: 'accepted' })) > 0;
}

/** Which of the users have an accepted connection to the company, in one statement. */
export async function acceptedConnectionUserIds(em: EntityManager, companyId: number, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows = await em.find(CompanyConnection, { company: companyId, user: { $in: userIds }, status: 'accepted' }, { fields: ['user'] });
  return new Set(rows.map((r) => r.user.uId));
}
