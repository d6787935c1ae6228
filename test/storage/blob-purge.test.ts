// The hourly purge (src/modules/library/upload.purge.ts) deletes stored bytes nothing refers to. A
// blob any table still refers to must survive it however long ago it was last used, or the bytes of
// a library file or a support group's QR code are gone while their rows still name them.
//
// The tables that refer to blobs are written down here, not read from the code under test: a new
// reference (a foreign key to stored_blob) that the modules do not declare to the purge, or one they
// declare that no column backs, fails the first test until it is added here and to the sweep below.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { CARA, DEMO, OLIVIA, png, sha256, SUPPORT_GROUP_PATH, supportGroupForm, uniquePdf, uploadFile, useTestApp } from '../kit';
import { BLOB_REFERENCES } from '../../src/modules';
import { purgeExpiredUploads } from '../../src/modules/library/upload.service';
import { BLOB_CHUNK_BYTES, purgeUnusedBlobs, stageStream, storeBuffer } from '../../src/modules/storage/blob-store';

/** Every column that names a stored blob, as the migrations make them. */
const REFERENCES = [
  { table: 'product_asset', column: 'image_sha256' },
  { table: 'product_asset_version', column: 'file_sha256' },
  { table: 'qr_code', column: 'image_sha256' },
  { table: 'smart_file', column: 'blob_sha256' },
  { table: 'smart_upload', column: 'blob_sha256' },
  { table: 'team_image', column: 'image_sha256' },
];
const byName = (a: { table: string; column: string }, b: { table: string; column: string }) =>
  `${a.table}.${a.column}` < `${b.table}.${b.column}` ? -1 : 1;

const t = useTestApp();
const admin = t.as(CARA).with({ 'x-service-company-api-key': DEMO.companyApiKey });

const purge = () => purgeExpiredUploads(t.orm.em.fork(), BLOB_REFERENCES);
const age = (sha: string[], interval: string) =>
  t.sql(`update stored_blob set last_used_at = now() - interval '${interval}' where sha256 in (?)`, [sha]);
const stored = async (sha: string[]): Promise<string[]> =>
  (await t.sql('select sha256 from stored_blob where sha256 in (?) order by sha256', [sha])).map((r) => r.sha256);
/** The blob's bytes read back from its chunks, hashed: equal to its name when every byte is there. */
const rehash = async (sha: string) => {
  const chunks = await t.sql(
    `select c.data from stored_blob_chunk c join stored_blob b on b.content_id = c.content_id where b.sha256 = ? order by c.seq`,
    [sha],
  );
  return sha256(Buffer.concat(chunks.map((c) => c.data)));
};

it('the columns that refer to stored blobs are the written list, and the modules declare each to the purge', async () => {
  const keys = await t.sql(`
    select cl.relname as "table", a.attname as "column"
      from pg_constraint k
      join pg_class cl on cl.oid = k.conrelid
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
     where k.contype = 'f' and k.confrelid = 'stored_blob'::regclass`);
  expect([...keys].sort(byName)).toEqual(REFERENCES);
  expect([...BLOB_REFERENCES].map((r) => ({ table: r.table, column: r.column })).sort(byName)).toEqual(REFERENCES);
});

