// The library module's hand-written SQL (docs/development.md, "Reads and writes"), in
// schema/sql/library.sql: libraries with the caller's right to read each, pages of entries with
// every list under them, an entry's lists, files to download, the publisher checks and the row
// lock of entry creation. Rows are the entities' rows: their columns come from the entities'
// metadata (`columns`, `rowJson`), under their properties' names, so no field is named to be shown.
// The audience of a library asks the company, team and connection modules for their fragments.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { epochMillisOf, instantKey } from '../../db/keyset';
import { anyOf, queriesOf, type BuildHelpers, type Tables } from '../../db/sql';
import { INSTANT_COLUMN, type OrderColumn } from '../../graphql/connection';
import { adminRoleExists } from '../company';
import { acceptedConnectionExists } from '../connection';
import { blobMarkedUsed } from '../storage';
import { teamMemberExists } from '../team';
import { SmartEntry, SmartLibrary, SmartLibraryPublisher } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartUpload } from './upload.entity';
import {
  SmartCategory,
  SmartEntryCategory,
  SmartEntryFilter,
  SmartEntryFolder,
  SmartEntryTag,
  SmartFilter,
  SmartFolder,
  SmartTag,
} from './taxonomy.entity';

const ENTITIES = {
  SmartLibrary,
  SmartLibraryPublisher,
  SmartEntry,
  SmartFile,
  SmartEntryUrl,
  SmartTag,
  SmartFolder,
  SmartFilter,
  SmartCategory,
  SmartEntryTag,
  SmartEntryFolder,
  SmartEntryFilter,
  SmartEntryCategory,
  SmartUpload,
};

const { compiled, eb: expressions, windowed } = queriesOf(ENTITIES);

type DB = Tables<{ [K in keyof typeof ENTITIES]: InstanceType<(typeof ENTITIES)[K]> }>;
/** Kysely over these entities and any alias: for builders shared by queries of different scopes. */
type Loose = ExpressionBuilder<Record<string, Record<string, unknown>>, never>;

type EntityClass = abstract new (...args: never[]) => object;

/**
 * The four kinds of terms that classify entries: the term's entity, its key and name properties,
 * the link of entries to it (ordered by `position`) with the link's relation to the term, and the
 * list of an entry's contents they make.
 */
export const TERMS = {
  tag: { entity: SmartTag, id: 'smartTagId', name: 'smartTagName', link: SmartEntryTag, key: 'tag', list: 'tags' },
  folder: { entity: SmartFolder, id: 'smartFolderId', name: 'smartFolderName', link: SmartEntryFolder, key: 'folder', list: 'folders' },
  filter: { entity: SmartFilter, id: 'smartFilterId', name: 'smartFilterName', link: SmartEntryFilter, key: 'filter', list: 'filters' },
  category: {
    entity: SmartCategory,
    id: 'smartCategoryId',
    name: 'smartCategoryName',
    link: SmartEntryCategory,
    key: 'category',
    list: 'categories',
  },
} as const;

export type TermKind = keyof typeof TERMS;
export const TERM_KINDS = Object.keys(TERMS) as TermKind[];

/**
 * A row of `entity` (alias `alias`) as one JSON object: every column it maps under its property's
 * name, an instant as epoch milliseconds, so that a list of rows (json_agg) arrives as rows of the
 * entity that only need their instants made Dates (library.sql.ts jsonRowsOf).
 */
export function rowJson(helpers: BuildHelpers, entity: EntityClass, alias: string): Expression<object> {
  const instants = helpers.instants(entity);
  const pairs = (helpers.columns(entity as never, alias) as string[]).map((column) => {
    const prop = column.slice(alias.length + 1);
    const ref = sql.ref(column);
    return sql`${sql.lit(prop)}, ${instants.has(prop) ? epochMillisOf(ref as never) : ref}`;
  });
  return sql<object>`json_build_object(${sql.join(pairs)})`;
}

/** A JSON array (never null) of `object`, in `order`, over the rows of `from`. */
const jsonList = (object: Expression<object>, order: Expression<unknown>[]) =>
  sql<object[]>`coalesce(json_agg(${object} order by ${sql.join(order)}), '[]'::json)`;

