// Read models of the consent module (docs/development.md, "Reads and writes"): fixed SQL
// written once from the entities' metadata, answering plain rows for the EConsent type. The list
// joins the caller's answers, so consentGiven comes with the rows instead of from a second
// statement; the loader answers the same question for consents that arrive as entities.
import { readModel, selectAs } from '../../db/lean';
import type { RowOf } from '../../db/rows';
import { ownFieldProperties } from '../../graphql/graph-fields';
import { ConsentDefinition, UserConsent } from '../directory';

/**
 * An EConsent as the list reads it: the consent's key and the columns of the type's own fields
 * under their properties' names (every column but the relations and those no field reads), the
 * keys of its relations and the caller's answer.
 */
export type EConsentRow = Omit<RowOf<ConsentDefinition>, 'company' | 'directory' | 'active' | 'sortOrder' | 'createdAt'> & {
  companyId: number | null;
  directoryUUID: string | null;
  /** Whether the caller has given it. */
  consentGiven: boolean;
};

/** The fields of EConsentRow that hold a relation's key (the resolver's companyId and directoryUUID), with that relation. */
const KEYS = { companyId: 'company', directoryUUID: 'directory' } as const satisfies Partial<
  Record<keyof EConsentRow, keyof ConsentDefinition>
>;

/**
 * The properties a row carries under their own names: the key, then those of the EConsent type's
 * own fields (consentName and consentOptionalDesc read name and optionalDesc), from the type's
 * metadata; called once, when the statement is first written.
 */
const ownProps = (): Extract<keyof ConsentDefinition, string>[] => [
  'id',
  ...(ownFieldProperties(ConsentDefinition) as Extract<keyof ConsentDefinition, string>[]),
];

/**
 * Active company consents (type C) of one company or of one event, in display order, with the
 * caller's answers: the columns are selected under the row's field names, so rows need no shaping.
 */
function activeConsents(filter: 'company' | 'event') {
  return readModel<EConsentRow, [userId: number, key: number | string]>({
    sql: (n) => {
      const c = n(ConsentDefinition);
      const a = n(UserConsent);
      const where =
        filter === 'company' ? `c.${c.column('company')} = ? and c.${c.column('eventUUID')} is null` : `c.${c.column('eventUUID')} = ?`;
      return (
        `select ${c.fields('c', ownProps())}, ${selectAs(c, 'c', KEYS).join(', ')}, a.${a.column('given')} is true as "consentGiven" ` +
        `from ${c.table} as c left join ${a.table} as a on a.${a.column('consent')} = c.${c.column('id')} and a.${a.column('user')} = ? ` +
        `where ${where} and c.${c.column('consentTypeCode')} = 'C' and c.${c.column('active')} ` +
        `order by c.${c.column('sortOrder')}, c.${c.column('id')}`
      );
    },
    prepared: true,
  });
}

export const companyConsentRows = activeConsents('company');
export const eventConsentRows = activeConsents('event');

/** Active consents of any type by consentUUID (node(id:) decides which the caller reads), with the caller's answers. */
export const consentRowsByUuid = readModel<EConsentRow, [userId: number, consentUUIDs: string[]]>({
  sql: (n) => {
    const c = n(ConsentDefinition);
    const a = n(UserConsent);
    return (
      `select ${c.fields('c', ownProps())}, ${selectAs(c, 'c', KEYS).join(', ')}, a.${a.column('given')} is true as "consentGiven" ` +
      `from ${c.table} as c left join ${a.table} as a on a.${a.column('consent')} = c.${c.column('id')} and a.${a.column('user')} = ? ` +
      `where c.${c.column('consentUUID')} = any(?::uuid[]) and c.${c.column('active')}`
    );
  },
  prepared: true,
});

/** The (user id, consent id) pairs among the given ones where the user has given the consent. */
export const givenConsentPairs = readModel<
  [userId: number, consentId: number],
  [userIds: number[], consentIds: number[]],
  { u: number; c: number }
>({
  sql: (n) => {
    const a = n(UserConsent);
    return `select ${a.column('user')} as u, ${a.column('consent')} as c from ${a.table} where ${a.column('user')} = any(?::int[]) and ${a.column('consent')} = any(?::int[]) and ${a.column('given')}`;
  },
  shape: (row) => [row.u, row.c],
  prepared: true,
});
