// Each field of the library is said once (docs/development.md, "Adding a field"): a smart entry's
// field is named only by its entity, its input and its migration; everything else derives from
// them. So every read model of the library (and the write's answer) reads rows whose properties are
// exactly their entity's, with its value types (the row types are the entities' own, RowOf), the
// REST body of an entry carries every field of the entry's GraphQL type but those the
// specification leaves out. That the source names the pinned field nowhere else is
// test/contract/fields-once.test.ts's (with one field of each module).
import { ReferenceKind, type EntityManager, type EntityName, type EntityProperty } from '@mikro-orm/core';
import { Kind, parse, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import { DEMO, NORTHWIND, OLIVIA, suffix, useTestApp } from '../kit';
import { ENTRY_FIELDS } from '../kit/src';
import { createSchema } from '../../src/graphql/schema';
import { SmartEntry, SmartLibrary } from '../../src/modules/library/library.entity';
import { SmartEntryUrl, SmartFile } from '../../src/modules/library/entry-content.entity';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from '../../src/modules/library/taxonomy.entity';
import * as read from '../../src/modules/library/library.read';
import * as entryWrite from '../../src/modules/library/entry.write';
import type { EntryContents } from '../../src/modules/library/library.sql';
import { MODULES } from '../../src/modules';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const { smartLibId: DEMO_LIBRARY, welcomePackEntryId: WELCOME_PACK } = DEMO.library;

/** The entity's properties that have a column (its scalars and the relations it owns), with the runtime type of each value. */
function columnsOf(em: EntityManager, entity: EntityName<object>): Record<string, string> {
  const props = em
    .getMetadata()
    .get(entity)
    .props.filter(
      (p) =>
        p.persist !== false &&
        (p.kind === ReferenceKind.SCALAR || p.kind === ReferenceKind.MANY_TO_ONE || (p.kind === ReferenceKind.ONE_TO_ONE && p.owner)),
    );
  return Object.fromEntries(
    props.map((p) => [p.name, valueType(p.kind === ReferenceKind.SCALAR ? p : p.targetMeta!.getPrimaryProps()[0])]),
  );
}

/** The type of a column's values: its property's, or (a nullable property reflected as Object) its column's. */
function valueType(p: EntityProperty): string {
  if (['string', 'number', 'boolean', 'Date'].includes(p.runtimeType)) return p.runtimeType;
  const column = p.columnTypes[0];
  if (/char|text/.test(column)) return 'string';
  if (/int|numeric|double|real/.test(column)) return 'number';
  if (/timestamp|date/.test(column)) return 'Date';
  return /bool/.test(column) ? 'boolean' : column;
}

/** The row has exactly the entity's properties (and `extra`), each null or of its property's type. */
function expectRowOf(em: EntityManager, entity: EntityName<object>, row: object, extra: Record<string, string> = {}): void {
  const expected = { ...columnsOf(em, entity), ...extra };
  const typeOf = (v: unknown) => (v instanceof Date ? 'Date' : typeof v);
  const actual = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? expected[k] : typeOf(v)]));
  expect({ entity: em.getMetadata().get(entity).className, row: actual }).toEqual({
    entity: em.getMetadata().get(entity).className,
    row: expected,
  });
}

const LISTS: Record<keyof EntryContents, EntityName<object>> = {
  files: SmartFile,
  urls: SmartEntryUrl,
  tags: SmartTag,
  folders: SmartFolder,
  filters: SmartFilter,
  categories: SmartCategory,
};

function expectContents(em: EntityManager, contents: EntryContents): void {
  expect(Object.keys(contents).sort()).toEqual(Object.keys(LISTS).sort());
  for (const [list, entity] of Object.entries(LISTS)) {
    const rows = contents[list as keyof EntryContents];
    expect({ list, empty: rows.length === 0 }).toEqual({ list, empty: false });
    for (const row of rows) expectRowOf(em, entity, row);
  }
}

