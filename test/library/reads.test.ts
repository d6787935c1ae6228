// GraphQL reads of libraries and entries (paged, every nested list batched), federation
// references, downloads, and the demo library.
import type { MikroORM } from '@mikro-orm/core';
import {
  CARA,
  connect,
  createTeam,
  DEMO,
  grantCompanyRole,
  NORTHWIND,
  newPublisher,
  OLIVIA,
  onePagePdf,
  suffix,
  uniquePdf,
  uploadFile,
  useTestApp,
  type Client,
  type Publisher,
} from '../kit';
import { StoredBlob } from '../../src/modules/storage/blob.entity';
import { storeBuffer } from '../../src/modules/storage/blob-store';
import { SmartEntry, SmartLibrary } from '../../src/modules/library/library.entity';
import { SmartEntryUrl, SmartFile } from '../../src/modules/library/entry-content.entity';
import { SmartEntryCategory, SmartEntryFilter, SmartEntryFolder, SmartEntryTag } from '../../src/modules/library/taxonomy.entity';
import { createSmartLibrary, ensureTerms, nameKey } from '../../src/modules/library/library.service';
import * as libraryRead from '../../src/modules/library/library.read';
import * as blobStore from '../../src/modules/storage/blob-store';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const { smartLibId: DEMO_LIBRARY, welcomePackEntryId: WELCOME_PACK } = DEMO.library;

/** A new user who administers Northwind (and so reads its libraries). */
async function northwindAdmin() {
  const admin = await t.newUser();
  await grantCompanyRole(t.orm, admin.uId, NORTHWIND, 'ADMIN');
  return admin;
}

const LIBRARY_QUERY = `query($id: Int!, $first: Int, $after: String) { smartLibrary(smartLibId: $id) {
  smartLibId smartLibName companyId teamId
  entries(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage hasPreviousPage }
    edges { node {
      smartEntryId smartLibId smartEntryName smartEntryType smartEntryDownloadOrig aiIngestionFailures
      smartFiles { smartFileId smartEntryId smartFileType smartFileName smartFileBytes mimeType }
      smartEntryURLs { smartEntryUrlName smartEntryUrlValue }
      smartEntryTags { smartTagName } smartEntryFolders { smartFolderName } smartEntryFilters { smartFilterName } smartEntryCategories { smartCategoryName }
    } }
  }
  smartTags { smartTagName } smartFolders { smartFolderName } smartFilters { smartFilterName } smartCategories { smartCategoryName }
} }`;

