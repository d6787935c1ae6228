// uploadSmartFile / uploadTileImage through REST multipart routes and GraphQL multipart
// requests: storage content-addressed by SHA-256, type from magic bytes, size limits, expiry.
import crypto from 'node:crypto';
import {
  fingerprint,
  gqlUpload,
  LIBRARY_TABLES,
  md5,
  newPublisher,
  png,
  sha256,
  startTestApp,
  uniquePdf,
  upload,
  uploadFile,
  uploadTile,
  UPLOAD_FILE,
  UPLOAD_TILE,
  useTestApp,
  type Publisher,
} from '../kit';
import { SmartUpload } from '../kit/src';
import { BLOB_CHUNK_BYTES, readBlob } from '../../src/modules/storage/blob-store';
import { purgeExpiredUploads } from '../../src/modules/library/upload.service';
import { BLOB_REFERENCES } from '../../src/modules';
import { runRecurringJob } from '../kit/queue';
import { PURGE_QUEUE } from '../../src/modules/library/upload.purge';

const t = useTestApp();
// A second instance on the same database with small limits.
const small = useTestApp({ alongside: t, env: { UPLOAD_MAX_BYTES: '300000', UPLOAD_TILE_MAX_BYTES: '20000' } });
let p: Publisher;
beforeAll(async () => {
  p = await newPublisher(t);
});

const uploadRow = (tempName: string) => t.findOne(SmartUpload, { tempName });
const libraryCounts = () => t.tableCounts(LIBRARY_TABLES);

