// Read models of the consent module (docs/development.md, "Reads are read models"): fixed SQL
// written once from the entities' metadata, answering plain rows for the EConsent type. The list
// joins the caller's answers, so consentGiven comes with the rows instead of from a second
// statement; the loader answers the same question for consents that arrive as entities.
import { readQuery } from '../../db/lean';
import { ConsentDefinition, UserConsent } from '../directory';

/** An EConsent as the list reads it: the entity's fields plus the keys of its relations and the caller's answer. */
export interface EConsentRow {
  id: number;
  consentUUID: string;
  consentTypeCode: ConsentDefinition['consentTypeCode'];
  companyId: number | null;
  eventUUID: string | null;
  directoryUUID: string | null;
  /** The GraphQL field consentName, as on the entity. */
  name: string | null;
  consentValue: string;
  /** The GraphQL field consentOptionalDesc, as on the entity. */
  optionalDesc: string | null;
  consentRequired: boolean;
  /** Whether the caller has given it. */
  consentGiven: boolean;
}

/** The columns the list selects, under short aliases. */
interface ConsentColumns {
  id: number;
  uuid: string;
  type: EConsentRow['consentTypeCode'];
  company: number | null;
  event: string | null;
  directory: string | null;
  name: string | null;
  value: string;
  optional: string | null;
  required: boolean;
  given: boolean;
}

/** Active company consents (type C) of one company or of one event, in display order, with the caller's answers. */
function activeConsents(filter: 'company' | 'event') {
  return readQuery<EConsentRow, [userId: number, key: number | string], ConsentColumns>(
    (n) => {
      const c = n(ConsentDefinition);
      const a = n(UserConsent);
      const where =
        filter === 'company' ? `c.${c.column('company')} = ? and c.${c.column('eventUUID')} is null` : `c.${c.column('eventUUID')} = ?`;
      return (
        `select c.${c.column('id')} as id, c.${c.column('consentUUID')} as uuid, c.${c.column('consentTypeCode')} as type, ` +
        `c.${c.column('company')} as company, c.${c.column('eventUUID')} as event, c.${c.column('directory')} as directory, ` +
        `c.${c.column('name')} as name, c.${c.column('consentValue')} as value, c.${c.column('optionalDesc')} as optional, ` +
        `c.${c.column('consentRequired')} as required, a.${a.column('given')} is true as given ` +
        `from ${c.table} as c left join ${a.table} as a on a.${a.column('consent')} = c.${c.column('id')} and a.${a.column('user')} = ? ` +
        `where ${where} and c.${c.column('consentTypeCode')} = 'C' and c.${c.column('active')} ` +
        `order by c.${c.column('sortOrder')}, c.${c.column('id')}`
      );
    },
    (row) => ({
      id: row.id,
      consentUUID: row.uuid,
      consentTypeCode: row.type,
      companyId: row.company,
      eventUUID: row.event,
      directoryUUID: row.directory,
      name: row.name,
      consentValue: row.value,
      optionalDesc: row.optional,
      consentRequired: row.required,
      consentGiven: row.given,
    }),
    { prepared: true },
  );
}

export const companyConsentRows = activeConsents('company');
export const eventConsentRows = activeConsents('event');

/** The (user id, consent id) pairs among the given ones where the user has given the consent. */
export const givenConsentPairs = readQuery<
  [userId: number, consentId: number],
  [userIds: number[], consentIds: number[]],
  { u: number; c: number }
>(
  (n) => {
    const a = n(UserConsent);
    return `select ${a.column('user')} as u, ${a.column('consent')} as c from ${a.table} where ${a.column('user')} = any(?::int[]) and ${a.column('consent')} = any(?::int[]) and ${a.column('given')}`;
  },
  (row) => [row.u, row.c],
  { prepared: true },
);
