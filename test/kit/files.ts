// File contents for uploads: images, PDFs, HTML bundles, and their digests.
import crypto from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { onePagePdf } from './src';
import { suffix } from './factories';

export { onePagePdf };

/** A PNG of the given size; a random colour (distinct content per call) unless one is given. */
export function png(width = 64, height = 64, colour = `#${crypto.randomBytes(3).toString('hex')}`): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A one-page PDF unique to this call (distinct digests); onePagePdf(text) for a fixed one. */
export const uniquePdf = (): Buffer => onePagePdf(`Document ${suffix()}`);

export const htmlPage = (title = `Page ${suffix()}`) =>
  Buffer.from(`<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`);

export const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
export const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

type Field = [bytes: 2 | 4, value: number];
const u16 = (value: number): Field => [2, value];
const u32 = (value: number): Field => [4, value];

/** A ZIP record: its little-endian fields, in order. */
const record = (...fields: Field[]) =>
  Buffer.concat(
    fields.map(([size, value]) => {
      const b = Buffer.alloc(size);
      if (size === 2) b.writeUInt16LE(value);
      else b.writeUInt32LE(value);
      return b;
    }),
  );

/** A ZIP archive holding one stored (uncompressed) file: an HTML bundle. */
export function zipOf(name: string, content: Buffer): Buffer {
  const crc = crc32(content);
  const fileName = Buffer.from(name);
  const n = content.length;
  // Version needed, flags, method, time, date, CRC, sizes, name length, extra length: in both headers.
  const shared = [u16(20), u16(0), u16(0), u16(0), u16(0), u32(crc), u32(n), u32(n), u16(fileName.length), u16(0)];
  const local = record(u32(0x04034b50), ...shared);
  // "Version made by" first; then comment length, disk, attributes and the local header's offset (0).
  const central = record(u32(0x02014b50), u16(20), ...shared, u16(0), u16(0), u16(0), u32(0), u32(0));
  const centralOffset = local.length + fileName.length + n;
  // Signature, disk numbers, entry counts, central directory size and offset, comment length.
  const end = record(u32(0x06054b50), u16(0), u16(0), u16(1), u16(1), u32(central.length + fileName.length), u32(centralOffset), u16(0));
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}