describe('uploadSmartFile (POST /rest/smartlib/upload/file)', () => {
  it('when a publisher uploads a PDF, then it answers the temporary name, size and MD5, and the content is stored by its SHA-256', async () => {
    const pdf = uniquePdf();
    const res = await upload(p, '/rest/smartlib/upload/file', pdf, 'Annual report.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      originalFilename: 'Annual report.pdf',
      tempFilename: expect.stringMatching(/^[A-Za-z0-9_-]{24}\.pdf$/),
      bytes: pdf.length,
      md5: md5(pdf),
    });
    const row = await uploadRow(res.body.tempFilename);
    expect(row).toMatchObject({ kind: 'FILE', mimeType: 'application/pdf', bytes: pdf.length, md5: md5(pdf) });
    expect(row!.blob.sha256).toBe(sha256(pdf));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
    expect((await readBlob(t.orm.em.fork(), sha256(pdf))).equals(pdf)).toBe(true);
  });

  it('when a file spans several chunks, then it is stored in 1 MiB chunks and reads back intact', async () => {
    const big = Buffer.concat([uniquePdf(), crypto.randomBytes(2 * BLOB_CHUNK_BYTES + 1000)]);
    const tempFilename = await uploadFile(p, big, 'big.pdf');
    const row = await uploadRow(tempFilename);
    const chunks = await t.sql(
      'select c.seq, length(c.data) as n from stored_blob_chunk c join stored_blob b on b.content_id = c.content_id where b.sha256 = ? order by c.seq',
      [row!.blob.sha256],
    );
    expect(chunks.map((c: any) => [c.seq, Number(c.n)])).toEqual([
      [0, BLOB_CHUNK_BYTES],
      [1, BLOB_CHUNK_BYTES],
      [2, big.length - 2 * BLOB_CHUNK_BYTES],
    ]);
    expect((await readBlob(t.orm.em.fork(), sha256(big))).equals(big)).toBe(true);
  });

  it('when the same content is uploaded twice, then two uploads share one stored blob', async () => {
    const pdf = uniquePdf();
    const before = await libraryCounts();
    const a = await uploadFile(p, pdf, 'a.pdf');
    const b = await uploadFile(p, pdf, 'b.pdf');
    expect(a).not.toBe(b);
    const after = await libraryCounts();
    expect(after.smart_upload - before.smart_upload).toBe(2);
    expect(after.stored_blob - before.stored_blob).toBe(1);
    expect(after.stored_blob_chunk - before.stored_blob_chunk).toBe(1);
  });

  it('when the client sends a path in the file name, then only the name is kept', async () => {
    const res = await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'C:\\fakepath\\Q3\\notes.pdf');
    expect(res.body.originalFilename).toBe('notes.pdf');
  });

  it('when a PNG is named .pdf, then its type comes from its content', async () => {
    const res = await upload(p, '/rest/smartlib/upload/file', await png(40, 30, '#123456'), 'looks-like.pdf');
    expect(res.status).toBe(200);
    expect(res.body.tempFilename).toMatch(/\.png$/);
    expect((await uploadRow(res.body.tempFilename))!.mimeType).toBe('image/png');
  });

  it.each([
    ['plain text named .pdf', Buffer.from('just some text, no magic bytes at all')],
    ['a ZIP archive', Buffer.from('504b0304140000000800', 'hex')],
    ['an executable', Buffer.concat([Buffer.from('7f454c46020101', 'hex'), Buffer.alloc(100)])],
  ])('when the content is %s, then WSUnsupportedTypeException and nothing is stored', async (_label, content) => {
    const before = await fingerprint(t.orm);
    const res = await upload(p, '/rest/smartlib/upload/file', content, 'report.pdf');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errorCode: 'WSUnsupportedTypeException',
      message: expect.stringContaining('not one of the accepted types'),
      field: 'file',
    });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the file is larger than UPLOAD_MAX_BYTES, then 413 WSMaxFileUploadSizeException and no chunk is left behind', async () => {
    const before = await fingerprint(t.orm);
    const res = await upload(
      small.as(p),
      '/rest/smartlib/upload/file',
      Buffer.concat([uniquePdf(), crypto.randomBytes(400_000)]),
      'big.pdf',
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      errorCode: 'WSMaxFileUploadSizeException',
      message: 'The file exceeds the maximum upload size of 300000 bytes.',
      field: 'file',
    });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the file is exactly UPLOAD_MAX_BYTES, then it is accepted', async () => {
    const head = uniquePdf();
    const res = await upload(
      small.as(p),
      '/rest/smartlib/upload/file',
      Buffer.concat([head, Buffer.alloc(300_000 - head.length, 0x20)]),
      'edge.pdf',
    );
    expect(res.status).toBe(200);
    expect(res.body.bytes).toBe(300_000);
  });

  it('when no auth token is sent, then 401 WSInvalidAuthTokenException and nothing is stored', async () => {
    const before = await fingerprint(t.orm);
    const res = await upload(t, '/rest/smartlib/upload/file', uniquePdf(), 'x.pdf');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the caller publishes to no library, then 403 WSInsufficientPrivilegesException and nothing is stored', async () => {
    const user = await t.newUser();
    const before = await fingerprint(t.orm);
    const res = await upload(user, '/rest/smartlib/upload/file', uniquePdf(), 'x.pdf');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errorCode: 'WSInsufficientPrivilegesException', message: 'Only library publishers may upload files.' });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the file part has another name, then WSInvalidParameterException names file', async () => {
    const res = await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'x.pdf', 'document');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'file' });
  });

  it.each([
    ['after the file part', ['file', 'comment'], 'comment'],
    ['before and after the file part', ['comment', 'file', 'folder'], 'comment'],
  ])('when unknown text parts come %s, then 400 names the first and nothing is stored', async (_label, order, first) => {
    const pdf = uniquePdf();
    const before = await libraryCounts();
    const form = new FormData();
    for (const name of order) {
      if (name === 'file') form.append('file', new Blob([new Uint8Array(pdf)]), 'minutes.pdf');
      else form.append(name, `${name} text`);
    }
    const res = await p.multipart('/rest/smartlib/upload/file', form);
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: `The form has no part named ${first}.`, field: first },
    ]);
    expect(await libraryCounts()).toEqual(before);
  });

  it('when the file is larger than UPLOAD_MAX_BYTES and an undeclared text part follows it, then 400 names the part and no chunk is left behind', async () => {
    const before = await fingerprint(t.orm);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.concat([uniquePdf(), crypto.randomBytes(2 * BLOB_CHUNK_BYTES)]))]), 'big.pdf');
    form.append('comment', 'after the file');
    const res = await small.as(p).multipart('/rest/smartlib/upload/file', form);
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: 'The form has no part named comment.', field: 'comment' },
    ]);
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the same file part is sent twice, then 400 names it and neither is stored', async () => {
    const first = uniquePdf();
    const second = uniquePdf();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(first)]), 'first.pdf');
    form.append('file', new Blob([new Uint8Array(second)]), 'second.pdf');
    const res = await p.multipart('/rest/smartlib/upload/file', form);
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: 'The part file is repeated.', field: 'file' },
    ]);
    expect(await t.sql('select count(*)::int as n from stored_blob where sha256 in (?, ?)', [sha256(first), sha256(second)])).toEqual([
      { n: 0 },
    ]);
  });

  it('when the body is JSON, then 415 WSInvalidParameterException names the body', async () => {
    const res = await p.rest('POST', '/rest/smartlib/upload/file', { body: { file: 'x' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ errorCode: 'WSInvalidParameterException', message: 'The body must be multipart/form-data.', field: 'body' });
  });
});

