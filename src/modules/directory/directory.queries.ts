// The directory module's hand-written reads (docs/development.md, "Reads and writes"), their SQL in
// schema/sql/directory.sql. The consents (the consent module answers them as EConsent): each list
// joins the caller's answers, so consentGiven comes with the rows instead of from a second
// statement; the consent module's loader answers the same question for consents that arrive as
// entities.
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import { anyOf, queriesOf, type RowOf, type Tables } from '../../db/sql';
import { ownFieldProperties } from '../../graphql/graph-fields';
import { companyHas } from '../company';
import { isAddressField } from '../reference-data';
import { teamAdminOf, teamMemberIdOf, teamMemberships } from '../team';
import { ConsentDefinition, UserConsent } from './consent.entity';
import { ContactAddress, ContactRecord, SmartDirectory, SmartDirectoryField } from './directory.entity';

const { compiled } = queriesOf({ ConsentDefinition, UserConsent, ContactAddress, ContactRecord, SmartDirectory, SmartDirectoryField });

type DB = Tables<{
  ConsentDefinition: ConsentDefinition;
  UserConsent: UserConsent;
  ContactAddress: ContactAddress;
  ContactRecord: ContactRecord;
  SmartDirectory: SmartDirectory;
  SmartDirectoryField: SmartDirectoryField;
}>;
type WithDirectory = ExpressionBuilder<DB & { d: DB['SmartDirectory'] }, 'd'>;

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

// --- The directory chain (directory.access.ts, directory.reference.ts, directory.reads.ts) ---

/** How many required, active consents of the directory `d` user `userId` has not given: a scalar subquery. */
const missingConsents = (eb: WithDirectory, userId: Expression<number>) =>
  eb
    .selectFrom('ConsentDefinition as cd')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('cd.directory', '=', eb.ref('d.directoryUUID'))
    .where((w) => w.ref('cd.consentRequired'))
    .where((w) => w.ref('cd.active'))
    .where((w) =>
      w.not(
        w.exists(
          w
            .selectFrom('UserConsent as uc')
            .select(sql.lit(1).as('one'))
            .whereRef('uc.consent', '=', 'cd.id')
            .where('uc.user', '=', userId)
            .where((g) => g.ref('uc.given')),
        ),
      ),
    );

/**
 * Every step of the chain of one directory for the user, in one row (none: no such directory):
 * the company has the feature, the directory is active, the user's team membership, contact
 * record and missing consents, and whether the directory shows an address field. Every lookup in
 * it is by key.
 */
export const directoryChain = compiled(
  (db, p: { userId: number; directoryUUID: string }) =>
    db
      .selectFrom('SmartDirectory as d')
      .select((eb) => [
        sql<boolean>`${companyHas(eb.ref('d.company'), ['smartDirectoryEnabled'])}`.as('enabled'),
        'd.active',
        sql<number | null>`${teamMemberIdOf(eb.ref('d.team'), eb.val(p.userId))}`.as('memberId'),
        eb
          .selectFrom('ContactRecord as r')
          .select('r.contactId')
          .where('r.directory', '=', eb.ref('d.directoryUUID'))
          .where('r.user', '=', p.userId)
          .limit(sql.lit(1))
          .$asScalar()
          .$castTo<number | null>() // null: no contact record
          .as('contactId'),
        missingConsents(eb, eb.val(p.userId)).$asScalar().as('missingConsents'),
        eb
          .exists(
            eb
              .selectFrom('SmartDirectoryField as f')
              .select(sql.lit(1).as('one'))
              .where('f.directory', '=', eb.ref('d.directoryUUID'))
              .where((w) => isAddressField(w.ref('f.field'))),
          )
          .as('addressFields'),
      ])
      .where('d.directoryUUID', '=', p.directoryUUID),
  { prepared: true },
);

/**
 * The chain of many directories (an array of UUIDs) for one user (directoryChain's, without the
 * address fields, with the team-admin flag): one row per directory found.
 */
export const directoryChains = compiled((db, p: { userId: number; uuids: string[] }) =>
  db
    .selectFrom('SmartDirectory as d')
    .leftJoin('ContactRecord as r', (j) => j.onRef('r.directory', '=', 'd.directoryUUID').on('r.user', '=', p.userId))
    .select((eb) => [
      sql<string>`${eb.ref('d.directoryUUID')}::text`.as('directoryUUID'),
      sql<boolean>`${companyHas(eb.ref('d.company'), ['smartDirectoryEnabled'])}`.as('enabled'),
      'd.active',
      sql<number | null>`${teamMemberIdOf(eb.ref('d.team'), eb.val(p.userId))}`.as('memberId'),
      sql<boolean>`coalesce(${teamAdminOf(eb.ref('d.team'), eb.val(p.userId))}, false)`.as('teamAdmin'),
      'r.contactId',
      missingConsents(eb, eb.val(p.userId)).$asScalar().as('missingConsents'),
    ])
    .where('d.directoryUUID', '=', anyOf(p.uuids, 'uuid')),
);

