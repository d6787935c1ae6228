// The directory module's hand-written reads (docs/development.md, "Reads and writes"), their SQL in
// schema/sql/directory.sql. The consents (the consent module answers them as EConsent): each list
// joins the caller's answers, so consentGiven comes with the rows instead of from a second
// statement; the consent module's loader answers the same question for consents that arrive as
// entities.
import { sql } from 'kysely';
import { anyOf, queriesOf, type RowOf } from '../../db/sql';
import { ownFieldProperties } from '../../graphql/graph-fields';
import { ConsentDefinition, UserConsent } from './consent.entity';

const { compiled } = queriesOf({ ConsentDefinition, UserConsent });

/**
 * An EConsent as the lists read it: the consent's key and the columns of the type's own fields
 * under their properties' names (every column but the relations and those no field reads), the
 * keys of its relations and the caller's answer.
 */
export type EConsentRow = Omit<RowOf<ConsentDefinition>, 'company' | 'directory' | 'active' | 'sortOrder' | 'createdAt'> & {
  companyId: number | null;
  directoryUUID: string | null;
  /** Whether the caller has given it. */
  consentGiven: boolean;
};

/**
 * The properties a row carries under their own names: the key, then those of the EConsent type's
 * own fields (consentName and consentOptionalDesc read name and optionalDesc), from the type's
 * metadata; called once, when the query is first compiled.
 */
const ownColumns = () =>
  ['c.id', ...ownFieldProperties(ConsentDefinition).map((prop) => `c.${prop}`)] as `c.${keyof RowOf<ConsentDefinition>}`[];

/** Consents (alias c) with the caller's answer (a left join on the user's own answers), as EConsentRows. */
const consentsAnsweredBy = (db: Parameters<Parameters<typeof compiled>[0]>[0], userId: number) =>
  db
    .selectFrom('ConsentDefinition as c')
    .leftJoin('UserConsent as a', (j) => j.onRef('a.consent', '=', 'c.id').on('a.user', '=', userId))
    .select(ownColumns())
    .select(['c.company as companyId', 'c.directory as directoryUUID', sql<boolean>`${sql.ref('a.given')} is true`.as('consentGiven')]);

/** Active company consents (type C) of a company (none of an event), in display order, with the caller's answers. */
export const companyConsentRows = compiled<{ userId: number; companyId: number }, EConsentRow>(
  (db, p) =>
    consentsAnsweredBy(db, p.userId)
      .where('c.company', '=', p.companyId)
      .where('c.eventUUID', 'is', null)
      .where('c.consentTypeCode', '=', sql.lit('C'))
      .where('c.active', '=', sql.lit(true))
      .orderBy('c.sortOrder')
      .orderBy('c.id'),
  { prepared: true },
);

/** Active company consents (type C) of an event, in display order, with the caller's answers. */
export const eventConsentRows = compiled<{ userId: number; eventUUID: string }, EConsentRow>(
  (db, p) =>
    consentsAnsweredBy(db, p.userId)
      .where('c.eventUUID', '=', p.eventUUID)
      .where('c.consentTypeCode', '=', sql.lit('C'))
      .where('c.active', '=', sql.lit(true))
      .orderBy('c.sortOrder')
      .orderBy('c.id'),
  { prepared: true },
);

/** Active consents of any type by consentUUID (node(id:) decides which the caller reads), with the caller's answers. */
export const consentRowsByUuid = compiled<{ userId: number; consentUUIDs: string[] }, EConsentRow>(
  (db, p) =>
    consentsAnsweredBy(db, p.userId).where('c.consentUUID', '=', anyOf(p.consentUUIDs, 'uuid')).where('c.active', '=', sql.lit(true)),
  { prepared: true },
);

/** The (user, consent) pairs among the given users and consents (arrays of ids) where the user has given the consent. */
export const givenConsentPairs = compiled(
  (db, p: { userIds: number[]; consentIds: number[] }) =>
    db
      .selectFrom('UserConsent as a')
      .select(['a.user as userId', 'a.consent as consentId'])
      .where('a.user', '=', anyOf(p.userIds, 'int'))
      .where('a.consent', '=', anyOf(p.consentIds, 'int'))
      .where('a.given', '=', sql.lit(true)),
  { prepared: true },
);
