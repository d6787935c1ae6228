// createSmartEntry (POST /rest/smartlib/smartentry, endpoint 6) and its mutation.
import crypto from 'node:crypto';
import sharp from 'sharp';
import {
  addTerms,
  fingerprint,
  LIBRARY_TABLES,
  md5,
  newPublisher,
  NORTHWIND,
  png,
  uniquePdf,
  uploadFile,
  uploadTile,
  useTestApp,
  type Client,
  type Publisher,
} from '../kit';
import { SmartUpload } from '../kit/src';
import type { HookEvents } from '../../src/core/hooks';
import { SmartEntry } from '../../src/modules/library/library.entity';

const t = useTestApp();
let p: Publisher;
let folders: Record<string, number>;
beforeAll(async () => {
  p = await newPublisher(t);
  const made = await addTerms(t.orm, p.smartLibId, 'folder', ['Getting started', 'Policies']);
  folders = Object.fromEntries(made.map((f: any) => [f.smartFolderName, f.smartFolderId]));
  await addTerms(t.orm, p.smartLibId, 'filter', ['Clinicians', 'New staff']);
  await addTerms(t.orm, p.smartLibId, 'category', ['Guides', 'Forms']);
  await addTerms(t.orm, p.smartLibId, 'tag', ['Existing']);
});

/** smartLibId 0 stands for the test publisher's library (tables are built before it exists). */
const create = (body: any, who: Client = p) =>
  who.rest('POST', '/rest/smartlib/smartentry', { body: body?.smartLibId === 0 ? { ...body, smartLibId: p.smartLibId } : body });
const uploadRow = (tempName: string) => t.findOne(SmartUpload, { tempName });
const libraryCounts = () => t.tableCounts(LIBRARY_TABLES);
const SPEC_ORDER = [
  'smartLibId',
  'smartEntryId',
  'smartEntryStatus',
  'smartEntryType',
  'smartEntryName',
  'smartEntryDesc',
  'smartEntryDownloadOrig',
  'smartEntryDownloadPdf',
  'notifyUserOfExternalUrl',
  'smartEntryCreated',
  'smartEntryModified',
  'smartEntryMetadataVersion',
  'smartEntryFileVersion',
  'smartFiles',
  'smartEntryCategories',
  'smartEntryUrlLink',
  'smartEntryAuthors',
  'smartEntryURLs',
  'smartEntryTags',
  'smartEntryFolders',
  'smartEntryFilters',
];

async function download(smartFileId: number, who: Client = p): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await who.rest('GET', `/rest/smartlib/files/${smartFileId}/content`);
  return { status: res.status, type: res.headers.get('content-type'), bytes: res.bytes };
}