/** OUF before THMB, then by id: the order of SmartEntry.smartFiles. */
export const fileOrder = (f: string) => [sql.ref(`${f}.smartFileType`), sql.ref(`${f}.smartFileId`)];

/** Every list of entry `id` (an expression), read from its table, as the JSON columns of the contents (library.sql.ts). */
export function listColumns(eb: Loose, helpers: BuildHelpers, id: Expression<number>) {
  const loose = eb as unknown as ExpressionBuilder<DB, never>;
  const terms = TERM_KINDS.map((kind) => {
    const { entity, link, id: idProp, key, list } = TERMS[kind];
    return (loose as unknown as Loose)
      .selectFrom(`${link.name} as x`)
      .innerJoin(`${entity.name} as t`, `t.${idProp}`, `x.${key}`)
      .select(jsonList(rowJson(helpers, entity, 't'), [sql.ref('x.position')]).as('v'))
      .where('x.entry', '=', id)
      .as(list);
  });
  return [
    loose
      .selectFrom('SmartFile as f')
      .select(jsonList(rowJson(helpers, SmartFile, 'f'), fileOrder('f')).as('v'))
      .where('f.entry', '=', id)
      .as('files'),
    loose
      .selectFrom('SmartEntryUrl as u')
      .select(jsonList(rowJson(helpers, SmartEntryUrl, 'u'), [sql.ref('u.position')]).as('v'))
      .where('u.entry', '=', id)
      .as('urls'),
    ...terms,
  ];
}

/** The entries library `lib` holds, as its row keeps them (SmartEntry's triggers): a scalar subquery. */
const keptEntryCount = (db: ExpressionBuilder<DB, never> | Kysely<DB>, lib: Expression<number>) =>
  db.selectFrom('SmartLibrary as kept').select('kept.entryCount').where('kept.smartLibId', '=', lib);

/**
 * Whether user `user` may read library `l` (its audience): publishers, administrators of the
 * library's company, members of the library's team, and, for a company-wide library, users with
 * an accepted connection to the company. The roles, memberships and connections are the company,
 * team and connection modules' fragments.
 */
const readableBy = (eb: ExpressionBuilder<DB & { l: DB['SmartLibrary'] }, 'l'>, user: Expression<number>): Expression<SqlBool> =>
  eb.or([
    eb.exists(
      eb
        .selectFrom('SmartLibraryPublisher as pub')
        .select(sql.lit(1).as('one'))
        .whereRef('pub.library', '=', 'l.smartLibId')
        .where('pub.user', '=', user),
    ),
    adminRoleExists(eb.ref('l.company'), user),
    teamMemberExists(eb.ref('l.team') as Expression<number>, user),
    eb.and([eb('l.team', 'is', null), acceptedConnectionExists(eb.ref('l.company'), user)]),
  ]);

/** Whether the user publishes to the library. */
export const publisherOf = compiled((db, p: { libraryId: number; userId: number }) =>
  db
    .selectNoFrom((eb) =>
      eb
        .exists(
          eb
            .selectFrom('SmartLibraryPublisher as pub')
            .select(sql.lit(1).as('one'))
            .where('pub.library', '=', p.libraryId)
            .where('pub.user', '=', p.userId),
        )
        .as('found'),
    )
    .$castTo<{ found: boolean }>(),
);

/** Whether the user publishes to any library. */
export const publisherAnywhere = compiled((db, p: { userId: number }) =>
  db
    .selectNoFrom((eb) =>
      eb.exists(eb.selectFrom('SmartLibraryPublisher as pub').select(sql.lit(1).as('one')).where('pub.user', '=', p.userId)).as('found'),
    )
    .$castTo<{ found: boolean }>(),
);

/** Libraries by id (an intArray) with the user's right to read each (`readable`): unknown ids have no row. */
export const librariesFor = compiled((db, p: { userId: number; ids: string }, { columns }) =>
  db
    .selectFrom('SmartLibrary as l')
    .select((eb) => [...columns(SmartLibrary, 'l'), sql<boolean>`${readableBy(eb, sql<number>`${p.userId}::int`)}`.as('readable')])
    .where('l.smartLibId', '=', anyOf(p.ids, 'int')),
);

