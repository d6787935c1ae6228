// createSupportGroup (15) through REST multipart and GraphQL multipart: every created row, the
// QR code and its download, and the team admins going on to use the new library and directory.
import sharp from 'sharp';
import QRCode from 'qrcode';
import {
  CARA,
  CREATE_SUPPORT_GROUP,
  DEMO,
  htmlPage,
  md5,
  NORTHWIND,
  OLIVIA,
  PAT,
  png,
  sha256,
  SUPPORT_GROUP_PATH,
  SUPPORT_GROUP_TABLES,
  supportGroupForm,
  uniquePdf,
  useDemoApp,
  withTeamLibraryAndDirectory,
  zipOf,
  type FilePart,
} from '../kit';
import { readBlob } from '../../src/modules/storage/blob-store';
import { qrPng } from '../../src/modules/support-group/qr-code';

const { t, cara, olivia, admin } = useDemoApp();
const counts = () => t.tableCounts(SUPPORT_GROUP_TABLES);

const TYPES = ['html', 'html', 'html', 'smartlib', 'smartlib', 'smartdir', 'smartdir', 'html', 'smartlib', 'smartdir'];

/** Ten assets, each with a name, type, description, internal id, image and version file. */
async function tenAssets(tag: string) {
  const text: Record<string, string> = {};
  const files: Record<string, FilePart> = {};
  const versions: Buffer[] = [];
  const images: Buffer[] = [];
  for (let n = 1; n <= 10; n++) {
    text[`assetName${n}`] = `Asset ${n}`;
    text[`assetType${n}`] = TYPES[n - 1];
    text[`assetDescription${n}`] = `Description of asset ${n}\nsecond line`;
    text[`assetInternalId${n}`] = `${tag}-asset-${n}`;
    images.push(await png(32 + n, 32));
    // html assets: a page, a ZIP bundle of pages, or a PDF; the others a PDF or a PNG.
    versions.push(n === 1 ? htmlPage() : n === 2 ? zipOf('index.html', htmlPage()) : n === 4 ? await png(10, 10 + n) : uniquePdf());
  }
  for (let n = 1; n <= 10; n++) {
    files[`assetImageFile${n}`] = { content: images[n - 1], filename: `image-${n}.png` };
    const ext = n === 1 ? 'html' : n === 2 ? 'zip' : n === 4 ? 'png' : 'pdf';
    files[`assetVersionFile${n}`] = { content: versions[n - 1], filename: `C:\\upload\\version-${n}.${ext}` };
  }
  return { text, files, images, versions };
}

