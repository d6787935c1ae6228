// createSupportGroup's multipart form with its parts in any order (docs/api/README.md, Legacy
// compatibility): text parts after the files, interleaved asset by asset, every file before
// every text part. The operation runs once the form is complete; file parts are stored as they
// arrive (a 25 MB version file among them); what the operation does not take, or everything
// when the form breaks off, is removed: no rows, no blobs, no chunks.
import net from 'node:net';
import {
  CARA,
  DEMO,
  fingerprint,
  htmlPage,
  md5,
  NORTHWIND,
  onePagePdf,
  png,
  sha256,
  suffix,
  SUPPORT_GROUP_PATH,
  SUPPORT_GROUP_TABLES,
  uniquePdf,
  useTestApp,
  withTeamLibraryAndDirectory,
  type FormEntries,
} from '../kit';
import { readBlob } from '../../src/modules/storage/blob-store';

const MB = 1024 * 1024;

const t = useTestApp();
/** Cara (administrator of Northwind) with Northwind's active API key. */
const admin = t.as(CARA).with({ 'x-service-company-api-key': DEMO.companyApiKey });
const counts = () => t.tableCounts(SUPPORT_GROUP_TABLES);
/** A version file of exactly UPLOAD_MAX_BYTES (its default, 25 MiB): a PDF padded with blanks. */
let big: Buffer;
beforeAll(async () => {
  expect(t.config.uploadMaxBytes).toBe(25 * MB);
  const head = onePagePdf('Large version');
  big = Buffer.concat([head, Buffer.alloc(25 * MB - head.length, 0x20)]);
});

type Part = FormEntries[number];

interface Group {
  prefix: string;
  /** The group's own text parts (everything but the assets'). */
  groupText: Part[];
  /** Text parts of asset n (1..3). */
  assetText: Record<number, Part[]>;
  teamImage: Part;
  /** File parts of asset n (1..3). */
  assetFiles: Record<number, Part[]>;
  files: { team: Buffer; image1: Buffer; image2: Buffer; version1: Buffer; version2: Buffer; version3: Buffer };
}

/** Three assets: an html guide (image, HTML page), a library (image, the 25 MB PDF), a directory (a PDF, no image). */
async function group(tag: string): Promise<Group> {
  const prefix = `ORD${suffix()}`.slice(0, 50);
  const files = {
    team: await png(90, 60),
    image1: await png(41, 40),
    image2: await png(42, 40),
    version1: htmlPage(),
    version2: big,
    version3: uniquePdf(),
  };
  return {
    prefix,
    files,
    groupText: [
      ['companyId', String(NORTHWIND)],
      ['supportGroupPrefix', prefix],
      ['supportGroupName', 'Parts In Any Order'],
      ['countryCode', 'au'],
      ['teamAdminUserEmails', 'olivia@demo.example'],
      ['directoryType', 'UNRESTRICTED'],
      ['directoryOrder', 'FL'],
      ['directoryFieldIds', '3,9'],
      ['autoPopulateFromProfile', 'true'],
      ['directoryConsents', JSON.stringify([{ consentType: 'DS', name: 'Listing', desc: 'List me in the directory.', required: true }])],
    ],
    assetText: {
      1: [
        ['assetName1', 'Guide'],
        ['assetType1', 'html'],
        ['assetDescription1', 'How to join\nsecond line'],
        ['assetInternalId1', `${tag}-guide`],
      ],
      2: [
        ['assetName2', 'Library'],
        ['assetType2', 'smartlib'],
        ['assetInternalId2', `${tag}-library`],
      ],
      3: [
        ['assetName3', 'Members'],
        ['assetType3', 'smartdir'],
        ['assetDescription3', 'Who is who'],
      ],
    },
    teamImage: ['teamImageFile', { content: files.team, filename: 'team.png' }],
    assetFiles: {
      1: [
        ['assetImageFile1', { content: files.image1, filename: 'guide.png' }],
        ['assetVersionFile1', { content: files.version1, filename: 'guide.html' }],
      ],
      2: [
        ['assetImageFile2', { content: files.image2, filename: 'library.png' }],
        ['assetVersionFile2', { content: files.version2, filename: 'C:\\docs\\large.pdf' }],
      ],
      3: [['assetVersionFile3', { content: files.version3, filename: 'members.pdf' }]],
    },
  };
}

const ORDERS: Record<string, (g: Group) => Part[]> = {
  // The group's fields first (as the legacy clients send them), then the files, then every asset's text.
  'text parts after the files': (g) => [
    ...g.groupText,
    g.teamImage,
    ...g.assetFiles[1],
    ...g.assetFiles[2],
    ...g.assetFiles[3],
    ...g.assetText[1],
    ...g.assetText[2],
    ...g.assetText[3],
  ],
  // Asset by asset, each one's files between its text parts (assetName1, assetImageFile1, assetType1, ..., assetName2, ...).
  'parts interleaved asset by asset': (g) => [
    ...g.groupText.slice(0, 5),
    ...[1, 2, 3].flatMap((n) => {
      const [name, ...restText] = g.assetText[n];
      const [firstFile, ...restFiles] = g.assetFiles[n];
      return [name, firstFile, ...restText, ...restFiles];
    }),
    g.teamImage,
    ...g.groupText.slice(5),
  ],
  // Every file part before every text part (companyId comes last but one).
  'every file before every text part': (g) => [
    g.teamImage,
    ...g.assetFiles[3],
    ...g.assetFiles[2],
    ...g.assetFiles[1],
    ...g.assetText[3],
    ...g.assetText[2],
    ...g.assetText[1],
    ...[...g.groupText].reverse(),
  ],
};