describe('the purge', () => {
  it('keeps every blob a row refers to, last used 25 hours ago, and each still downloads whole', async () => {
    // A support group with a team image, an asset image and an asset version file (and its QR code).
    const group = await admin.multipart(
      SUPPORT_GROUP_PATH,
      supportGroupForm(
        { assetName1: 'Purge asset', assetType1: 'html' },
        {
          teamImageFile: { content: await png(40, 40), filename: 'team.png' },
          assetImageFile1: { content: await png(41, 41), filename: 'asset.png' },
          assetVersionFile1: { content: uniquePdf(), filename: 'version.pdf' },
        },
      ),
    );
    expect(group.status).toBe(200);
    // A temporary upload that has not expired, and the demo library's file.
    const pending = await uploadFile(t.as(OLIVIA), uniquePdf(), 'pending.pdf');
    const [file] = await t.sql('select min(smart_file_id) as id from smart_file where smart_entry_id = ?', [
      DEMO.library.welcomePackEntryId,
    ]);
    const filePath = `/rest/smartlib/files/${file.id}/content`;
    const qrPath = `/rest/company/support-group/qrcodes/${group.body.qrCodeId}/image`;
    const before = { file: await t.as(OLIVIA).rest('GET', filePath), qr: await t.as(OLIVIA).rest('GET', qrPath) };
    expect([before.file.status, before.qr.status]).toEqual([200, 200]);

    const referenced: Record<string, string> = {};
    for (const r of REFERENCES) {
      const where =
        r.table === 'smart_upload'
          ? `temp_name = '${pending}'`
          : r.table === 'smart_file'
            ? `smart_file_id = ${Number(file.id)}`
            : r.table === 'qr_code' || r.table === 'team_image'
              ? `team_id = ${Number(group.body.teamId)}`
              : `asset_id = ${Number(group.body.supportGroupAssetsCreated[0].assetId)}`;
      const rows = await t.sql(`select "${r.column}" as sha from "${r.table}" where ${where}`);
      expect({ table: r.table, rows: rows.length, sha: typeof rows[0]?.sha }).toEqual({ table: r.table, rows: 1, sha: 'string' });
      referenced[r.table] = rows[0].sha;
    }
    const shas = [...new Set(Object.values(referenced))];
    await age(shas, '25 hours');

    await purge();

    expect(await stored(shas)).toEqual([...shas].sort());
    for (const [table, sha] of Object.entries(referenced)) expect({ table, rehash: await rehash(sha) }).toEqual({ table, rehash: sha });
    const after = { file: await t.as(OLIVIA).rest('GET', filePath), qr: await t.as(OLIVIA).rest('GET', qrPath) };
    expect({ file: after.file.status, qr: after.qr.status }).toEqual({ file: 200, qr: 200 });
    expect(Buffer.compare(after.file.bytes, before.file.bytes)).toBe(0);
    expect(Buffer.compare(after.qr.bytes, before.qr.bytes)).toBe(0);
  });

  it('keeps an unreferenced blob used within the hour of grace, and deletes one past it with its chunks', async () => {
    const em = t.orm.em.fork();
    const recent = await storeBuffer(em, crypto.randomBytes(3000));
    const old = await storeBuffer(em, crypto.randomBytes(3000));
    await age([recent.sha256], '50 minutes');
    await age([old.sha256], '70 minutes');
    const [{ content_id: oldContent }] = await t.sql('select content_id from stored_blob where sha256 = ?', [old.sha256]);

    await purge();

    expect(await stored([recent.sha256, old.sha256])).toEqual([recent.sha256]);
    expect(await rehash(recent.sha256)).toBe(recent.sha256);
    expect(await t.sql('select count(*)::int as n from stored_blob_chunk where content_id = ?', [oldContent])).toEqual([{ n: 0 }]);
  });

  it('deletes the chunks of a staged upload no blob names once a day old (25 hours), keeps one 23 hours old and the chunks a blob names', async () => {
    const em = t.orm.em.fork();
    // Staged content a request never adopted nor discarded (its process died): two chunks, and one chunk.
    const stage = async (bytes: number) =>
      (
        await stageStream(em, Readable.from([crypto.randomBytes(bytes)]), {
          maxBytes: 4 * BLOB_CHUNK_BYTES,
          contentId: crypto.randomUUID(),
          field: 'file',
        })
      ).contentId;
    const dayOld = await stage(BLOB_CHUNK_BYTES + 100);
    const young = await stage(3000);
    // A blob used a minute ago whose chunks were written 25 hours ago: named, so kept.
    const named = await storeBuffer(em, crypto.randomBytes(3000));
    const [{ content_id: namedContent }] = await t.sql('select content_id from stored_blob where sha256 = ?', [named.sha256]);
    const written = (ids: string[], interval: string) =>
      t.sql(`update stored_blob_chunk set created_at = now() - interval '${interval}' where content_id in (?)`, [ids]);
    await written([dayOld, namedContent], '25 hours');
    await written([young], '23 hours');
    const chunks = async () =>
      (
        await t.sql('select content_id, count(*)::int as n from stored_blob_chunk where content_id in (?) group by content_id', [
          [dayOld, young, namedContent],
        ])
      ).reduce((all, r) => ({ ...all, [r.content_id]: r.n }), {} as Record<string, number>);
    expect(await chunks()).toEqual({ [dayOld]: 2, [young]: 1, [namedContent]: 1 });

    expect(await purge()).toMatchObject({ orphanChunks: 2 });

    expect(await chunks()).toEqual({ [young]: 1, [namedContent]: 1 });
    expect(await rehash(named.sha256)).toBe(named.sha256);
  });
});

describe("the purge refuses a module's blob reference that is not a plain column name, before it deletes anything", () => {
  // The references are spliced into the purge's SQL: a property name, a quoted or qualified name is a developer's mistake.
  it.each([
    [{ table: 'smart_file', column: 'blobSha256' }, 'invalid blob reference smart_file.blobSha256'],
    [{ table: 'library.smart_file', column: 'blob_sha256' }, 'invalid blob reference library.smart_file.blob_sha256'],
    [{ table: 'smart_file', column: 'blob_sha256" or true --' }, 'invalid blob reference smart_file.blob_sha256" or true --'],
  ])('%p is refused: "%s"', async (bad, message) => {
    const unused = await storeBuffer(t.orm.em.fork(), crypto.randomBytes(3000));
    await age([unused.sha256], '2 hours');

    await expect(purgeUnusedBlobs(t.orm.em.fork(), [...BLOB_REFERENCES, bad])).rejects.toThrow(new Error(message));

    expect(await stored([unused.sha256])).toEqual([unused.sha256]);
  });
});