describe('createSupportGroup (POST /rest/company/support-group)', () => {
  let created: any;
  let teamImage: Buffer;
  let assets: Awaited<ReturnType<typeof tenAssets>>;

  it('when an admin posts the full form with ten assets, a team image and version files, then every record is created and answered', async () => {
    teamImage = await png(120, 120);
    assets = await tenAssets('full');
    const before = await counts();
    const res = await admin.multipart(
      SUPPORT_GROUP_PATH,
      supportGroupForm(
        {
          supportGroupPrefix: 'HF',
          supportGroupName: 'Heart Failure Support',
          countryCode: 'au',
          stateCode: 'nsw',
          autoPopulateFromProfile: 'true',
          ...assets.text,
        },
        { teamImageFile: { content: teamImage, filename: 'logo.png' }, ...assets.files },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      companyId: NORTHWIND,
      productId: expect.any(Number),
      productName: 'HF-AU-NSW Heart Failure Support',
      teamId: expect.any(Number),
      teamName: 'HF-AU-NSW Heart Failure Support',
      qrCodeId: expect.any(Number),
      qrCodeName: 'HF-AU-NSW Heart Failure Support QR Code',
      teamAdminUserEmails: ['olivia@demo.example'],
      supportGroupAssetsCreated: TYPES.map((type, i) => ({ assetId: expect.any(Number), assetName: `Asset ${i + 1}`, assetType: type })),
    });
    created = await withTeamLibraryAndDirectory(t, res.body);

    const after = await counts();
    const delta = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
    expect(delta).toEqual({
      product: 1,
      product_asset: 10,
      product_asset_version: 10,
      qr_code: 1,
      team_image: 1,
      team: 1,
      team_member: 1,
      company_role: 1,
      smart_library: 1,
      smart_library_publisher: 1,
      smart_directory: 1,
      smart_directory_field: 4,
      consent_definition: 1,
      // QR code, team image, ten images and ten version files: all distinct content.
      stored_blob: 22,
      stored_blob_chunk: 22,
    });
  });

  it("then the product, team, admins, roles, library and directory rows hold the form's values", async () => {
    const [product] = await t.sql('select * from product where product_id = ?', [created.productId]);
    expect(product).toMatchObject({
      company_id: NORTHWIND,
      team_id: created.teamId,
      product_name: 'HF-AU-NSW Heart Failure Support',
      support_group_prefix: 'HF',
      support_group_name: 'Heart Failure Support',
      country_code: 'AU',
      state_code: 'NSW',
      smart_lib_id: created.smartLibId,
      directory_uuid: created.directoryUUID,
      created_by: CARA,
    });
    expect(await t.sql('select company_id, team_name, image_key from team where team_id = ?', [created.teamId])).toEqual([
      { company_id: NORTHWIND, team_name: 'HF-AU-NSW Heart Failure Support', image_key: null },
    ]);
    expect(await t.sql('select user_id, is_team_admin from team_member where team_id = ?', [created.teamId])).toEqual([
      { user_id: OLIVIA, is_team_admin: true },
    ]);
    expect(await t.sql(`select role from company_role where company_id = ? and user_id = ? order by role`, [NORTHWIND, OLIVIA])).toEqual([
      { role: 'PUSH_NOTIFICATION' },
    ]);
    expect(
      await t.sql('select company_id, team_id, smart_lib_name from smart_library where smart_lib_id = ?', [created.smartLibId]),
    ).toEqual([{ company_id: NORTHWIND, team_id: created.teamId, smart_lib_name: 'HF-AU-NSW Heart Failure Support Library' }]);
    expect(await t.sql('select user_id from smart_library_publisher where smart_lib_id = ?', [created.smartLibId])).toEqual([
      { user_id: OLIVIA },
    ]);
    expect(
      await t.sql(
        'select company_id, team_id, directory_name, directory_type, directory_order, sync_up, auto_populate_from_profile, active from smart_directory where directory_uuid = ?',
        [created.directoryUUID],
      ),
    ).toEqual([
      {
        company_id: NORTHWIND,
        team_id: created.teamId,
        directory_name: 'HF-AU-NSW Heart Failure Support Directory',
        directory_type: 'UNRESTRICTED',
        directory_order: 'FL',
        sync_up: false,
        auto_populate_from_profile: true,
        active: true,
      },
    ]);
    expect(
      (await t.sql('select field_id from smart_directory_field where directory_uuid = ? order by field_id', [created.directoryUUID])).map(
        (r) => r.field_id,
      ),
    ).toEqual([1, 2, 3, 9]);
    expect(
      await t.sql(
        'select consent_type_code, name, consent_value, optional_desc, consent_required from consent_definition where directory_uuid = ?',
        [created.directoryUUID],
      ),
    ).toEqual([
      {
        consent_type_code: 'DS',
        name: 'Directory listing',
        consent_value: 'List me in the support group directory.',
        optional_desc: null,
        consent_required: true,
      },
    ]);
  });

  it('then the team image, the ten assets and their first versions point at the stored files', async () => {
    expect(
      await t.sql('select image_sha256, file_name, mime_type, bytes, md5 from team_image where team_id = ?', [created.teamId]),
    ).toEqual([
      { image_sha256: sha256(teamImage), file_name: 'logo.png', mime_type: 'image/png', bytes: teamImage.length, md5: md5(teamImage) },
    ]);
    const assetRows = await t.sql('select * from product_asset where product_id = ? order by asset_number', [created.productId]);
    expect(assetRows.map((a) => a.asset_id)).toEqual(created.supportGroupAssetsCreated.map((a: any) => a.assetId));
    assetRows.forEach((a, i) => {
      const n = i + 1;
      expect(a).toMatchObject({
        company_id: NORTHWIND,
        asset_number: n,
        asset_name: `Asset ${n}`,
        asset_type: TYPES[i],
        asset_description: `Description of asset ${n}\nsecond line`,
        asset_internal_id: `full-asset-${n}`,
        image_sha256: sha256(assets.images[i]),
        image_file_name: `image-${n}.png`,
        image_mime_type: 'image/png',
        image_bytes: assets.images[i].length,
        image_md5: md5(assets.images[i]),
        smart_lib_id: TYPES[i] === 'smartlib' ? created.smartLibId : null,
        directory_uuid: TYPES[i] === 'smartdir' ? created.directoryUUID : null,
      });
    });
    const versions = await t.sql(
      'select v.* from product_asset_version v join product_asset a on a.asset_id = v.asset_id where a.product_id = ? order by a.asset_number',
      [created.productId],
    );
    const mimes = ['text/html', 'application/zip', 'application/pdf', 'image/png', ...Array(6).fill('application/pdf')];
    versions.forEach((v, i) => {
      const n = i + 1;
      const ext = n === 1 ? 'html' : n === 2 ? 'zip' : n === 4 ? 'png' : 'pdf';
      expect(v).toMatchObject({
        asset_id: assetRows[i].asset_id,
        version_number: 1,
        file_sha256: sha256(assets.versions[i]),
        file_name: `version-${n}.${ext}`,
        mime_type: mimes[i],
        bytes: assets.versions[i].length,
        md5: md5(assets.versions[i]),
      });
    });
    expect((await readBlob(t.orm.em.fork(), sha256(assets.versions[9]))).equals(assets.versions[9])).toBe(true);
    expect((await readBlob(t.orm.em.fork(), sha256(teamImage))).equals(teamImage)).toBe(true);
  });

  it("then the QR code is a PNG of the team's join URL, downloadable by the company's admins and the team's members only", async () => {
    const [qr] = await t.sql('select * from qr_code where qr_code_id = ?', [created.qrCodeId]);
    expect(qr).toMatchObject({
      company_id: NORTHWIND,
      team_id: created.teamId,
      product_id: created.productId,
      qr_code_name: created.qrCodeName,
    });
    expect(qr.join_url).toBe(`http://localhost:4000/join/team/${created.teamId}?code=${qr.join_code}`);
    expect(qr.join_code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const expected = await qrPng(qr.join_url);
    expect(qr).toMatchObject({ image_sha256: sha256(expected), image_bytes: expected.length, image_md5: md5(expected) });
    // Read back independently: each module of the URL's QR symbol is a dark 8x8 square after the 4-module quiet zone.
    const stored = await readBlob(t.orm.em.fork(), qr.image_sha256);
    const { data, info } = await sharp(stored).greyscale().raw().toBuffer({ resolveWithObject: true });
    const symbol = QRCode.create(qr.join_url, { errorCorrectionLevel: 'M' }).modules;
    expect([info.width, info.height]).toEqual([(symbol.size + 8) * 8, (symbol.size + 8) * 8]);
    for (let r = 0; r < symbol.size; r++) {
      for (let c = 0; c < symbol.size; c++) {
        const pixel = data[((4 + r) * 8 + 4) * info.width + (4 + c) * 8 + 4];
        expect([r, c, pixel < 128]).toEqual([r, c, Boolean(symbol.get(r, c))]);
      }
    }

    const path = `/rest/company/support-group/qrcodes/${created.qrCodeId}/image`;
    const byAdmin = await cara.rest('GET', path);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.headers.get('content-type')).toBe('image/png');
    expect(byAdmin.headers.get('content-disposition')).toBe('inline; filename="HF-AU-NSW Heart Failure Support QR Code.png"');
    expect(byAdmin.headers.get('etag')).toBe(`"${md5(expected)}"`);
    expect(byAdmin.bytes.equals(expected)).toBe(true);
    const byMember = await olivia.rest('GET', path);
    expect(byMember.status).toBe(200);
    expect(byMember.bytes.equals(expected)).toBe(true);

    const byStranger = await t.as(PAT).rest('GET', path);
    expect([byStranger.status, byStranger.body]).toEqual([
      404,
      { errorCode: 'WSRecordNotFoundException', message: 'The QR code was not found.', field: 'qrCodeId' },
    ]);
    const unknown = await cara.rest('GET', '/rest/company/support-group/qrcodes/999999/image');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { errorCode: 'WSRecordNotFoundException', message: 'The QR code was not found.', field: 'qrCodeId' },
    ]);
    const anonymous = await t.rest('GET', path);
    expect([anonymous.status, anonymous.body.errorCode]).toEqual([401, 'WSInvalidAuthTokenException']);

    const gql = await olivia.gql(
      'query($id: Int!) { supportGroupQrCode(qrCodeId: $id) { qrCodeId qrCodeName companyId teamId productId joinUrl imageBytes imageMd5 downloadUrl qrCodeCreated } }',
      { id: created.qrCodeId },
    );
    expect(gql.body).toEqual({
      data: {
        supportGroupQrCode: {
          qrCodeId: created.qrCodeId,
          qrCodeName: created.qrCodeName,
          companyId: NORTHWIND,
          teamId: created.teamId,
          productId: created.productId,
          joinUrl: qr.join_url,
          imageBytes: expected.length,
          imageMd5: md5(expected),
          downloadUrl: `http://localhost:4000/rest/company/support-group/qrcodes/${created.qrCodeId}/image`,
          qrCodeCreated: new Date(qr.created_at).getTime(),
        },
      },
    });
  });

  it('then a team admin publishes an entry to the new library (createSmartEntry through REST)', async () => {
    const res = await olivia.rest('POST', '/rest/smartlib/smartentry', {
      body: {
        smartLibId: created.smartLibId,
        smartEntryType: 'URL',
        smartEntryName: 'Support group charter',
        smartEntryUrlLink: 'https://northwind.example/hf/charter',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      smartLibId: created.smartLibId,
      smartEntryName: 'Support group charter',
      smartEntryType: 'URL',
      smartEntryStatus: 'A',
    });
    expect(await t.sql('select created_by from smart_entry where smart_entry_id = ?', [res.body.smartEntryId])).toEqual([
      { created_by: OLIVIA },
    ]);
  });

  it('then a team admin joins the new directory, gives its consent and copies an address into the contact record', async () => {
    const joined = await olivia.gql('mutation($d: String!) { createDirectoryContactRecord(directoryUUID: $d) { firstName lastName } }', {
      d: created.directoryUUID,
    });
    expect(joined.body).toEqual({ data: { createDirectoryContactRecord: { firstName: 'Olivia', lastName: 'Nguyen' } } });
    const [consent] = await t.sql('select consent_uuid from consent_definition where directory_uuid = ?', [created.directoryUUID]);
    const given = await olivia.rest('PUT', `/rest/user/econsents/${consent.consent_uuid}`, { body: { consentGiven: true } });
    expect(given.status).toBe(200);
    const copied = await olivia.rest('POST', `/rest/smartdirectory/${created.directoryUUID}/contactRecord/addresses/copyFromUser`, {
      body: { addressUUIDs: [DEMO.addresses.oliviaWork] },
    });
    expect(copied.status).toBe(200);
    expect(copied.body).toEqual([expect.objectContaining({ typeCode: 'W', type: 'Work' })]);
    const listed = await olivia.rest('GET', `/rest/smartdirectory/${created.directoryUUID}/contactRecord/addresses`);
    expect(listed.body).toEqual(copied.body);
  });
});