/** The libraries of the companies (an intArray) that the user may read, by company, then name (and id, for equal names). */
export const companyLibraries = compiled((db, p: { userId: number; companyIds: string }, { columns }) =>
  db
    .selectFrom('SmartLibrary as l')
    .select(columns(SmartLibrary, 'l'))
    .where('l.company', '=', anyOf(p.companyIds, 'int'))
    .where((eb) => readableBy(eb, sql<number>`${p.userId}::int`))
    .orderBy('l.company')
    .orderBy('l.smartLibName')
    .orderBy('l.smartLibId'),
);

/**
 * Every library each user (an intArray) may read, whatever its company, by name (and id), under the
 * user (`_user`). The rule is evaluated on every library; libraries are few (one per company or
 * team), so this stays a scan of a small table.
 */
export const userLibraries = compiled((db, p: { userIds: string }, { columns }) =>
  db
    .selectFrom([sql`unnest(${p.userIds}::int[])`.as<'u'>(sql`u(id)`), 'SmartLibrary as l'])
    .select([sql<number>`u.id`.as('_user'), ...columns(SmartLibrary, 'l')])
    .where((eb) => readableBy(eb as never, sql<number>`u.id`))
    .orderBy(sql`u.id`)
    .orderBy('l.smartLibName')
    .orderBy('l.smartLibId'),
);

/** Entries by id (an intArray), in no particular order. */
export const entriesById = compiled((db, p: { ids: string }, { columns }) =>
  db.selectFrom('SmartEntry as e').select(columns(SmartEntry, 'e')).where('e.smartEntryId', '=', anyOf(p.ids, 'int')),
);

/** Files by id (an intArray), each with its entry's download rule. */
export const filesWithEntry = compiled((db, p: { ids: string }, { columns }) =>
  db
    .selectFrom('SmartFile as f')
    .innerJoin('SmartEntry as e', 'e.smartEntryId', 'f.entry')
    .select([...columns(SmartFile, 'f'), 'e.smartEntryDownloadOrig'])
    .where('f.smartFileId', '=', anyOf(p.ids, 'int')),
);

/** Every nested list of each entry (an intArray), one row per entry (`_entry`). */
export const entryContents = compiled((db, p: { ids: string }, helpers) =>
  db
    .selectFrom(sql`unnest(${p.ids}::int[])`.as<'k'>(sql`k(id)`))
    .select((eb) => [sql<number>`k.id`.as('_entry'), ...listColumns(eb as never, helpers, sql<number>`k.id`)]),
);

/** The library by id, locked: the row lock orders creators of one library, so its room and names hold until commit. */
export const lockLibrary = compiled((db, p: { libraryId: number }, { columns }) =>
  db.selectFrom('SmartLibrary as l').select(columns(SmartLibrary, 'l')).where('l.smartLibId', '=', p.libraryId).forUpdate(),
);

/** Whether the library has an entry of this name key. */
export const nameTaken = compiled((db, p: { libraryId: number; nameKey: string }) =>
  db
    .selectNoFrom((eb) =>
      eb
        .exists(
          eb
            .selectFrom('SmartEntry as e')
            .select(sql.lit(1).as('one'))
            .where('e.library', '=', p.libraryId)
            .where('e.nameKey', '=', p.nameKey),
        )
        .as('nameTaken'),
    )
    .$castTo<{ nameTaken: boolean }>(),
);

/** The entry's id in the window's rows, beside the entry (one JSON column), under a name of the window's own. */
export const ENTRY_KEY = '_id';

/**
 * Newest first: the creation instant (the column itself, `_at`, so the index on library and creation
 * time gives each library's page; the cursor holds its microseconds, `_us`), then the id, which makes
 * the key unique.
 */
export const ENTRY_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, desc: true, kind: 'micros' },
  { column: ENTRY_KEY, desc: true, kind: 'int' },
];

