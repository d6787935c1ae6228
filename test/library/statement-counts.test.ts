// Statements of the library's hot paths (issue 18): the library page over GraphQL reads as many
// statements for 20 entries as for 1 (at most 4), and createSmartEntry stores an entry with many
// tags, folders, filters, categories and links in as many statements as one with one of each (at
// most 6). What the write answers is what the read model reads back.
import { addTerms, newPublisher, useTestApp, type Publisher } from '../kit';
// The fields of the REST body of createSmartEntry (its route's selection), read back through the library page.
import { ENTRY_FIELDS } from '../kit/src';

const t = useTestApp();

/** Worked out on first use, as the route table works out the bodies: once every module is loaded. */
const PAGE = () => `query($id: Int!, $size: Int, $after: String) { smartLibrary(smartLibId: $id) {
  smartLibId smartLibName companyId teamId
  entries(first: $size, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage } edges { node { ${ENTRY_FIELDS.text()} } } }
} }`;

let n = 0;
/** A URL entry with two tags, a folder, a filter, a category and two links; answers the REST body. */
async function createEntry(p: Publisher, extra: Record<string, unknown> = {}) {
  n++;
  const res = await p.rest('POST', '/rest/smartlib/smartentry', {
    body: {
      smartLibId: p.smartLibId,
      smartEntryType: 'URL',
      smartEntryName: `Link ${n}`,
      smartEntryUrlLink: `https://counts.example/${n}`,
      smartEntryTags: [{ smartTagName: 'alpha' }, { smartTagName: `tag ${n}` }],
      smartEntryFolders: [{ smartFolderName: 'Shelf' }],
      smartEntryFilters: [{ smartFilterName: 'Staff' }],
      smartEntryCategories: [{ smartCategoryName: 'Guides' }],
      smartEntryURLs: [
        { smartEntryUrlName: 'Home', smartEntryUrlValue: 'https://home.example' },
        { smartEntryUrlValue: 'https://b.example' },
      ],
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function publisherWithTerms(): Promise<Publisher> {
  const p = await newPublisher(t);
  await addTerms(t.orm, p.smartLibId, 'folder', ['Shelf', 'Archive', 'Drafts']);
  await addTerms(t.orm, p.smartLibId, 'filter', ['Staff', 'Clinicians']);
  await addTerms(t.orm, p.smartLibId, 'category', ['Guides', 'Forms']);
  return p;
}

describe('the library page over GraphQL', () => {
  it('when a page holds 20 entries instead of 1, then it takes the same three statements and reads back what createSmartEntry answered', async () => {
    const one = await publisherWithTerms();
    const twenty = await publisherWithTerms();
    const created = await createEntry(one);
    for (let i = 0; i < 20; i++) await createEntry(twenty);
    await one.gql(PAGE(), { id: one.smartLibId, size: 20 }); // warms the token cache and the sliding expiry
    await twenty.gql(PAGE(), { id: twenty.smartLibId, size: 20 });

    let small: any;
    let large: any;
    const smallCount = await t.countStatements(async () => (small = await one.gql(PAGE(), { id: one.smartLibId, size: 20 })));
    const largeCount = await t.countStatements(async () => (large = await twenty.gql(PAGE(), { id: twenty.smartLibId, size: 20 })));

    expect(small.body.errors).toBeUndefined();
    expect(large.body.data.smartLibrary.entries).toMatchObject({
      totalCount: 20,
      pageInfo: { hasNextPage: false, hasPreviousPage: false },
    });
    expect(large.body.data.smartLibrary.entries.edges).toHaveLength(20);
    expect(small.body.data.smartLibrary.entries.edges).toEqual([{ node: created }]);
    expect(largeCount).toBe(smallCount);
    // The caller, the library with the right to read it, the page with its total and every nested list.
    expect(smallCount).toBe(3);
  });

  it('when the page is asked for after the last entry, then it is empty and still counts the entries', async () => {
    const p = await publisherWithTerms();
    for (let i = 0; i < 3; i++) await createEntry(p);
    const LAST = `query($id: Int!) { smartLibrary(smartLibId: $id) { entries(first: 3) { pageInfo { endCursor } } } }`;
    const last = (await p.gql(LAST, { id: p.smartLibId })).body.data.smartLibrary.entries.pageInfo.endCursor;
    const res = await p.gql(PAGE(), { id: p.smartLibId, size: 2, after: last });
    expect(res.body.data.smartLibrary.entries).toEqual({
      totalCount: 3,
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
      edges: [],
    });
  });
});

describe('createSmartEntry', () => {
  it('when an entry names many tags, folders, filters, categories and links, then it takes the five statements of one naming one of each', async () => {
    const p = await publisherWithTerms();
    await addTerms(t.orm, p.smartLibId, 'tag', ['Existing']);
    await createEntry(p); // warms the token cache; the plain URL tile is stored from here on
    const [archive] = await t.rows('smart_folder', { smart_lib_id: p.smartLibId, smart_folder_name: 'Archive' });

    let few: any;
    let many: any;
    const fewCount = await t.countStatements(
      async () =>
        (few = await createEntry(p, {
          smartEntryTags: [{ smartTagName: 'solo' }],
          smartEntryURLs: [{ smartEntryUrlValue: 'https://one.example' }],
        })),
    );
    const manyCount = await t.countStatements(
      async () =>
        (many = await createEntry(p, {
          smartEntryTags: [
            { smartTagName: 'New one' },
            { smartTagName: 'existing' },
            { smartTagName: 'new  ONE' },
            { smartTagName: 'Other' },
          ],
          smartEntryFolders: [
            { smartFolderName: 'Drafts' },
            { smartFolderName: 'Nowhere' },
            { smartFolderId: archive.smart_folder_id },
            { smartFolderName: 'drafts' },
          ],
          smartEntryFilters: [{ smartFilterName: 'Clinicians' }, { smartFilterName: 'Unknown' }, { smartFilterName: 'Staff' }],
          smartEntryCategories: [{ smartCategoryName: 'Forms' }, { smartCategoryName: 'Guides' }],
          smartEntryURLs: [1, 2, 3].map((i) => ({ smartEntryUrlName: `Link ${i}`, smartEntryUrlValue: `https://many.example/${i}` })),
        })),
    );

    expect(few.smartEntryTags.map((tag: any) => tag.smartTagName)).toEqual(['solo']);
    // Each term once, in the order the request first named it; unknown folders, filters and categories left out.
    expect(many.smartEntryTags.map((tag: any) => tag.smartTagName)).toEqual(['New one', 'Existing', 'Other']);
    expect(many.smartEntryFolders.map((f: any) => f.smartFolderName)).toEqual(['Drafts', 'Archive']);
    expect(many.smartEntryFilters.map((f: any) => f.smartFilterName)).toEqual(['Clinicians', 'Staff']);
    expect(many.smartEntryCategories.map((c: any) => c.smartCategoryName)).toEqual(['Forms', 'Guides']);
    expect(many.smartEntryURLs.map((u: any) => u.smartEntryUrlName)).toEqual(['Link 1', 'Link 2', 'Link 3']);
    const folders = await t.rows('smart_entry_folder', { smart_entry_id: many.smartEntryId });
    expect(folders.map((f: any) => [f.smart_folder_id, f.position]).sort((a: number[], b: number[]) => a[1] - b[1])).toEqual([
      [many.smartEntryFolders[0].smartFolderId, 0],
      [archive.smart_folder_id, 1],
    ]);
    expect(await t.countRows('smart_tag', { smart_lib_id: p.smartLibId, name_key: 'new one' })).toBe(1);

    expect(manyCount).toBe(fewCount);
    // The caller, the library's lock, the publisher role, the Internet shortcut's blob (its chunk and its row, in the
    // entry's transaction), the entry with all it holds.
    expect(fewCount).toBe(6);
    const read = await p.gql(`query($id: Int!) { smartEntry(smartEntryId: $id) { ${ENTRY_FIELDS.text()} } }`, { id: many.smartEntryId });
    expect(read.body.data.smartEntry).toEqual(many);
  });

  it('when the stored copy of the plain tile is gone, then the next entry stores it again and later entries share it', async () => {
    const p = await publisherWithTerms();
    const a = await createEntry(p);
    const [tile] = await t.rows('smart_file', { smart_file_id: a.smartFiles[1].smartFileId });
    // As the purge would once nothing refers to it: every file of the tile, then its blob.
    await t.sql('delete from smart_file where blob_sha256 = ?', [tile.blob_sha256]);
    await t.sql('delete from stored_blob where sha256 = ?', [tile.blob_sha256]);

    const b = await createEntry(p);
    const c = await createEntry(p);
    expect(b.smartFiles.map((f: any) => [f.smartFileType, f.smartFileBytes])).toEqual([
      ['OUF', expect.any(Number)],
      ['THMB', tile.smart_file_bytes],
    ]);
    expect(c.smartFiles[1].smartFileMd5).toBe(tile.smart_file_md5);
    expect(await t.countRows('smart_file', { blob_sha256: tile.blob_sha256 })).toBe(2);
    expect(await t.countRows('stored_blob', { sha256: tile.blob_sha256 })).toBe(1);
    const [stored] = await t.sql(
      'select sum(length(c.data))::int as bytes from stored_blob b join stored_blob_chunk c on c.content_id = b.content_id where b.sha256 = ?',
      [tile.blob_sha256],
    );
    expect(stored.bytes).toBe(tile.smart_file_bytes);
  });
});