describe('createSmartEntry: URL entries', () => {
  it('when a URL entry is created with links and classification, then the whole entry comes back with an OUF and a THMB file', async () => {
    const tempImageName = await uploadTile(p, await png(1200, 400, '#225588'));
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'URL',
      smartEntryName: 'Clinical guidelines portal',
      smartEntryDesc: 'The national guidelines, always current.',
      smartEntryDownloadOrig: 'N',
      smartEntryDownloadPdf: 'N',
      smartFiles: [],
      smartEntryCategories: [{ smartCategoryName: 'guides' }, { smartCategoryName: 'Unknown category' }],
      smartEntryUrlLink: 'https://guidelines.example/portal',
      smartEntryAuthors: 'Clinical Board',
      sendNotification: false,
      smartEntryURLs: [
        { smartEntryUrlName: 'Search', smartEntryUrlValue: 'https://guidelines.example/search' },
        { smartEntryUrlValue: 'http://guidelines.example/faq' },
      ],
      smartEntryTags: [{ smartTagName: 'Cardiology' }, { smartTagName: 'existing' }, { smartTagName: 'cardiology' }],
      smartEntryFolders: [
        { smartFolderId: folders.Policies },
        { smartFolderName: 'getting started' },
        { smartFolderId: 987654 },
        { smartFolderName: 'Nowhere' },
      ],
      smartEntryFilters: [{ smartFilterName: 'New staff' }, { smartFilterName: 'Not a filter' }],
      smartFileInfo: { tempImageName },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SPEC_ORDER);
    const id = res.body.smartEntryId;
    const [ouf, thmb] = res.body.smartFiles;
    const shortcut = Buffer.from('[InternetShortcut]\r\nURL=https://guidelines.example/portal\r\n');
    expect(res.body).toEqual({
      smartLibId: p.smartLibId,
      smartEntryId: expect.any(Number),
      smartEntryStatus: 'A',
      smartEntryType: 'URL',
      smartEntryName: 'Clinical guidelines portal',
      smartEntryDesc: 'The national guidelines, always current.',
      smartEntryDownloadOrig: 'N',
      smartEntryDownloadPdf: 'N',
      notifyUserOfExternalUrl: null,
      smartEntryCreated: expect.any(Number),
      smartEntryModified: res.body.smartEntryCreated,
      smartEntryMetadataVersion: 1,
      smartEntryFileVersion: 1,
      smartFiles: [
        {
          smartEntryId: id,
          smartFileId: expect.any(Number),
          smartFileType: 'OUF',
          smartFileName: 'Clinical guidelines portal.url',
          smartFileBytes: shortcut.length,
          smartFileMd5: md5(shortcut),
          smartFileCreated: res.body.smartEntryCreated,
          smartFileModified: res.body.smartEntryCreated,
        },
        {
          smartEntryId: id,
          smartFileId: expect.any(Number),
          smartFileType: 'THMB',
          smartFileName: 'Clinical guidelines portal-tile.jpg',
          smartFileBytes: expect.any(Number),
          smartFileMd5: expect.stringMatching(/^[0-9a-f]{32}$/),
          smartFileCreated: res.body.smartEntryCreated,
          smartFileModified: res.body.smartEntryCreated,
        },
      ],
      smartEntryCategories: [{ smartCategoryId: expect.any(Number), smartCategoryName: 'Guides' }],
      smartEntryUrlLink: 'https://guidelines.example/portal',
      smartEntryAuthors: 'Clinical Board',
      smartEntryURLs: [
        { smartEntryUrlId: expect.any(Number), smartEntryUrlName: 'Search', smartEntryUrlValue: 'https://guidelines.example/search' },
        { smartEntryUrlId: expect.any(Number), smartEntryUrlName: null, smartEntryUrlValue: 'http://guidelines.example/faq' },
      ],
      smartEntryTags: [
        { smartTagId: expect.any(Number), smartTagName: 'Cardiology' },
        { smartTagId: expect.any(Number), smartTagName: 'Existing' },
      ],
      smartEntryFolders: [
        { smartFolderId: folders.Policies, smartFolderName: 'Policies' },
        { smartFolderId: folders['Getting started'], smartFolderName: 'Getting started' },
      ],
      smartEntryFilters: [{ smartFilterId: expect.any(Number), smartFilterName: 'New staff' }],
    });
    expect(Math.abs(res.body.smartEntryCreated - Date.now())).toBeLessThan(60_000);
    const original = await download(ouf.smartFileId);
    expect(original).toMatchObject({ status: 200, type: 'application/internet-shortcut' });
    expect(original.bytes.equals(shortcut)).toBe(true);
    const tile = await download(thmb.smartFileId);
    expect(tile.type).toBe('image/jpeg');
    expect(await sharp(tile.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 133 });
    expect(md5(tile.bytes)).toBe(thmb.smartFileMd5);
    expect(await uploadRow(tempImageName)).toBeNull();
  });

  it('when a URL entry has no tile image, then its THMB is a plain tile of its type', async () => {
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'url',
      smartEntryName: 'Plain link',
      smartEntryUrlLink: 'https://plain.example',
    });
    expect(res.status).toBe(200);
    expect(res.body.smartEntryType).toBe('URL');
    expect(res.body.smartFiles.map((f: any) => f.smartFileType)).toEqual(['OUF', 'THMB']);
    const tile = await download(res.body.smartFiles[1].smartFileId);
    expect(await sharp(tile.bytes).metadata()).toMatchObject({ width: 400, height: 400 });
    expect(res.body).toMatchObject({
      smartEntryDesc: null,
      smartEntryAuthors: null,
      smartEntryURLs: [],
      smartEntryTags: [],
      smartEntryFolders: [],
      smartEntryFilters: [],
      smartEntryCategories: [],
    });
  });

  it('when the body echoes response-only fields, then they are ignored', async () => {
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryId: 1,
      smartEntryStatus: 'X',
      smartEntryType: 'URL',
      smartEntryName: 'Echoed',
      smartEntryUrlLink: 'https://echo.example',
      smartEntryTags: [{ smartTagId: 5, smartTagName: 'echo' }],
      smartEntryCreated: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ smartEntryStatus: 'A', smartEntryTags: [{ smartTagName: 'echo' }] });
    expect(res.body.smartEntryId).not.toBe(1);
  });
});