describe('the rows of the library are its entities', () => {
  let entryId: number;
  let stored: Awaited<ReturnType<typeof entryWrite.storeEntry>> | undefined;

  beforeAll(async () => {
    // An entry with something in every list (the demo library has the folder, filter and category).
    const write = jest.spyOn(entryWrite, 'storeEntry');
    const res = await olivia.rest('POST', '/rest/smartlib/smartentry', {
      body: {
        smartLibId: DEMO_LIBRARY,
        smartEntryType: 'URL',
        smartEntryName: `Every list ${suffix()}`,
        smartEntryUrlLink: 'https://lists.example/',
        smartEntryURLs: [{ smartEntryUrlName: 'Home', smartEntryUrlValue: 'https://lists.example/home' }],
        smartEntryTags: [{ smartTagName: 'onboarding' }],
        smartEntryFolders: [{ smartFolderName: 'Getting started' }],
        smartEntryFilters: [{ smartFilterName: 'New staff' }],
        smartEntryCategories: [{ smartCategoryName: 'Guides' }],
      },
    });
    expect(res.status).toBe(200);
    entryId = res.body.smartEntryId;
    stored = await write.mock.results[0]?.value;
    write.mockRestore();
  });

  it('when createSmartEntry stores an entry, then the write answers the entry and every list as rows of their entities', () => {
    const em = t.orm.em.fork();
    expect(stored?.entry).toBeTruthy();
    if (!stored?.entry) return;
    expectRowOf(em, SmartEntry, stored.entry);
    expectContents(em, stored.contents);
  });

  it('when the libraries are read (by id, by company, by reader), then each row is a SmartLibrary row', async () => {
    const em = t.orm.em.fork();
    const [byId] = await read.librariesReadableBy(em, OLIVIA, [DEMO_LIBRARY]);
    expect(byId?.readable).toBe(true);
    expectRowOf(em, SmartLibrary, byId!.library);
    const [ofCompany] = await read.companyLibrariesReadableBy(em, OLIVIA, [NORTHWIND]);
    const [ofReader] = await read.librariesOfReaders(em, [OLIVIA]);
    for (const row of [...ofCompany, ...ofReader]) expectRowOf(em, SmartLibrary, row);
    expect(ofReader.map((l) => l.smartLibId)).toContain(DEMO_LIBRARY);
  });

  it('when entries are read (by id, in a page, their lists), then each is a SmartEntry row and each list item a row of its entity', async () => {
    const em = t.orm.em.fork();
    const byId = await read.entriesByIds(em, [entryId, WELCOME_PACK]);
    for (const row of byId) expectRowOf(em, SmartEntry, row!);

    const [page] = await read.entryPages(
      em,
      [DEMO_LIBRARY],
      { size: 100, backward: false, after: null, before: null },
      { folderId: null, tagKey: null },
    );
    const node = page.edges.find((e) => e.node.entry.smartEntryId === entryId)!.node;
    expectRowOf(em, SmartEntry, node.entry);
    expectContents(em, node.contents);

    const [contents] = await read.entryContents(em, [entryId]);
    expectContents(em, contents);
    expect(contents).toEqual(node.contents);
  });

  it('when a file is read for its download, then it is a SmartFile row with its entry download rule', async () => {
    const em = t.orm.em.fork();
    const [welcome] = await read.entryContents(em, [WELCOME_PACK]);
    const [file] = await read.filesForDownload(em, [welcome.files[0].smartFileId]);
    expectRowOf(em, SmartFile, file!, { smartEntryDownloadOrig: 'string' });
    expect(file).toEqual({ ...welcome.files[0], smartEntryDownloadOrig: 'Y' });
  });
});

describe('the REST body of an entry', () => {
  it('when a field is on the SmartEntry type, then the body selects it, but the few the specification leaves out', async () => {
    const schema = await createSchema(MODULES);
    const fields = Object.keys((schema.getType('SmartEntry') as GraphQLObjectType).getFields());
    const selection = (parse(`{ ${ENTRY_FIELDS.text()} }`).definitions[0] as OperationDefinitionNode).selectionSet.selections;
    const selected = selection.map((s) => (s.kind === Kind.FIELD ? s.name.value : '?'));
    // `id` (Node's global id) is GraphQL's: REST bodies keep the specification's properties only.
    const leftOut = ['id', 'library', 'aiIngestionFailures', 'aiIngestionError'];
    expect([...selected].sort()).toEqual(fields.filter((f) => !leftOut.includes(f)).sort());
  });
});