const orphanChunks = async () =>
  (
    await t.sql(
      'select count(*)::int as n from stored_blob_chunk c where not exists (select 1 from stored_blob b where b.content_id = c.content_id)',
    )
  )[0].n;

describe("createSupportGroup with the form's parts in any order", () => {
  let first = true;

  it.each(Object.keys(ORDERS))(
    'when the form is sent with %s (a 25 MB version file among them), then the same records are created',
    async (order) => {
      const tag = order.split(' ')[0] + suffix();
      const g = await group(tag);
      const before = await counts();
      const res = await admin.multipart(SUPPORT_GROUP_PATH, ORDERS[order](g));
      const name = `${g.prefix}-AU Parts In Any Order`;
      expect([res.status, res.body]).toEqual([
        200,
        {
          companyId: NORTHWIND,
          productId: expect.any(Number),
          productName: name,
          teamId: expect.any(Number),
          teamName: name,
          qrCodeId: expect.any(Number),
          qrCodeName: `${name} QR Code`,
          teamAdminUserEmails: ['olivia@demo.example'],
          supportGroupAssetsCreated: [
            { assetId: expect.any(Number), assetName: 'Guide', assetType: 'html' },
            { assetId: expect.any(Number), assetName: 'Library', assetType: 'smartlib' },
            { assetId: expect.any(Number), assetName: 'Members', assetType: 'smartdir' },
          ],
        },
      ]);
      const created = await withTeamLibraryAndDirectory(t, res.body);

      expect(
        await t.sql('select country_code, support_group_prefix, smart_lib_id, directory_uuid from product where product_id = ?', [
          created.productId,
        ]),
      ).toEqual([
        { country_code: 'AU', support_group_prefix: g.prefix, smart_lib_id: created.smartLibId, directory_uuid: created.directoryUUID },
      ]);
      expect(
        await t.sql('select auto_populate_from_profile from smart_directory where directory_uuid = ?', [created.directoryUUID]),
      ).toEqual([{ auto_populate_from_profile: true }]);
      expect(
        await t.sql('select image_sha256, file_name, mime_type, bytes, md5 from team_image where team_id = ?', [created.teamId]),
      ).toEqual([
        {
          image_sha256: sha256(g.files.team),
          file_name: 'team.png',
          mime_type: 'image/png',
          bytes: g.files.team.length,
          md5: md5(g.files.team),
        },
      ]);
      const assets = await t.sql(
        `
      select a.asset_id, a.asset_number, a.asset_name, a.asset_type, a.asset_description, a.asset_internal_id, a.image_sha256, a.image_file_name,
             a.smart_lib_id, a.directory_uuid, v.version_number, v.file_sha256, v.file_name, v.mime_type, v.bytes, v.md5
      from product_asset a join product_asset_version v on v.asset_id = a.asset_id where a.product_id = ? order by a.asset_number`,
        [created.productId],
      );
      expect(assets).toEqual([
        {
          asset_id: created.supportGroupAssetsCreated[0].assetId,
          asset_number: 1,
          asset_name: 'Guide',
          asset_type: 'html',
          asset_description: 'How to join\nsecond line',
          asset_internal_id: `${tag}-guide`,
          image_sha256: sha256(g.files.image1),
          image_file_name: 'guide.png',
          smart_lib_id: null,
          directory_uuid: null,
          version_number: 1,
          file_sha256: sha256(g.files.version1),
          file_name: 'guide.html',
          mime_type: 'text/html',
          bytes: g.files.version1.length,
          md5: md5(g.files.version1),
        },
        {
          asset_id: created.supportGroupAssetsCreated[1].assetId,
          asset_number: 2,
          asset_name: 'Library',
          asset_type: 'smartlib',
          asset_description: null,
          asset_internal_id: `${tag}-library`,
          image_sha256: sha256(g.files.image2),
          image_file_name: 'library.png',
          smart_lib_id: created.smartLibId,
          directory_uuid: null,
          version_number: 1,
          file_sha256: sha256(big),
          file_name: 'large.pdf',
          mime_type: 'application/pdf',
          bytes: 25 * MB,
          md5: md5(big),
        },
        {
          asset_id: created.supportGroupAssetsCreated[2].assetId,
          asset_number: 3,
          asset_name: 'Members',
          asset_type: 'smartdir',
          asset_description: 'Who is who',
          asset_internal_id: null,
          image_sha256: null,
          image_file_name: null,
          smart_lib_id: null,
          directory_uuid: created.directoryUUID,
          version_number: 1,
          file_sha256: sha256(g.files.version3),
          file_name: 'members.pdf',
          mime_type: 'application/pdf',
          bytes: g.files.version3.length,
          md5: md5(g.files.version3),
        },
      ]);

      const after = await counts();
      const delta = Object.fromEntries(
        [
          'product',
          'product_asset',
          'product_asset_version',
          'qr_code',
          'team_image',
          'team',
          'smart_library',
          'smart_directory',
          'stored_blob',
          'stored_blob_chunk',
        ].map((k) => [k, after[k] - before[k]]),
      );
      // The QR code, the team image, two images and two small version files are new content each
      // time (one chunk each); the 25 MB file is stored once, in 25 chunks of 1 MiB, and later
      // forms that carry it again link the stored blob (their own copy is removed).
      expect(delta).toEqual({
        product: 1,
        product_asset: 3,
        product_asset_version: 3,
        qr_code: 1,
        team_image: 1,
        team: 1,
        smart_library: 1,
        smart_directory: 1,
        stored_blob: first ? 7 : 6,
        stored_blob_chunk: first ? 6 + 25 : 6,
      });
      first = false;
      expect(await orphanChunks()).toBe(0);
      expect(
        await t.sql(
          'select count(*)::int as n from stored_blob_chunk c join stored_blob b on b.content_id = c.content_id where b.sha256 = ?',
          [sha256(big)],
        ),
      ).toEqual([{ n: 25 }]);
      expect(sha256(await readBlob(t.orm.em.fork(), sha256(big)))).toBe(sha256(big));
      expect((await readBlob(t.orm.em.fork(), sha256(g.files.version1))).equals(g.files.version1)).toBe(true);
    },
    120_000,
  );

  it('when a text part after the files is refused, then nothing is stored: no rows, no blobs, no chunks', async () => {
    const g = await group('refused');
    const parts = ORDERS['every file before every text part'](g).map(([name, value]): Part => [
      name,
      name === 'teamAdminUserEmails' ? 'nobody@demo.example' : value,
    ]);
    const before = await fingerprint(t.orm);
    const res = await admin.multipart(SUPPORT_GROUP_PATH, parts);
    expect([res.status, res.body]).toEqual([
      400,
      {
        errorCode: 'WSInvalidParameterException',
        message: 'nobody@demo.example is not a user with an accepted connection to the company.',
        field: 'teamAdminUserEmails',
      },
    ]);
    expect(await fingerprint(t.orm)).toEqual(before);
  }, 120_000);

  it('when a file part after the text is refused (its type), then nothing is stored, the files stored before it included', async () => {
    const g = await group('late');
    const parts = ORDERS['parts interleaved asset by asset'](g).map(([name, value]): Part => [
      name,
      name === 'assetVersionFile3' ? { content: Buffer.from('no magic bytes'), filename: 'x.pdf' } : value,
    ]);
    const before = await fingerprint(t.orm);
    const res = await admin.multipart(SUPPORT_GROUP_PATH, parts);
    expect([res.status, res.body]).toEqual([
      400,
      {
        errorCode: 'WSUnsupportedTypeException',
        message: `assetVersionFile3 is not one of the accepted types (${t.config.uploadAllowedTypes.join(', ')}).`,
        field: 'assetVersionFile3',
      },
    ]);
    expect(await fingerprint(t.orm)).toEqual(before);
  }, 120_000);
});