describe('createSmartEntry: file entries', () => {
  it('when a PDF entry is created with a tile image, then its OUF is the upload and its THMB is made from the tile; the uploads are used up', async () => {
    const pdf = uniquePdf();
    const tempFilename = await uploadFile(p, pdf, 'Handbook 2026.pdf');
    const tempImageName = await uploadTile(p, await png(500, 1000, '#115511'));
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'PDF',
      smartEntryName: 'Staff handbook',
      smartEntryDownloadOrig: 'y',
      smartFileInfo: { tempFilename, tempImageName, originalFilename: 'handbook.pdf' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      smartEntryType: 'PDF',
      notifyUserOfExternalUrl: 'N',
      smartEntryUrlLink: null,
      smartEntryDownloadOrig: 'Y',
      smartEntryDownloadPdf: 'N',
    });
    const [ouf, thmb] = res.body.smartFiles;
    expect(ouf).toMatchObject({ smartFileType: 'OUF', smartFileName: 'handbook.pdf', smartFileBytes: pdf.length, smartFileMd5: md5(pdf) });
    expect((await download(ouf.smartFileId)).bytes.equals(pdf)).toBe(true);
    expect(await sharp((await download(thmb.smartFileId)).bytes).metadata()).toMatchObject({ width: 200, height: 400 });
    const reused = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'PDF',
      smartEntryName: 'Again',
      smartFileInfo: { tempFilename },
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'tempFilename' });
  });

  it('when an IMG entry has no tile image, then its THMB is made from the image itself', async () => {
    const image = await png(1600, 800, '#994411');
    const tempFilename = await uploadFile(p, image, 'ward.png');
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'IMG',
      smartEntryName: 'Ward map',
      smartFileInfo: { tempFilename },
    });
    expect(res.status).toBe(200);
    expect(res.body.smartFiles[0]).toMatchObject({ smartFileName: 'ward.png', smartFileBytes: image.length });
    expect(await sharp((await download(res.body.smartFiles[1].smartFileId)).bytes).metadata()).toMatchObject({
      format: 'jpeg',
      width: 400,
      height: 200,
    });
  });

  it("when no originalFilename is given, then the uploaded file's name is kept", async () => {
    const tempFilename = await uploadFile(p, uniquePdf(), 'roster.pdf');
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'PDF',
      smartEntryName: 'Roster',
      smartFileInfo: { tempFilename },
    });
    expect(res.body.smartFiles[0].smartFileName).toBe('roster.pdf');
  });

  it('when two entries name the same new tag at once, then both succeed and the tag exists once', async () => {
    const tag = `Concurrent ${crypto.randomBytes(3).toString('hex')}`;
    const [a, b] = await Promise.all(
      ['One', 'Two'].map((n) =>
        create({
          smartLibId: p.smartLibId,
          smartEntryType: 'URL',
          smartEntryName: `${tag} ${n}`,
          smartEntryUrlLink: 'https://x.example',
          smartEntryTags: [{ smartTagName: tag }],
        }),
      ),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.smartEntryTags[0].smartTagId).toBe(b.body.smartEntryTags[0].smartTagId);
  });
});