describe('uploadTileImage (POST /rest/smartlib/upload/tile)', () => {
  it('when a publisher uploads a PNG, then it answers only the temporary image name', async () => {
    const image = await png(300, 200, '#aa3300');
    const res = await upload(p, '/rest/smartlib/upload/tile', image, 'tile.png');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tempImageName: expect.stringMatching(/^[A-Za-z0-9_-]{24}\.png$/) });
    expect(await uploadRow(res.body.tempImageName)).toMatchObject({
      kind: 'TILE',
      mimeType: 'image/png',
      bytes: image.length,
      md5: md5(image),
    });
  });

  it('when a text part comes after the image, then 400 names it and no tile is stored', async () => {
    const image = await png(120, 80, '#0a5f3c');
    const before = await libraryCounts();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image)]), 'tile.png');
    form.append('caption', 'refused');
    const res = await p.multipart('/rest/smartlib/upload/tile', form);
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: 'The form has no part named caption.', field: 'caption' },
    ]);
    expect(await libraryCounts()).toEqual(before);
  });

  it('when the tile is a PDF, then WSUnsupportedTypeException', async () => {
    const res = await upload(p, '/rest/smartlib/upload/tile', uniquePdf(), 'tile.png');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'WSUnsupportedTypeException', field: 'file' });
  });

  it('when the tile has a PNG header but no readable image, then WSUnsupportedTypeException', async () => {
    const broken = Buffer.concat([(await png(10, 10, '#3366cc')).subarray(0, 40), Buffer.alloc(200, 7)]);
    const res = await upload(p, '/rest/smartlib/upload/tile', broken, 'tile.png');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorCode: 'WSUnsupportedTypeException', message: 'The image could not be read.', field: 'file' });
  });

  it('when the tile is larger than UPLOAD_TILE_MAX_BYTES, then 413 WSMaxFileUploadSizeException', async () => {
    const noisy = await (
      await import('sharp')
    )
      .default(crypto.randomBytes(120 * 120 * 3), { raw: { width: 120, height: 120, channels: 3 } })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(20_000);
    const res = await upload(small.as(p), '/rest/smartlib/upload/tile', noisy, 'tile.png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      errorCode: 'WSMaxFileUploadSizeException',
      message: 'The file exceeds the maximum upload size of 20000 bytes.',
      field: 'file',
    });
  });
});

describe('uploads through GraphQL multipart requests', () => {
  it('when uploadSmartFile is called with a file, then the receipt matches the REST one', async () => {
    const pdf = uniquePdf();
    const res = await gqlUpload(p, UPLOAD_FILE, pdf, 'guide.pdf');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.uploadSmartFile).toEqual({
      originalFilename: 'guide.pdf',
      tempFilename: expect.stringMatching(/\.pdf$/),
      bytes: pdf.length,
      md5: md5(pdf),
      mimeType: 'application/pdf',
      expiresAt: expect.any(Number),
    });
  });

  it('when uploadTileImage is called, then it answers the temporary image name', async () => {
    const res = await gqlUpload(p, UPLOAD_TILE, await png(64, 64, '#00ff00'), 'tile.png');
    expect(res.body.data.uploadTileImage).toMatchObject({ tempImageName: expect.stringMatching(/\.png$/), mimeType: 'image/png' });
  });

  it('when the preflight header is missing, then Apollo refuses the multipart request (CSRF prevention)', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: UPLOAD_FILE, variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([new Uint8Array(uniquePdf())]), 'x.pdf');
    const res = await p.multipart('/graphql', form);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/CSRF/);
  });

  it('when the caller is not authenticated, then the error comes back and the unread upload does not stall the request', async () => {
    const before = await fingerprint(t.orm);
    const res = await gqlUpload(t, UPLOAD_FILE, Buffer.concat([uniquePdf(), crypto.randomBytes(600_000)]), 'x.pdf');
    expect(res.body.errors[0]).toMatchObject({
      message: 'The auth token is missing or invalid.',
      extensions: { code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' },
    });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the map names a file part the request does not carry, then WSInvalidParameterException names file', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: UPLOAD_FILE, variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    const res = await p.multipart('/graphql', form, { 'apollo-require-preflight': 'true' });
    expect(res.body.errors[0]).toMatchObject({
      message: 'The file part is missing or could not be read.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'file' },
    });
  });

  it('when the file is too large, then the error is WSMaxFileUploadSizeException', async () => {
    const res = await gqlUpload(small.as(p), UPLOAD_FILE, Buffer.concat([uniquePdf(), crypto.randomBytes(400_000)]), 'x.pdf');
    expect(res.body.errors[0]).toMatchObject({
      extensions: { code: 'PAYLOAD_TOO_LARGE', errorCode: 'WSMaxFileUploadSizeException', field: 'file' },
    });
  });
});