/**
 * The page of entries of each library (the window's parent), newest first: each entry as one JSON
 * object (`entry`) with every list under it, built for the page's rows only (around the window),
 * only those in a folder (`folderId`) and/or with a tag (`tagKey`, a nameKey) when the window is
 * made with those filters. Unfiltered, a library's total is the count its row keeps, not a count of
 * its entries. Prepared: its text is one of a few (filters, cursor, count), its values apart;
 * planning it took as long as running it, 1.5 of 2.7 ms of PostgreSQL's time (docs/performance.md).
 */
const entryWindow = (filters: { folder: boolean; tag: boolean }) =>
  windowed<{ folderId: number; tagKey: string }, Record<string, unknown>>(
    (db, p, parent, helpers) => {
      let q = db
        .selectFrom('SmartEntry as e')
        .select((eb) => [
          sql<object>`${rowJson(helpers, SmartEntry, 'e')}`.as('entry'),
          eb.ref('e.smartEntryId').as(ENTRY_KEY),
          ...instantKey(eb.ref('e.smartEntryCreated')),
        ])
        .where('e.library', '=', parent);
      if (filters.folder)
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('SmartEntryFolder as f')
              .select(sql.lit(1).as('one'))
              .whereRef('f.entry', '=', 'e.smartEntryId')
              .where('f.folder', '=', p.folderId),
          ),
        );
      if (filters.tag)
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('SmartEntryTag as x')
              .innerJoin('SmartTag as t', 't.smartTagId', 'x.tag')
              .select(sql.lit(1).as('one'))
              .whereRef('x.entry', '=', 'e.smartEntryId')
              .where('t.nameKey', '=', p.tagKey),
          ),
        );
      return q;
    },
    ENTRY_ORDER,
    filters.folder || filters.tag ? undefined : (parent) => sql<number>`(${keptEntryCount(expressions, parent)})`,
    {
      prepared: true,
      around: (db, _, window, helpers) =>
        (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
          .selectFrom(window.as('w'))
          .selectAll('w')
          .select((eb) => listColumns(eb as never, helpers, sql<number>`${sql.ref(`w.${ENTRY_KEY}`)}`))
          .orderBy(sql.ref('w._parent'))
          .orderBy(sql.ref('w._page'))
          .orderBy(sql.ref(`w.${INSTANT_COLUMN}`), 'desc')
          .orderBy(sql.ref(`w.${ENTRY_KEY}`), 'desc'),
    },
  );

export const entryWindowAll = entryWindow({ folder: false, tag: false });
export const entryWindowInFolder = entryWindow({ folder: true, tag: false });
export const entryWindowWithTag = entryWindow({ folder: false, tag: true });
export const entryWindowInFolderWithTag = entryWindow({ folder: true, tag: true });