describe('createSmartEntry: sendNotification', () => {
  let events: HookEvents['smartEntryPublished'][];
  let off: () => void;
  beforeEach(() => {
    events = [];
    off = t.app.services.hooks.add('smartEntryPublished', async (e) => {
      // The notifier runs inside the create transaction: the new entry is visible to it.
      expect(await e.em.count(SmartEntry, { smartEntryId: e.entry.smartEntryId })).toBe(1);
      events.push(e);
    });
  });
  afterEach(() => off());

  it("when sendNotification is true, then the library's notifier is called with the library and the entry", async () => {
    const res = await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'URL',
      smartEntryName: 'Announced',
      smartEntryDesc: 'News',
      smartEntryUrlLink: 'https://news.example',
      sendNotification: true,
    });
    expect(res.status).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      library: { smartLibId: p.smartLibId, companyId: NORTHWIND, teamId: null, smartLibName: expect.any(String) },
      entry: { smartEntryId: res.body.smartEntryId, smartEntryName: 'Announced', smartEntryType: 'URL', smartEntryDesc: 'News' },
      publishedBy: p.uId,
    });
  });

  it('when sendNotification is false or omitted, then no notification is sent', async () => {
    await create({
      smartLibId: p.smartLibId,
      smartEntryType: 'URL',
      smartEntryName: 'Quiet one',
      smartEntryUrlLink: 'https://q.example',
      sendNotification: false,
    });
    await create({ smartLibId: p.smartLibId, smartEntryType: 'URL', smartEntryName: 'Quiet two', smartEntryUrlLink: 'https://q.example' });
    expect(events).toEqual([]);
  });

  it('when the notification fails, then the whole create is rolled back: no entry, file, tag or used-up upload', async () => {
    const failing = t.app.services.hooks.add('smartEntryPublished', async () => {
      throw new Error('notification store down');
    });
    try {
      const tempFilename = await uploadFile(p, uniquePdf());
      const before = await fingerprint(t.orm);
      const res = await create({
        smartLibId: p.smartLibId,
        smartEntryType: 'PDF',
        smartEntryName: 'Never stored',
        sendNotification: true,
        smartEntryTags: [{ smartTagName: `brand new ${crypto.randomBytes(3).toString('hex')}` }],
        smartFileInfo: { tempFilename },
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ errorCode: 'WSInternalException', message: 'An internal error occurred.' });
      expect(await fingerprint(t.orm)).toEqual(before);
      expect(await uploadRow(tempFilename)).not.toBeNull();
    } finally {
      failing();
    }
  });
});

