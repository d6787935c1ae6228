// Upload file names and image decoding (issue 52, row 6; docs/security.md, "Hostile input"). A
// file name is stored and echoed without controls (CR, LF, C1) and bidirectional overrides or
// isolates (U+202E makes `invoice\u202Efdp.exe` read as `invoiceexe.pdf`), at most 255
// characters with its extension; an image is refused from its header when decoding it would hold
// more than the decoding bound (a 10,000 x 10,000 16-bit PNG: 104 MB of RSS to tile before).
import sharp from 'sharp';
import { newPublisher, uniquePdf, uploadFile, useTestApp, type Publisher } from '../kit';
import { gc, MB } from '../kit/memory';

const t = useTestApp({ env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000', RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '1000' } });
const BOUNDARY = 'names-7MA4YWxkTrZu0gW';

let p: Publisher;
beforeAll(async () => {
  p = await newPublisher(t);
});

/** An upload whose file part's disposition is given as is (`filename*=` carries any character, percent-encoded). */
function uploadWith(path: string, disposition: string, content: Buffer) {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; ${disposition}\r\ncontent-type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return p.rest('POST', path, { rawBody: body, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
}
const utf8Name = (name: string) => `filename*=UTF-8''${encodeURIComponent(name)}`;

const storedName = async (tempName: string) => (await t.row('smart_upload', { temp_name: tempName })).original_filename;

describe('file names', () => {
  it.each([
    ['CR and LF', 'Quarterly\r\nreport.pdf', 'Quarterlyreport.pdf'],
    ['a right-to-left override', 'invoice\u202Efdp.pdf', 'invoicefdp.pdf'],
    ['isolates, marks and a C1 control', '\u2066a\u2069\u200fb\u0085c.pdf', 'abc.pdf'],
    ['a line separator', 'a\u2028b.pdf', 'ab.pdf'],
  ])('when an uploaded name holds %s, then they are removed from what is stored and echoed', async (_what, name, cleaned) => {
    const res = await uploadWith('/rest/smartlib/upload/file', utf8Name(name), uniquePdf());
    expect(res.status).toBe(200);
    expect(res.body.originalFilename).toBe(cleaned);
    expect(await storedName(res.body.tempFilename)).toBe(cleaned);
  });

  it('when an uploaded name is 5,000 characters, then 255 are kept, the extension with them', async () => {
    const res = await uploadWith('/rest/smartlib/upload/file', utf8Name(`${'n'.repeat(4996)}.pdf`), uniquePdf());
    expect(res.status).toBe(200);
    expect(res.body.originalFilename).toBe(`${'n'.repeat(251)}.pdf`);
    expect(await storedName(res.body.tempFilename)).toBe(`${'n'.repeat(251)}.pdf`);
  });

  it('when createSmartEntry names the file with CR, LF and an override, then the stored and echoed name is cleaned alike', async () => {
    const tempFilename = await uploadFile(p, uniquePdf(), 'plain.pdf');
    const res = await p.rest('POST', '/rest/smartlib/smartentry', {
      body: {
        smartLibId: p.smartLibId,
        smartEntryType: 'PDF',
        smartEntryName: 'Named entry',
        smartFileInfo: { tempFilename, originalFilename: 'Minutes\r\n\u202Efdp.exe' },
      },
    });
    expect(res.status).toBe(200);
    const [ouf] = res.body.smartFiles;
    expect(ouf.smartFileName).toBe('Minutesfdp.exe');
    expect((await t.row('smart_file', { smart_file_id: ouf.smartFileId })).smart_file_name).toBe('Minutesfdp.exe');
  });
});

describe('image decoding', () => {
  let huge: Buffer;
  beforeAll(async () => {
    huge = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#336699' } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
  }, 30_000);

  it('when a PNG of ordinary size is a tile, then it is taken', async () => {
    const photo = await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#994411' } })
      .png()
      .toBuffer();
    const res = await uploadWith('/rest/smartlib/upload/tile', 'filename="photo.png"', photo);
    expect(res.status).toBe(200);
  });

  it('when a tile is a 10,000 x 10,000 16-bit PNG, then it is refused from its header', async () => {
    const res = await uploadWith('/rest/smartlib/upload/tile', 'filename="huge.png"', huge);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        errorCode: 'WSUnsupportedTypeException',
        message: 'The image is too large to make a tile of (png, 10000 x 10000 pixels, 16 bits a sample); send a smaller one or a JPEG.',
        field: 'file',
      },
    });
  });

  it('when an IMG entry is such a PNG, then createSmartEntry refuses it without decoding it (104 MB of RSS before) and stores nothing', async () => {
    const tempFilename = await uploadFile(p, huge, 'huge.png');
    const entries = () => t.countRows('smart_entry', { smart_lib_id: p.smartLibId });
    const before = await entries();
    await gc();
    const rss = process.memoryUsage().rss;
    const res = await p.rest('POST', '/rest/smartlib/smartentry', {
      body: { smartLibId: p.smartLibId, smartEntryType: 'IMG', smartEntryName: 'Huge', smartFileInfo: { tempFilename } },
    });
    const rise = process.memoryUsage().rss - rss;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'WSUnsupportedTypeException', field: 'tempFilename' });
    expect(rise).toBeLessThan(30 * MB);
    expect(await entries()).toBe(before);
  });
});
