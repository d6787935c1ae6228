// Federation: which smart directories a reference (`_entities`) may resolve to, batched per
// request. A user walks the chain of Query.smartDirectory (directory.access.ts) for every
// representation at once: one statement for all of them, the same checks in the same order,
// the same errors. The router's federation token sees the directories a member could open,
// of active companies.
import { runSql, sqlOnce } from '../../db/lean';
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { ServiceError } from '../../core/errors';
import { Company } from '../company';
import { teamMembershipJoinSql } from '../team';

/** The chain of one directory for one user (directory.access.ts `chain`, for many directories). */
interface ChainRow {
  directory_uuid: string;
  enabled: boolean;
  active: boolean;
  member_id: number | null;
  team_admin: boolean;
  contact_id: number | null;
  missing_consents: number;
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * The chain's statement up to its list of directories (`in (...)`, as many marks as directories).
 * A team membership is unique per (team, user) and contact_record per (directory, user): one row
 * per directory. The membership is the team module's read, the company named by its metadata
 * (test/unit/sql-owners.test.ts).
 */
const chainSelect = sqlOnce((n) => {
  const c = n(Company);
  const m = teamMembershipJoinSql(n, 'd.team_id', '?');
  return `select d.directory_uuid::text as directory_uuid, c.${c.column('smartDirectoryEnabled')} as enabled, d.active,
       ${m.id} as member_id, coalesce(${m.isTeamAdmin}, false) as team_admin, r.contact_id,
       (select count(*)::int from consent_definition cd where cd.directory_uuid = d.directory_uuid and cd.consent_required and cd.active
          and not exists (select 1 from user_consent uc where uc.consent_id = cd.id and uc.user_id = ? and uc.given)) as missing_consents
     from smart_directory d join ${c.table} c on c.${c.column('companyId')} = d.company_id
     ${m.leftJoin}
     left join contact_record r on r.directory_uuid = d.directory_uuid and r.user_id = ?
     where d.directory_uuid in `;
});

async function chainRows(em: EntityManager, userId: number, uuids: readonly string[]): Promise<Map<string, ChainRow>> {
  const rows = await runSql<ChainRow>(em, `${chainSelect(em)}(${marks(uuids.length)})`, [userId, userId, userId, ...uuids]);
  return new Map(rows.map((r) => [r.directory_uuid.toLowerCase(), r]));
}

/**
 * The user's standing in a directory, as Query.smartDirectory decides it: whether the user is a
 * team admin there, or the error that operation raises (not found, feature not enabled,
 * inactive, not a member, no contact record, required consents missing), with which the load
 * rejects. Batched per request.
 */
export function directoryStandingLoader(em: EntityManager, userId: number): DataLoader<string, { admin: boolean }> {
  return new DataLoader<string, { admin: boolean }>(async (uuids) => {
    const rows = await chainRows(em, userId, uuids);
    return uuids.map((uuid): { admin: boolean } | ServiceError => {
      const row = rows.get(uuid);
      if (!row)
        return new ServiceError('WSSmartDirectoryNotFoundException', 'No smart directory has this uuid.', { field: 'directoryUUID' });
      if (!row.enabled) return new ServiceError('WSSmartDirectoryNotEnabledForCompanyException');
      if (!row.active) return new ServiceError('WSSmartDirectoryInactiveException');
      if (row.member_id === null) return new ServiceError('WSUserNotInSmartDirectoryException');
      if (row.contact_id === null) return new ServiceError('WSUserContactNotFoundException');
      if (row.missing_consents > 0)
        return new ServiceError('WSUserNotConsentedException', 'The required consents of this directory have not been given.');
      return { admin: row.team_admin };
    });
  });
}

/** The router's statement up to its list of directories (`in (...)`). */
const routerSelect = sqlOnce((n) => {
  const c = n(Company);
  return `select d.directory_uuid::text as directory_uuid from smart_directory d join ${c.table} c on c.${c.column('companyId')} = d.company_id
       where d.active and c.${c.column('active')} and c.${c.column('smartDirectoryEnabled')} and d.directory_uuid in `;
});

/** Of the given directories, those the router may see: active, of an active company that has
 * smart directories enabled. One statement per batch. */
export function routerDirectoriesLoader(em: EntityManager): DataLoader<string, boolean> {
  return new DataLoader(async (uuids) => {
    const rows = await runSql<{ directory_uuid: string }>(em, `${routerSelect(em)}(${marks(uuids.length)})`, uuids);
    const open = new Set(rows.map((r) => r.directory_uuid.toLowerCase()));
    return uuids.map((uuid) => open.has(uuid));
  });
}