describe('temporary uploads expire', () => {
  it('when an upload is older than 24 hours, then the purge deletes it and the blob nothing else uses, and keeps blobs still in use', async () => {
    const expired = uniquePdf();
    const kept = uniquePdf();
    const gone = await uploadFile(p, expired, 'old.pdf');
    const fresh = await uploadFile(p, kept, 'new.pdf');
    const conn = t.orm.em.fork().getConnection();
    await conn.execute(`update smart_upload set expires_at = now() - interval '1 minute' where temp_name = ?`, [gone]);
    await conn.execute(`update stored_blob set last_used_at = now() - interval '25 hours' where sha256 in (?, ?)`, [
      sha256(expired),
      sha256(kept),
    ]);
    const result = await purgeExpiredUploads(t.orm.em.fork(), BLOB_REFERENCES);
    expect(result.uploads).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(gone)).toBeNull();
    expect(await uploadRow(fresh)).not.toBeNull();
    const blobs = await conn.execute('select sha256 from stored_blob where sha256 in (?, ?)', [sha256(expired), sha256(kept)]);
    expect(blobs.map((b: any) => b.sha256)).toEqual([sha256(kept)]);
    const orphanChunks = await conn.execute(
      'select count(*)::int as n from stored_blob_chunk c where not exists (select 1 from stored_blob b where b.content_id = c.content_id)',
    );
    expect(orphanChunks[0].n).toBe(0);
  });

  it('when the queue workers run, then the purge is an hourly pg-boss schedule, and its job purges an expired upload', async () => {
    const gone = await uploadFile(p, uniquePdf(), 'old.pdf');
    await t.sql(`update smart_upload set expires_at = now() - interval '1 minute' where temp_name = ?`, [gone]);
    const schedule = await runRecurringJob(t, PURGE_QUEUE, async () => (await uploadRow(gone)) === null);
    expect(schedule).toEqual([{ name: PURGE_QUEUE, cron: '0 * * * *' }]);
    expect(await uploadRow(gone)).toBeNull();
  });

  it('when an expired upload is named in createSmartEntry, then it is refused like an unknown one', async () => {
    const tempFilename = await uploadFile(p, uniquePdf());
    await t.sql(`update smart_upload set expires_at = now() - interval '1 second' where temp_name = ?`, [tempFilename]);
    const res = await p.rest('POST', '/rest/smartlib/smartentry', {
      body: { smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Late', smartFileInfo: { tempFilename } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errorCode: 'WSInvalidParameterException',
      message: 'tempFilename names no upload of yours (uploads expire after 24 hours and are used once).',
      field: 'tempFilename',
    });
  });
});

describe('two instances sharing the database', () => {
  it('when a file and a tile are uploaded on one instance, then another instance creates the entry from them', async () => {
    const other = await startTestApp({ db: t.db });
    try {
      const pdf = uniquePdf();
      const tempFilename = await uploadFile(p, pdf, 'shared.pdf');
      const tempImageName = await uploadTile(p, await png(900, 300, '#884400'));
      const res = await other.as(p).rest('POST', '/rest/smartlib/smartentry', {
        headers: { cookie: 'AWSALB=instance-a; JSESSIONID=abc' },
        body: {
          smartLibId: p.smartLibId,
          smartEntryType: 'PDF',
          smartEntryName: 'Made on another instance',
          smartFileInfo: { tempFilename, tempImageName },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.smartFiles).toEqual([
        expect.objectContaining({ smartFileType: 'OUF', smartFileName: 'shared.pdf', smartFileBytes: pdf.length, smartFileMd5: md5(pdf) }),
        expect.objectContaining({ smartFileType: 'THMB', smartFileName: 'Made on another instance-tile.jpg' }),
      ]);
      expect(await uploadRow(tempFilename)).toBeNull();
      expect(await uploadRow(tempImageName)).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('a caller who may not upload', () => {
  it('when a signed-in non-publisher starts a large upload, then 403 answers before the body is read and nothing is staged', async () => {
    const http = await import('node:http');
    const headers = await (await t.newUser()).headers();
    const boundary = '----refused';
    const url = new URL(`${t.baseUrl}/rest/smartlib/upload/file`);
    const chunksBefore = await t.countRows('stored_blob_chunk');
    const req = http.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(50 * 1024 * 1024) },
    });
    req.on('error', () => undefined);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    req.write(Buffer.alloc(2 * 1024 * 1024, 0x20));
    // The body is never finished: the answer can only come from a check made before reading it.
    const res = await new Promise<{ status: number; body: any }>((resolve) => {
      req.on('response', (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
      });
    });
    req.destroy();
    expect(res).toEqual({
      status: 403,
      body: { errorCode: 'WSInsufficientPrivilegesException', message: 'Only library publishers may upload files.' },
    });
    expect(await t.countRows('stored_blob_chunk')).toBe(chunksBefore);
  });
});