describe('the demo library', () => {
  it('when Olivia reads the demo library, then its entry "Welcome pack" is there with its files and classification', async () => {
    const res = await olivia.gql(LIBRARY_QUERY, { id: DEMO_LIBRARY });
    expect(res.body.errors).toBeUndefined();
    const library = res.body.data.smartLibrary;
    expect(library).toMatchObject({
      smartLibId: DEMO_LIBRARY,
      smartLibName: 'Northwind Health library',
      companyId: NORTHWIND,
      teamId: null,
      smartTags: [{ smartTagName: 'onboarding' }, { smartTagName: 'welcome' }],
      smartFolders: [{ smartFolderName: 'Getting started' }, { smartFolderName: 'Policies' }],
      smartFilters: [{ smartFilterName: 'Clinicians' }, { smartFilterName: 'New staff' }],
      smartCategories: [{ smartCategoryName: 'Forms' }, { smartCategoryName: 'Guides' }],
      entries: { totalCount: 1, pageInfo: { hasNextPage: false, hasPreviousPage: false } },
    });
    const pdf = onePagePdf('Welcome to Northwind Health');
    expect(library.entries.edges.map((e: any) => e.node)).toEqual([
      {
        smartEntryId: WELCOME_PACK,
        smartLibId: DEMO_LIBRARY,
        smartEntryName: 'Welcome pack',
        smartEntryType: 'PDF',
        smartEntryDownloadOrig: 'Y',
        aiIngestionFailures: 0,
        smartFiles: [
          {
            smartFileId: expect.any(Number),
            smartEntryId: WELCOME_PACK,
            smartFileType: 'OUF',
            smartFileName: 'welcome-pack.pdf',
            smartFileBytes: pdf.length,
            mimeType: 'application/pdf',
          },
          {
            smartFileId: expect.any(Number),
            smartEntryId: WELCOME_PACK,
            smartFileType: 'THMB',
            smartFileName: 'Welcome pack-tile.jpg',
            smartFileBytes: expect.any(Number),
            mimeType: 'image/jpeg',
          },
        ],
        smartEntryURLs: [],
        smartEntryTags: [{ smartTagName: 'onboarding' }, { smartTagName: 'welcome' }],
        smartEntryFolders: [{ smartFolderName: 'Getting started' }],
        smartEntryFilters: [{ smartFilterName: 'New staff' }],
        smartEntryCategories: [{ smartCategoryName: 'Guides' }],
      },
    ]);
    const download = await olivia.rest('GET', `/rest/smartlib/files/${library.entries.edges[0].node.smartFiles[0].smartFileId}/content`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="welcome-pack.pdf"');
    expect(download.bytes.equals(pdf)).toBe(true);
  });

  it('when Cara (publisher) creates an entry in the demo library, then it is accepted', async () => {
    const res = await t.as(CARA).rest('POST', '/rest/smartlib/smartentry', {
      body: {
        smartLibId: DEMO_LIBRARY,
        smartEntryType: 'URL',
        smartEntryName: `Roster ${suffix()}`,
        smartEntryUrlLink: 'https://roster.example',
      },
    });
    expect(res.status).toBe(200);
  });
});

describe('who may read a library', () => {
  let p: Publisher;
  beforeAll(async () => {
    p = await newPublisher(t);
  });

  async function canRead(who: Client, smartLibId = p.smartLibId) {
    const res = await who.gql('query($id: Int!) { smartLibrary(smartLibId: $id) { smartLibId } }', { id: smartLibId });
    return res.body.errors ? res.body.errors[0].extensions.errorCode : 'yes';
  }

  it('when the reader is a publisher, a company administrator or has an accepted connection, then the library is visible', async () => {
    expect(await canRead(p)).toBe('yes');
    expect(await canRead(await northwindAdmin())).toBe('yes');
    const member = await t.newUser();
    await connect(t.orm, member.uId, NORTHWIND, 'accepted');
    expect(await canRead(member)).toBe('yes');
  });

  it('when the reader has no tie to the company, then the library is not found', async () => {
    expect(await canRead(await t.newUser())).toBe('WSSmartLibNotFoundException');
    expect(await canRead(t)).toBe('WSInvalidAuthTokenException');
  });

  it('when a library belongs to a team, then its members read it and other connected users do not', async () => {
    const member = await t.newUser();
    const connected = await t.newUser();
    const team = await createTeam(t.orm, NORTHWIND, [member.uId]);
    const library = await createSmartLibrary(t.orm.em.fork(), { companyId: NORTHWIND, teamId: team.teamId, smartLibName: 'Team shelf' });
    await connect(t.orm, connected.uId, NORTHWIND, 'accepted');
    expect(await canRead(member, library.smartLibId)).toBe('yes');
    expect(await canRead(connected, library.smartLibId)).toBe('WSSmartLibNotFoundException');
  });
});

/** A library holding `count` entries, each with two files, a link, two tags, a folder, a filter and a category. */
async function libraryWith(orm: MikroORM, count: number): Promise<number> {
  const em = orm.em.fork();
  const library = await createSmartLibrary(em, { companyId: NORTHWIND, smartLibName: `Bulk ${suffix()}` });
  const id = library.smartLibId;
  const blob = await storeBuffer(em, uniquePdf());
  const tags = (await ensureTerms(em, 'tag', id, ['alpha', 'beta'])).sort((a, b) => a.smartTagName.localeCompare(b.smartTagName));
  const [folder] = await ensureTerms(em, 'folder', id, ['F']);
  const [filter] = await ensureTerms(em, 'filter', id, ['X']);
  const [category] = await ensureTerms(em, 'category', id, ['C']);
  for (let i = 0; i < count; i++) {
    const entry = em.create(SmartEntry, {
      library: em.getReference(SmartLibrary, id),
      smartEntryType: 'PDF',
      smartEntryName: `Entry ${i}`,
      nameKey: nameKey(`Entry ${i}`),
    });
    for (const type of ['OUF', 'THMB'] as const) {
      em.create(SmartFile, {
        entry,
        library: em.getReference(SmartLibrary, id),
        smartFileType: type,
        smartFileName: `${i}.${type}`,
        smartFileBytes: blob.bytes,
        smartFileMd5: blob.md5,
        mimeType: 'application/pdf',
        blob: em.getReference(StoredBlob, blob.sha256),
      });
    }
    em.create(SmartEntryUrl, { entry, smartEntryUrlName: 'Link', smartEntryUrlValue: 'https://x.example', position: 0 });
    tags.forEach((tag, position) => em.create(SmartEntryTag, { entry, tag, position }));
    em.create(SmartEntryFolder, { entry, folder, position: 0 });
    em.create(SmartEntryFilter, { entry, filter, position: 0 });
    em.create(SmartEntryCategory, { entry, category, position: 0 });
  }
  await em.flush();
  return id;
}

describe('batching', () => {
  it('when a page holds 100 entries instead of 1, then the query runs the same number of statements', async () => {
    const admin = await northwindAdmin();
    const one = await libraryWith(t.orm, 1);
    const hundred = await libraryWith(t.orm, 100);
    await admin.gql(LIBRARY_QUERY, { id: one }); // warms the token cache and the sliding expiry
    let small: any;
    let large: any;
    const smallCount = await t.countStatements(async () => (small = await admin.gql(LIBRARY_QUERY, { id: one, first: 100 })));
    const largeCount = await t.countStatements(async () => (large = await admin.gql(LIBRARY_QUERY, { id: hundred, first: 100 })));
    expect(small.body.data.smartLibrary.entries.edges).toHaveLength(1);
    expect(large.body.data.smartLibrary.entries.edges).toHaveLength(100);
    expect(large.body.data.smartLibrary.entries.edges[99].node).toMatchObject({
      smartFiles: [{ smartFileType: 'OUF' }, { smartFileType: 'THMB' }],
      smartEntryTags: [{ smartTagName: 'alpha' }, { smartTagName: 'beta' }],
    });
    expect(largeCount).toBe(smallCount);
  });

  it('when the gateway resolves many entity references, then they are batched and unreadable ones are null', async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) {
      ... on SmartEntry { smartEntryId smartEntryName smartEntryTags { smartTagName } }
      ... on SmartLibrary { smartLibId smartLibName } } }`;
    const mine = await libraryWith(t.orm, 20);
    const em = t.orm.em.fork();
    const ids = (await em.find(SmartEntry, { library: mine })).map((e) => e.smartEntryId);
    await em.getConnection().execute('insert into smart_library_publisher (smart_lib_id, user_id) values (?, ?)', [mine, OLIVIA]);
    const few = { r: [{ __typename: 'SmartEntry', smartEntryId: ids[0] }] };
    const many = {
      r: [
        ...ids.map((smartEntryId) => ({ __typename: 'SmartEntry', smartEntryId })),
        { __typename: 'SmartLibrary', smartLibId: DEMO_LIBRARY },
      ],
    };
    await olivia.gql(query, few);
    const fewCount = await t.countStatements(() => olivia.gql(query, few));
    let res: any;
    const manyCount = await t.countStatements(async () => (res = await olivia.gql(query, many)));
    expect(res.body.data._entities).toHaveLength(21);
    expect(res.body.data._entities[20]).toEqual({ smartLibId: DEMO_LIBRARY, smartLibName: 'Northwind Health library' });
    expect(manyCount).toBeLessThanOrEqual(fewCount + 2);
    const stranger = await t.newUser();
    const hidden = await stranger.gql(query, { r: [{ __typename: 'SmartEntry', smartEntryId: WELCOME_PACK }] });
    expect(hidden.body.data._entities).toEqual([null]);
  });
});

describe('paging', () => {
  it('when a library has 25 entries, then pages of 10 hold 10, 10 and 5, newest first, and first above 100 is refused', async () => {
    const admin = await northwindAdmin();
    const id = await libraryWith(t.orm, 25);
    const PAGE = `query($id: Int!, $after: String) { smartLibrary(smartLibId: $id) {
      entries(first: 10, after: $after) { totalCount edges { node { smartEntryId } } pageInfo { hasNextPage endCursor } } } }`;
    const pages: any[] = [];
    let after: string | null = null;
    do {
      const res: any = await admin.gql(PAGE, { id, after });
      pages.push(res.body.data.smartLibrary.entries);
      after = pages.at(-1).pageInfo.hasNextPage ? pages.at(-1).pageInfo.endCursor : null;
    } while (after && pages.length < 5);
    expect(pages.map((p) => p.edges.length)).toEqual([10, 10, 5]);
    expect(pages.map((p) => p.totalCount)).toEqual([25, 25, 25]);
    const ids = pages.flatMap((p) => p.edges.map((e: any) => e.node.smartEntryId));
    // Created one after another, each with a later or equal instant and a higher id: newest first is the higher id first.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(25);
    const bad = await admin.gql(LIBRARY_QUERY, { id, first: 101 });
    expect(bad.body.errors).toEqual([
      expect.objectContaining({
        message: 'first must be from 1 to 100.',
        extensions: expect.objectContaining({ errorCode: 'WSInvalidParameterException', field: 'first' }),
      }),
    ]);
  });
});

describe('downloads (GET /rest/smartlib/files/{smartFileId}/content)', () => {
  let p: Publisher;
  let reader: Client;
  let files: { ouf: number; thmb: number };
  let pdf: Buffer;
  beforeAll(async () => {
    p = await newPublisher(t);
    reader = await northwindAdmin();
    pdf = Buffer.concat([uniquePdf(), Buffer.alloc(600_000, 0x25)]);
    const tempFilename = await uploadFile(p, pdf, 'locked.pdf');
    const res = await p.rest('POST', '/rest/smartlib/smartentry', {
      body: { smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Locked', smartFileInfo: { tempFilename } },
    });
    files = { ouf: res.body.smartFiles[0].smartFileId, thmb: res.body.smartFiles[1].smartFileId };
  });

  const get = (id: number | string, who: Client) => who.rest('GET', `/rest/smartlib/files/${id}/content`);

  it('when the publisher downloads a multi-chunk original, then every byte comes back with its length, type and ETag', async () => {
    const res = await get(files.ouf, p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(pdf.length));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.bytes.equals(pdf)).toBe(true);
  });

  it("when a file is downloaded, then its row is read once, and its bytes on the same (the request's) EntityManager", async () => {
    const read = jest.spyOn(libraryRead, 'filesForDownload');
    const stream = jest.spyOn(blobStore, 'blobStream');
    try {
      const res = await get(files.ouf, p);
      expect(res.bytes.equals(pdf)).toBe(true);
      expect(read.mock.calls.map(([, ids]) => ids)).toEqual([[files.ouf]]);
      expect(stream).toHaveBeenCalledTimes(1);
      expect(stream.mock.calls[0][0]).toBe(read.mock.calls[0][0]);
    } finally {
      read.mockRestore();
      stream.mockRestore();
    }
  });

  it('when a reader asks for an original whose download is off (N), then 403; the tile is still theirs', async () => {
    const res = await get(files.ouf, reader);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      errorCode: 'WSInsufficientPrivilegesException',
      message: 'Only publishers may download the original of this entry.',
    });
    expect((await get(files.thmb, reader)).status).toBe(200);
  });

  it('when the file is unknown or not readable, then 404; without a token 401; a bad id 400', async () => {
    expect((await get(99_999_999, p)).body).toEqual({
      errorCode: 'WSRecordNotFoundException',
      message: 'The file was not found.',
      field: 'smartFileId',
    });
    expect((await get(files.thmb, await t.newUser())).status).toBe(404);
    expect((await get(files.thmb, t)).status).toBe(401);
    const bad = await get('abc', p);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'smartFileId' });
  });
});

describe('OpenAPI', () => {
  it('documents the upload routes as multipart and the download as binary', async () => {
    const doc = (await t.rest('GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths['/rest/smartlib/upload/file'].post.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(doc.paths['/rest/smartlib/upload/tile'].post.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(doc.paths['/rest/smartlib/files/{smartFileId}/content'].get.responses['200'].content)).toEqual([
      'application/octet-stream',
    ]);
    expect(doc.paths['/rest/smartlib/smartentry/{smartEntryId}/ai-ingestion-failure'].put.responses['404'].description).toContain(
      'SmartEntryNotFoundException',
    );
  });
});