/** A loose view of the statement's own names (its CTEs), whose columns are properties' names. */
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** `prop as prop` for each column of `entity` (an insert's `returning`): the CTE's columns under the properties' names. */
const asProps = (helpers: BuildHelpers, entity: EntityClass) =>
  (helpers.columns(entity as never, 'x') as string[]).map((c) => `${c.slice(2)} as ${c.slice(2)}`);

/**
 * Rows of `entity` from JSON records by column name (`records`, an expression yielding them as
 * `jsonb_populate_record(null::table, ...)` rows, aliased `v`), selected as `r` rows of the entity
 * itself: a CTE of the entity's own name, in the insert's own scope, holds them, so every column is
 * named by its property, and an insert takes every column the entity maps.
 */
const recordsOf = (db: Kysely<DB>, entity: EntityClass, records: (db: AnyDb) => ReturnType<AnyDb['selectFrom']>) =>
  (db as unknown as AnyDb).with(entity.name, () => records(db as unknown as AnyDb) as never);

/**
 * createSmartEntry's write, one statement of data-modifying CTEs whatever the number of items (the
 * document, `document`, holds the new rows as records by column name, entry.write.ts): the entry
 * unless the library (`lib`, locked by the caller) holds `maxEntries` or has an entry named
 * `nameKey`; its files (a placeholder tile only while its blob `placeholder` is there, which is
 * marked used), links and term links (tags created when unknown; folders, filters and categories
 * chosen by id or nameKey, each once); the uploads it consumed (`uploads`) deleted. It answers the
 * room it found, and what it stored as the reads do: the entry as JSON (null when not stored) and
 * its lists.
 */
export const storeEntry = compiled(
  (
    db,
    p: { document: string; lib: number; maxEntries: number; nameKey: string; placeholder: string | null; uploads: number[] },
    helpers,
  ) => {
    const loose = db as unknown as AnyDb;
    const props = (entity: EntityClass, alias: string) => helpers.columns(entity, alias) as string[];
    /** Every column of `entity` but its generated key (and `entry`, set from the new entry), from the `r` rows. */
    const inserted = (entity: EntityClass, key: string, entry: boolean) =>
      props(entity, 'r').filter((c) => c !== `r.${key}` && !(entry && c === 'r.entry'));
    const termCte = (kind: TermKind) => `${TERMS[kind].list}_chosen`;
    const tag = TERMS.tag;
    let q = loose
      .with('d', (w) =>
        w.selectNoFrom([
          sql`${p.document}::jsonb`.as('j'),
          sql<number>`${p.lib}::int`.as('lib'),
          sql<number>`${p.maxEntries}::int`.as('max'),
        ]),
      )
      .with('room', (w) =>
        w
          .selectFrom('d')
          .select([
            sql<number>`(${keptEntryCount(expressions, sql.ref('d.lib'))})`.as('entries'),
            sql<boolean>`${expressions.exists(
              expressions
                .selectFrom('SmartEntry as c')
                .select(sql.lit(1).as('one'))
                .where('c.library', '=', sql.ref<number>('d.lib'))
                .where('c.nameKey', '=', p.nameKey),
            )}`.as('nameTaken'),
          ]),
      )
      .with('entry', () => {
        const columns = inserted(SmartEntry, 'smartEntryId', false);
        return db
          .insertInto('SmartEntry')
          .columns(columns.map((c) => c.slice(2)) as never)
          .expression(
            recordsOf(db, SmartEntry, (s) =>
              s
                .selectFrom([sql`d`.as('d'), sql`jsonb_populate_record(null::${sql.table('SmartEntry')}, d.j->'entry')`.as('v')])
                .selectAll('v'),
            )
              .selectFrom(['SmartEntry as r', 'd', 'room'])
              .select(columns as never)
              .where(sql<boolean>`room.entries < d.max and not room."nameTaken"`) as never,
          )
          .returning(asProps(helpers, SmartEntry) as never) as never;
      })
      .with('touched', (w) => blobMarkedUsed(w as never, sql<string | null>`${p.placeholder}::text`) as never)
      .with('files', () => {
        const columns = inserted(SmartFile, 'smartFileId', true);
        return db
          .insertInto('SmartFile')
          .columns(['entry', ...columns.map((c) => c.slice(2))] as never)
          .expression(
            recordsOf(db, SmartFile, (s) =>
              s
                .selectFrom([
                  sql`d`.as('d'),
                  sql`jsonb_array_elements(d.j->'files')`.as<'x'>(sql`x(j)`),
                  sql`jsonb_populate_record(null::${sql.table('SmartFile')}, x.j->'values')`.as('v'),
                ])
                .selectAll('v')
                .where(sql<boolean>`not (x.j->>'placeholder')::boolean or exists (select 1 from touched)`),
            )
              .selectFrom(['SmartFile as r', 'entry'])
              .select([sql.ref('entry.smartEntryId').as('entry'), ...(columns as never[])]) as never,
          )
          .returning(asProps(helpers, SmartFile) as never) as never;
      })
      .with('urls', () => {
        const columns = inserted(SmartEntryUrl, 'smartEntryUrlId', true);
        return db
          .insertInto('SmartEntryUrl')
          .columns(['entry', ...columns.map((c) => c.slice(2))] as never)
          .expression(
            recordsOf(db, SmartEntryUrl, (s) =>
              s
                .selectFrom([sql`d`.as('d'), sql`jsonb_populate_recordset(null::${sql.table('SmartEntryUrl')}, d.j->'urls')`.as('v')])
                .selectAll('v'),
            )
              .selectFrom(['SmartEntryUrl as r', 'entry'])
              .select([sql.ref('entry.smartEntryId').as('entry'), ...(columns as never[])]) as never,
          )
          .returning(asProps(helpers, SmartEntryUrl) as never) as never;
      })
      // An existing tag is set to itself so that it is returned too (do nothing would return only new ones).
      .with(
        'tags',
        () =>
          db
            .insertInto('SmartTag')
            .columns(['library', 'nameKey', tag.name])
            .expression(
              loose
                .selectFrom(['d', sql`jsonb_to_recordset(d.j->'tags')`.as<'r'>(sql`r(key text, name text, position int)`)])
                .select([sql.ref('d.lib').as('lib'), sql.ref('r.key').as('key'), sql.ref('r.name').as('name')]) as never,
            )
            .onConflict((oc) => oc.columns(['library', 'nameKey']).doUpdateSet({ nameKey: (eb) => eb.ref('excluded.nameKey') }))
            .returning(asProps(helpers, SmartTag) as never) as never,
      )
      .with(termCte('tag'), (w) =>
        w
          .selectFrom(['d', sql`jsonb_to_recordset(d.j->'tags')`.as<'r'>(sql`r(key text, name text, position int)`), 'tags'])
          .select([...(props(SmartTag, 'tags') as never[]), sql.ref('r.position').as('position')])
          .where(sql<boolean>`${sql.ref('tags.nameKey')} = r.key`),
      );
    for (const kind of TERM_KINDS.filter((k) => k !== 'tag')) {
      const { entity, id } = TERMS[kind];
      q = q.with(termCte(kind), (w) =>
        (w as unknown as AnyDb)
          .selectFrom([
            'd',
            sql`jsonb_to_recordset(d.j->${sql.lit(TERMS[kind].list)})`.as<'r'>(sql`r(id int, key text, position int)`),
            `${entity.name} as t`,
          ])
          .select([
            ...props(entity, 't').map((c) => `${c} as ${c.slice(2)}` as never),
            sql<number>`(row_number() over (order by min(r.position)) - 1)::int`.as('position'),
          ])
          .where(sql<boolean>`${sql.ref('t.library')} = d.lib and (${sql.ref(`t.${id}`)} = r.id or ${sql.ref('t.nameKey')} = r.key)`)
          .groupBy(sql.ref(`t.${id}`)),
      );
    }
    for (const kind of TERM_KINDS) {
      const { link, key, id } = TERMS[kind];
      q = q.with(
        `${kind}_links`,
        () =>
          (db as unknown as AnyDb)
            .insertInto(link.name)
            .columns(['entry', key, 'position'])
            .expression(
              loose
                .selectFrom(['entry', `${termCte(kind)} as x`])
                .select([sql.ref('entry.smartEntryId').as('entry'), sql.ref(`x.${id}`).as(key), sql.ref('x.position').as('position')]),
            )
            .returning(sql.lit(1).as('one')) as never,
      );
    }
    return q
      .with(
        'used',
        () =>
          db
            .deleteFrom('SmartUpload' as never)
            .where('id' as never, '=', anyOf(p.uploads, 'int'))
            .returning(sql.lit(1).as('one')) as never,
      )
      .selectFrom('room')
      .select((eb) => [
        'room.entries',
        'room.nameTaken',
        eb
          .selectFrom('entry as x')
          .select(sql<object>`${rowJson(helpers, SmartEntry, 'x')}`.as('v'))
          .as('entry'),
        eb
          .selectFrom('files as f')
          .select(jsonList(rowJson(helpers, SmartFile, 'f'), fileOrder('f')).as('v'))
          .as('files'),
        eb
          .selectFrom('urls as u')
          .select(jsonList(rowJson(helpers, SmartEntryUrl, 'u'), [sql.ref('u.position')]).as('v'))
          .as('urls'),
        ...TERM_KINDS.map((kind) =>
          eb
            .selectFrom(`${termCte(kind)} as x`)
            .select(jsonList(rowJson(helpers, TERMS[kind].entity, 'x'), [sql.ref('x.position')]).as('v'))
            .as(TERMS[kind].list),
        ),
      ])
      .$castTo<{ entries: number; nameTaken: boolean; entry: object | null } & Record<string, object[]>>();
  },
);