describe('createSupportGroup when the connection is cut mid-form', () => {
  it('when it breaks off inside a large file part sent before the text, then what was stored of the form is removed: no rows, no blobs, no chunks', async () => {
    const headers = await admin.headers();
    const before = await fingerprint(t.orm);
    const chunksBefore = (await counts()).stored_blob_chunk;
    const boundary = 'xCUTMIDFORMx';
    const image = await png(32, 32);
    const filePart = (name: string, filename: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
    // The team image whole, then 3 MiB of a version file; the text parts were to follow.
    const head = Buffer.concat([
      filePart('teamImageFile', 'team.png'),
      image,
      Buffer.from('\r\n'),
      filePart('assetVersionFile1', 'big.pdf'),
      big.subarray(0, 3 * MB),
    ]);
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /rest/company/support-group HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${head.length + 30 * MB}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(head);
    // The parts are stored as they arrive: the team image and the first MiB chunks of the version file.
    let stored = 0;
    for (let i = 0; i < 100 && stored < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      stored = (await counts()).stored_blob_chunk - chunksBefore;
    }
    expect(stored).toBeGreaterThanOrEqual(3);
    socket.destroy();
    // The service notices the cut and removes what it stored.
    let now = await fingerprint(t.orm);
    for (let i = 0; i < 100 && JSON.stringify(now) !== JSON.stringify(before); i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = await fingerprint(t.orm);
    }
    expect(now).toEqual(before);
    expect(await orphanChunks()).toBe(0);
    // The service still answers.
    expect((await t.rest('GET', '/healthz')).status).toBe(200);
  }, 60_000);
});