describe('createSupportGroup: naming, optional parts and GraphQL', () => {
  it('when no country, state, files or assets are given, then the prefix is the supportGroupPrefix alone and no asset or image is stored', async () => {
    const before = await counts();
    const res = await admin.multipart(
      SUPPORT_GROUP_PATH,
      supportGroupForm({
        supportGroupPrefix: 'ONC',
        supportGroupName: 'Oncology Circle',
        directoryType: 'fully_restricted',
        directoryOrder: 'lf',
        directoryFieldIds: '1,2',
        directoryConsents: '[]',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      productName: 'ONC Oncology Circle',
      teamName: 'ONC Oncology Circle',
      qrCodeName: 'ONC Oncology Circle QR Code',
      supportGroupAssetsCreated: [],
    });
    const after = await counts();
    expect([
      after.product_asset - before.product_asset,
      after.team_image - before.team_image,
      after.stored_blob - before.stored_blob,
      after.smart_directory_field - before.smart_directory_field,
    ]).toEqual([0, 0, 1, 2]);
    expect(
      await t.sql('select directory_type, directory_order, auto_populate_from_profile from smart_directory where directory_uuid = ?', [
        (await withTeamLibraryAndDirectory(t, res.body)).directoryUUID,
      ]),
    ).toEqual([{ directory_type: 'FULLY_RESTRICTED', directory_order: 'LF', auto_populate_from_profile: false }]);
  });

  it('when two admins are listed (any case, one repeated), then both are flagged team admins, publishers and push senders, answered as stored', async () => {
    const res = await admin.multipart(
      SUPPORT_GROUP_PATH,
      supportGroupForm({ teamAdminUserEmails: ' Cara@Demo.Example, olivia@demo.example ,cara@demo.example,' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.teamAdminUserEmails).toEqual(['cara@demo.example', 'olivia@demo.example']);
    expect(await t.sql('select user_id, is_team_admin from team_member where team_id = ? order by user_id', [res.body.teamId])).toEqual([
      { user_id: OLIVIA, is_team_admin: true },
      { user_id: CARA, is_team_admin: true },
    ]);
    expect(
      await t.sql('select user_id from smart_library_publisher where smart_lib_id = ? order by user_id', [
        (await withTeamLibraryAndDirectory(t, res.body)).smartLibId,
      ]),
    ).toEqual([{ user_id: OLIVIA }, { user_id: CARA }]);
    // Granting a role twice is harmless: Cara already had it.
    expect(
      await t.sql(
        `select user_id, count(*)::int as n from company_role where company_id = ? and role = 'PUSH_NOTIFICATION' group by user_id order by user_id`,
        [NORTHWIND],
      ),
    ).toEqual([
      { user_id: OLIVIA, n: 1 },
      { user_id: CARA, n: 1 },
    ]);
  });

  it('when the files come in another order than the assets (version files first), then each is stored for its own field', async () => {
    const v2 = uniquePdf();
    const i1 = await png(20, 21);
    const body = supportGroupForm(
      { assetName1: 'Guide', assetType1: 'html', assetName2: 'Library', assetType2: 'smartlib' },
      {
        assetVersionFile2: { content: v2, filename: 'two.pdf' },
        assetImageFile1: { content: i1, filename: 'one.png' },
      },
    );
    const res = await admin.multipart(SUPPORT_GROUP_PATH, body);
    expect(res.status).toBe(200);
    const stored = await t.sql(
      `select a.asset_number, a.image_sha256, v.file_sha256 from product_asset a join product_asset_version v on v.asset_id = a.asset_id where a.product_id = ? order by a.asset_number`,
      [res.body.productId],
    );
    expect(stored).toEqual([
      { asset_number: 1, image_sha256: sha256(i1), file_sha256: null },
      { asset_number: 2, image_sha256: null, file_sha256: sha256(v2) },
    ]);
  });

  it('when the same support group is posted twice at once, then one is created and the other refused naming supportGroupName', async () => {
    const text = { supportGroupPrefix: 'RACE', supportGroupName: 'Concurrent Group' };
    const [a, b] = await Promise.all([
      admin.multipart(SUPPORT_GROUP_PATH, supportGroupForm(text)),
      admin.multipart(SUPPORT_GROUP_PATH, supportGroupForm(text)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect([a, b].find((r) => r.status === 400)!.body).toEqual({
      errorCode: 'WSInvalidParameterException',
      message: 'The company already has a support group named "RACE Concurrent Group".',
      field: 'supportGroupName',
    });
    expect(await t.sql(`select count(*)::int as n from product where product_name = 'RACE Concurrent Group'`)).toEqual([{ n: 1 }]);
    expect(await t.sql(`select count(*)::int as n from team where team_name = 'RACE Concurrent Group'`)).toEqual([{ n: 1 }]);
  });

  it('when the mutation runs through GraphQL with uploads, then it answers like REST and stores the files', async () => {
    const image = await png(50, 40);
    const version = uniquePdf();
    const input = {
      companyId: NORTHWIND,
      supportGroupPrefix: 'GQL',
      supportGroupName: 'Graph Group',
      teamAdminUserEmails: 'olivia@demo.example',
      directoryType: 'PARTIALLY_RESTRICTED',
      directoryOrder: 'FL',
      directoryFieldIds: '4',
      directoryConsents: '[]',
      teamImageFile: null,
      assets: [
        { name: 'Intro', type: 'html', imageFile: null, versionFile: null },
        { index: 5, name: 'Members', type: 'smartdir' },
      ],
    };
    const res = await admin.gqlMultipart(
      CREATE_SUPPORT_GROUP,
      { input },
      {
        'input.teamImageFile': { content: image, filename: 'team.png' },
        'input.assets.0.versionFile': { content: version, filename: 'intro.pdf' },
      },
    );
    expect(res.status).toBe(200);
    const sg = res.body.data.createSupportGroup;
    expect(sg).toMatchObject({
      productName: 'GQL Graph Group',
      supportGroupAssetsCreated: [
        { assetName: 'Intro', assetType: 'html' },
        { assetName: 'Members', assetType: 'smartdir' },
      ],
    });
    expect(await t.sql('select image_sha256 from team_image where team_id = ?', [sg.teamId])).toEqual([{ image_sha256: sha256(image) }]);
    expect(
      await t.sql(
        `select a.asset_number, v.file_sha256 from product_asset a join product_asset_version v on v.asset_id = a.asset_id where a.product_id = ? order by 1`,
        [sg.productId],
      ),
    ).toEqual([
      { asset_number: 1, file_sha256: sha256(version) },
      { asset_number: 5, file_sha256: null },
    ]);
  });

  it('when GraphQL maps a file it never sends, then WSInvalidParameterException names the field and nothing is stored', async () => {
    const before = await counts();
    const body = new FormData();
    const input = {
      companyId: NORTHWIND,
      supportGroupPrefix: 'MISS',
      supportGroupName: 'Missing',
      teamAdminUserEmails: 'olivia@demo.example',
      directoryType: 'UNRESTRICTED',
      directoryOrder: 'FL',
      directoryFieldIds: '3',
      directoryConsents: '[]',
      teamImageFile: null,
    };
    body.append('operations', JSON.stringify({ query: CREATE_SUPPORT_GROUP, variables: { input } }));
    body.append('map', JSON.stringify({ 0: ['variables.input.teamImageFile'] }));
    const res = await admin.multipart('/graphql', body, { 'apollo-require-preflight': 'true' });
    expect(res.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'WSInvalidParameterException',
      field: 'teamImageFile',
    });
    expect(await counts()).toEqual(before);
  });
});