/** Of the directories (an array of UUIDs), those the router may see: active, of an active company with smart directories enabled. */
export const routerDirectories = compiled((db, p: { uuids: string[] }) =>
  db
    .selectFrom('SmartDirectory as d')
    .select((eb) => sql<string>`${eb.ref('d.directoryUUID')}::text`.as('directoryUUID'))
    .where((w) => w.ref('d.active'))
    .where((w) => companyHas(w.ref('d.company'), ['active', 'smartDirectoryEnabled']))
    .where('d.directoryUUID', '=', anyOf(p.uuids, 'uuid')),
);

/** A directory a user can open, as directory.reads.ts shapes it: the type's columns, the relations' keys, the user and their standing. */
export type OpenDirectoryRow = Omit<RowOf<SmartDirectory>, 'company' | 'team' | 'createdAt'> & {
  companyId: number;
  teamId: number;
  userId: number;
  admin: boolean;
};

/**
 * The properties of the SmartDirectory type's own fields, from its metadata (the fields its
 * resolvers add read the relations); called once, when a query is first compiled.
 */
const directoryColumns = () => ownFieldProperties(SmartDirectory).map((prop) => `d.${prop}`) as `d.${keyof RowOf<SmartDirectory>}`[];

/**
 * The directories (`d`) the members (`m`, team memberships) can open: the company has the feature,
 * the directory is active, the member holds a contact record there and has given every required
 * (active) consent.
 */
const openDirectories = (db: Parameters<Parameters<typeof compiled>[0]>[0]) =>
  db
    .selectFrom('SmartDirectory as d')
    .innerJoin(teamMemberships().as('m'), 'm.teamId', 'd.team')
    .innerJoin('ContactRecord as r', (j) => j.onRef('r.directory', '=', 'd.directoryUUID').onRef('r.user', '=', 'm.userId'))
    .select(directoryColumns())
    .select(['d.company as companyId', 'd.team as teamId', 'm.userId as userId', 'm.admin as admin'])
    .where((w) => companyHas(w.ref('d.company'), ['smartDirectoryEnabled']))
    .where((w) => w.ref('d.active'))
    .where((w) => w.not(w.exists(missingConsents(w, w.ref('m.userId')).clearSelect().select(sql.lit(1).as('one')))));

/** The directories each of the users (an intArray) can open, by user, then by name. */
export const openDirectoriesOfUsers = compiled((db, p: { userIds: string }) =>
  openDirectories(db)
    .where('m.userId', '=', anyOf(p.userIds, 'int'))
    .orderBy('m.userId')
    .orderBy('d.directoryName')
    .orderBy('d.directoryUUID')
    .$castTo<OpenDirectoryRow>(),
);

/** The directories the user can open at any of the companies (an intArray), by company, then by name. */
export const openDirectoriesAtCompanies = compiled((db, p: { userId: number; companyIds: string }) =>
  openDirectories(db)
    .where('m.userId', '=', p.userId)
    .where('d.company', '=', anyOf(p.companyIds, 'int'))
    .orderBy('d.company')
    .orderBy('d.directoryName')
    .orderBy('d.directoryUUID')
    .$castTo<OpenDirectoryRow>(),
);

/** Addresses of contact records (an array of ids), oldest first, every column. */
export const addressesOfContacts = compiled(
  (db, p: { contactIds: number[] }, { columns }) =>
    db
      .selectFrom('ContactAddress as a')
      .select(columns(ContactAddress, 'a'))
      .where('a.contactRecord', '=', anyOf(p.contactIds, 'int'))
      .orderBy('a.createdAt')
      .orderBy('a.uuid'),
  { prepared: true },
);

/** Contact addresses by uuid (an array), every column. */
export const contactAddressesByUuid = compiled(
  (db, p: { uuids: string[] }, { columns }) =>
    db.selectFrom('ContactAddress as a').select(columns(ContactAddress, 'a')).where('a.uuid', '=', anyOf(p.uuids, 'uuid')),
  { prepared: true },
);