describe('createSmartEntry: every error of endpoint 6 leaves nothing stored', () => {
  let other: Publisher;
  let outsider: Client;
  beforeAll(async () => {
    other = await newPublisher(t);
    outsider = await t.newUser();
  });

  const url = (name: string, extra: Record<string, unknown> = {}) => ({
    smartLibId: 0,
    smartEntryType: 'URL',
    smartEntryName: name,
    smartEntryUrlLink: 'https://a.example',
    ...extra,
  });

  async function rejected(body: unknown, status: number, error: Record<string, unknown>, who: Client = p) {
    const before = await fingerprint(t.orm);
    const counts = await libraryCounts();
    const res = await create(body, who);
    expect({ status: res.status, body: res.body }).toEqual({ status, body: error });
    expect(await libraryCounts()).toEqual(counts);
    expect(await fingerprint(t.orm)).toEqual(before);
  }

  it('WSInvalidAuthTokenException: no token', () =>
    rejected(url('No token'), 401, { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' }, t));

  it.each([
    ['the name is missing', url(''), 'smartEntryName', 'smartEntryName is required.'],
    ['the type is missing', { ...url('No type'), smartEntryType: null }, 'smartEntryType', 'smartEntryType is required.'],
    [
      'the link is not http(s)',
      url('FTP', { smartEntryUrlLink: 'ftp://files.example/x' }),
      'smartEntryUrlLink',
      'smartEntryUrlLink must be an http or https URL.',
    ],
    [
      'the link is not a URL',
      url('Words', { smartEntryUrlLink: 'not a url' }),
      'smartEntryUrlLink',
      'smartEntryUrlLink must be an http or https URL.',
    ],
    ['a URL entry has no link', url('No link', { smartEntryUrlLink: null }), 'smartEntryUrlLink', 'smartEntryUrlLink is required.'],
    [
      'a URL entry carries a file',
      url('With file', { smartFileInfo: { tempFilename: 'x.pdf' } }),
      'tempFilename',
      'A URL entry may carry only tempImageName in smartFileInfo.',
    ],
    [
      'a file entry has no upload',
      { smartLibId: 0, smartEntryType: 'PDF', smartEntryName: 'No upload' },
      'tempFilename',
      'A PDF entry needs smartFileInfo.tempFilename from uploadSmartFile.',
    ],
    [
      'a file entry has a link',
      {
        smartLibId: 0,
        smartEntryType: 'PDF',
        smartEntryName: 'Link',
        smartEntryUrlLink: 'https://x.example',
        smartFileInfo: { tempFilename: 'x' },
      },
      'smartEntryUrlLink',
      'smartEntryUrlLink is only for URL entries.',
    ],
    [
      'the upload is unknown',
      { smartLibId: 0, smartEntryType: 'PDF', smartEntryName: 'Ghost', smartFileInfo: { tempFilename: 'nope.pdf' } },
      'tempFilename',
      'tempFilename names no upload of yours (uploads expire after 24 hours and are used once).',
    ],
    [
      'downloadOrig is not Y or N',
      url('Flag', { smartEntryDownloadOrig: 'maybe' }),
      'smartEntryDownloadOrig',
      'smartEntryDownloadOrig must be Y or N.',
    ],
    [
      'smartFiles is not empty',
      url('Files', { smartFiles: [{ smartFileId: 1 }] }),
      'smartFiles',
      'Files are attached through smartFileInfo; smartFiles must be empty.',
    ],
    [
      'a folder has neither id nor name',
      url('Folder', { smartEntryFolders: [{}] }),
      'smartFolderName',
      'Give smartFolderId or smartFolderName.',
    ],
    [
      'a link value is missing',
      url('Links', { smartEntryURLs: [{ smartEntryUrlName: 'x' }] }),
      'smartEntryUrlValue',
      'smartEntryUrlValue is required.',
    ],
  ])('WSInvalidParameterException: when %s', async (_when, body: any, field, message) => {
    await rejected(body, 400, { errorCode: 'WSInvalidParameterException', message, field });
  });

  it('WSInvalidParameterException: when smartLibId is not a number (GraphQL coercion names the field)', async () => {
    const before = await fingerprint(t.orm);
    const res = await create(url('Text id', { smartLibId: 'abc' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'smartLibId' });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('WSInvalidParameterException: when the upload belongs to another user', async () => {
    const theirs = await uploadFile(other, uniquePdf());
    await rejected(
      { smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Borrowed', smartFileInfo: { tempFilename: theirs } },
      400,
      {
        errorCode: 'WSInvalidParameterException',
        message: 'tempFilename names no upload of yours (uploads expire after 24 hours and are used once).',
        field: 'tempFilename',
      },
    );
  });

  it.each([
    ['smartEntryName', url('n'.repeat(256)), 255],
    ['smartEntryDesc', url('Desc', { smartEntryDesc: 'd'.repeat(2001) }), 2000],
    ['smartEntryAuthors', url('Authors', { smartEntryAuthors: 'a'.repeat(501) }), 500],
    ['smartTagName', url('Tag', { smartEntryTags: [{ smartTagName: 't'.repeat(101) }] }), 100],
    [
      'smartEntryUrlName',
      url('Link name', { smartEntryURLs: [{ smartEntryUrlName: 'u'.repeat(256), smartEntryUrlValue: 'https://x.example' }] }),
      255,
    ],
    [
      'originalFilename',
      {
        smartLibId: 0,
        smartEntryType: 'PDF',
        smartEntryName: 'Long file',
        smartFileInfo: { tempFilename: 'x', originalFilename: `${'f'.repeat(252)}.pdf` },
      },
      255,
    ],
  ])('WSFieldLengthException: when %s is too long', async (field, body: any, max) => {
    await rejected(body, 400, { errorCode: 'WSFieldLengthException', message: `${field} must be at most ${max} characters.`, field });
  });

  it('WSFieldLengthException counts characters, not bytes: 255 emoji fit', async () => {
    const res = await create(url('😀'.repeat(255)));
    expect(res.status).toBe(200);
    expect(res.body.smartEntryName).toBe('😀'.repeat(255));
  });

  it('WSFieldLengthException counts characters, not UTF-16 units: 256 emoji are one too many', () =>
    rejected(url('😁'.repeat(256)), 400, {
      errorCode: 'WSFieldLengthException',
      message: 'smartEntryName must be at most 255 characters.',
      field: 'smartEntryName',
    }));

  it('WSFieldLengthException measures the name as stored: surrounding spaces are trimmed first', async () => {
    const res = await create(url(`  ${'s'.repeat(255)}  `));
    expect(res.status).toBe(200);
    expect(res.body.smartEntryName).toBe('s'.repeat(255));
  });

  it('WSSmartLibNotFoundException: when the library does not exist', () =>
    rejected(url('Nowhere', { smartLibId: 99_999_999 }), 404, {
      errorCode: 'WSSmartLibNotFoundException',
      message: 'The smart library was not found.',
      field: 'smartLibId',
    }));

  it('WSInsufficientPrivilegesException: when the caller publishes to another library only', () =>
    rejected(
      url('Not mine'),
      403,
      { errorCode: 'WSInsufficientPrivilegesException', message: 'The caller is not a publisher of this library.' },
      other,
    ));

  it('WSInsufficientPrivilegesException: when the caller publishes nowhere', () =>
    rejected(
      url('Outsider'),
      403,
      { errorCode: 'WSInsufficientPrivilegesException', message: 'The caller is not a publisher of this library.' },
      outsider,
    ));

  it('WSUnsupportedTypeException: when the entry type is unknown', () =>
    rejected(url('Exe', { smartEntryType: 'EXE' }), 400, {
      errorCode: 'WSUnsupportedTypeException',
      message: 'smartEntryType must be one of URL, IMG, PDF, DOC, VID, AUD.',
      field: 'smartEntryType',
    }));

  it("WSUnsupportedTypeException: when the upload's content does not fit the entry type", async () => {
    const tempFilename = await uploadFile(p, await png(20, 20, '#010203'), 'scan.png');
    await rejected({ smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Not a PDF', smartFileInfo: { tempFilename } }, 400, {
      errorCode: 'WSUnsupportedTypeException',
      message: 'A PDF entry cannot hold image/png content.',
      field: 'smartEntryType',
    });
  });

  it('WSDuplicateSmartEntryException: when the library already has the name, in any case and spacing', async () => {
    expect((await create(url('Quarterly  Review'))).status).toBe(200);
    await rejected(url(' quarterly review '), 409, {
      errorCode: 'WSDuplicateSmartEntryException',
      message: 'The library already holds an entry with this name.',
      field: 'smartEntryName',
    });
    // Another library may use the name.
    expect((await create({ ...url('Quarterly Review'), smartLibId: other.smartLibId }, other)).status).toBe(200);
  });

  it('WSDuplicateSmartFileException: when the library already holds the same file content', async () => {
    const pdf = uniquePdf();
    const first = await uploadFile(p, pdf, 'policy.pdf');
    expect(
      (await create({ smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Policy', smartFileInfo: { tempFilename: first } }))
        .status,
    ).toBe(200);
    const second = await uploadFile(p, pdf, 'policy-copy.pdf');
    await rejected(
      { smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Policy copy', smartFileInfo: { tempFilename: second } },
      409,
      {
        errorCode: 'WSDuplicateSmartFileException',
        message: 'The library already holds an entry with this file.',
        field: 'tempFilename',
      },
    );
    expect(await uploadRow(second)).not.toBeNull();
  });

  it.each([
    ['smartEntryTags', { smartEntryTags: Array.from({ length: 21 }, (_, i) => ({ smartTagName: `t${i}` })) }, 20],
    ['smartEntryURLs', { smartEntryURLs: Array.from({ length: 11 }, () => ({ smartEntryUrlValue: 'https://x.example' })) }, 10],
    ['smartEntryFolders', { smartEntryFolders: Array.from({ length: 21 }, (_, i) => ({ smartFolderId: i + 1 })) }, 20],
    ['smartEntryFilters', { smartEntryFilters: Array.from({ length: 21 }, (_, i) => ({ smartFilterName: `f${i}` })) }, 20],
    ['smartEntryCategories', { smartEntryCategories: Array.from({ length: 21 }, (_, i) => ({ smartCategoryName: `c${i}` })) }, 20],
  ])('WSLimitExceededException: when %s has too many items', (field, extra, max) =>
    rejected(url(`Many ${field}`, extra), 400, {
      errorCode: 'WSLimitExceededException',
      message: `${field} holds at most ${max} items.`,
      field,
    }),
  );

  it('WSLimitExceededException: when the library is full', async () => {
    const full = await newPublisher(t, { maxEntries: 1 });
    expect((await create({ ...url('Only one'), smartLibId: full.smartLibId }, full)).status).toBe(200);
    await rejected(
      { ...url('One too many'), smartLibId: full.smartLibId },
      400,
      {
        errorCode: 'WSLimitExceededException',
        message: 'The library already holds its maximum of 1 entries.',
        field: 'smartLibId',
      },
      full,
    );
  });
});

describe('createSmartEntry through GraphQL', () => {
  const MUTATION = `mutation($input: CreateSmartEntryInput!) { createSmartEntry(input: $input) {
    smartEntryId smartLibId smartEntryName smartEntryType aiIngestionFailures aiIngestionError
    smartFiles { smartFileType mimeType downloadUrl } smartEntryTags { smartTagName } } }`;

  it('when the mutation is called, then it creates the entry as REST does', async () => {
    const res = await p.gql(MUTATION, {
      input: {
        smartLibId: p.smartLibId,
        smartEntryType: 'URL',
        smartEntryName: 'From GraphQL',
        smartEntryUrlLink: 'https://gql.example',
        smartEntryTags: [{ smartTagName: 'gql' }],
      },
    });
    expect(res.body.errors).toBeUndefined();
    const entry = res.body.data.createSmartEntry;
    expect(entry).toMatchObject({
      smartLibId: p.smartLibId,
      smartEntryName: 'From GraphQL',
      smartEntryType: 'URL',
      aiIngestionFailures: 0,
      aiIngestionError: null,
      smartEntryTags: [{ smartTagName: 'gql' }],
    });
    expect(entry.smartFiles).toEqual([
      {
        smartFileType: 'OUF',
        mimeType: 'application/internet-shortcut',
        downloadUrl: expect.stringMatching(/^http:\/\/localhost:4000\/rest\/smartlib\/files\/\d+\/content$/),
      },
      { smartFileType: 'THMB', mimeType: 'image/jpeg', downloadUrl: expect.any(String) },
    ]);
  });

  it('when a field breaks its own rule, then the error names it before anything else is checked', async () => {
    const res = await p.gql(MUTATION, { input: { smartLibId: p.smartLibId, smartEntryType: 'EXE', smartEntryName: 'Unsupported' } });
    expect(res.body).toEqual({
      data: null,
      errors: [
        expect.objectContaining({
          message: 'smartEntryType must be one of URL, IMG, PDF, DOC, VID, AUD.',
          extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSUnsupportedTypeException', field: 'smartEntryType' },
        }),
      ],
    });
  });

  it('when the mutation fails, then the error carries the identifier and the field', async () => {
    const res = await p.gql(MUTATION, {
      input: { smartLibId: p.smartLibId, smartEntryType: 'URL', smartEntryName: 'x'.repeat(300), smartEntryUrlLink: 'https://gql.example' },
    });
    expect(res.body.errors![0]).toMatchObject({
      message: 'smartEntryName must be at most 255 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'smartEntryName' },
    });
  });
});
