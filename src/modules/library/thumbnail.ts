// THMB tiles: a JPEG of at most TILE_SIZE pixels a side, made with sharp from the tile image or
// the uploaded image; entries with neither get a plain tile in the colour of their type.
import crypto from 'node:crypto';
import type Sharp from 'sharp';
import { ServiceError } from '../../core/errors';
import type { BlobInfo } from '../storage';
import { PLACEHOLDER_TILES } from './placeholder-tiles';

/** sharp (libvips, ~26 MB resident) is loaded on the first image, not at start-up. Its operation
 * cache is off (every image is new: the cache would only hold memory) and one thread works on
 * an image, so concurrent uploads do not multiply libvips' buffers. */
let loaded: typeof Sharp | undefined;
function sharp(): typeof Sharp {
  if (!loaded) {
    loaded = require('sharp') as typeof Sharp;
    loaded.cache(false);
    loaded.concurrency(1);
  }
  return loaded;
}

export const TILE_SIZE = 400;
export const TILE_MIME = 'image/jpeg';

/** Decoding bound: a small file can still claim a huge canvas (decompression bombs). */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * Bytes libvips may hold to make one tile; an image whose header says it would take more is
 * refused before a pixel of it is decoded (docs/security.md, "Hostile input").
 */
export const IMAGE_DECODE_BYTES = 48 * 1024 * 1024;

const SAMPLE_BYTES: Readonly<Record<string, number>> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, double: 8 };

/**
 * What libvips holds while it makes a tile of the image, from its header (measured with sharp 0.35,
 * libvips 8.18: docs/security.md). A PNG is read row by row, and about 1,800 rows of it are held
 * while they are shrunk (a 10,000 x 10,000 16-bit PNG: 104 MB); a GIF frame is decoded whole (4 to
 * 5 bytes a pixel), and so are a progressive JPEG's coefficients (2 bytes a sample); lossless WebP
 * up to half a byte a pixel; a baseline JPEG is shrunk while it is decoded (8 MB at 100 megapixels).
 */
function decodingBytes(meta: Sharp.Metadata): number {
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const row = width * (meta.channels ?? 4) * (SAMPLE_BYTES[meta.depth ?? 'uchar'] ?? 8);
  switch (meta.format) {
    case 'png':
      return row * Math.min(height, 1800);
    case 'gif':
      return width * height * 5;
    case 'jpeg':
      return meta.isProgressive ? width * height * (meta.channels ?? 3) * 2 : 0;
    default:
      return Math.ceil((width * height) / 2);
  }
}

const unreadable = (field: string) => new ServiceError('WSUnsupportedTypeException', 'The image could not be read.', { field });

/** The image's header, read without decoding it; WSUnsupportedTypeException when it is unreadable or would take too much to decode. */
async function admittedHeader(image: Buffer, field: string): Promise<Sharp.Metadata> {
  let meta: Sharp.Metadata;
  try {
    meta = await sharp()(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
  } catch {
    throw unreadable(field);
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS || decodingBytes(meta) > IMAGE_DECODE_BYTES) {
    const bits = (SAMPLE_BYTES[meta.depth ?? 'uchar'] ?? 8) * 8;
    throw new ServiceError(
      'WSUnsupportedTypeException',
      `The image is too large to make a tile of (${meta.format ?? 'image'}, ${meta.width} x ${meta.height} pixels, ${bits} bits a sample); send a smaller one or a JPEG.`,
      { field },
    );
  }
  return meta;
}

/** Images are decoded one at a time: the bound above is then the most libvips holds for tiles. */
let decoding: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const turn = decoding.then(work, work);
  decoding = turn.catch(() => undefined);
  return turn;
}

export async function tileFrom(image: Buffer, field: string): Promise<Buffer> {
  await admittedHeader(image, field);
  return oneAtATime(async () => {
    try {
      return await sharp()(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(TILE_SIZE, TILE_SIZE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80, mozjpeg: true })
        .toBuffer();
    } catch {
      throw unreadable(field);
    }
  });
}

/** Throws WSUnsupportedTypeException when the bytes carry an image header but no readable image, or one too large to decode. */
export async function assertReadableImage(image: Buffer, field: string): Promise<void> {
  await admittedHeader(image, field);
}

/** The background of each entry type's plain tile; any other type gets the last colour. */
export const PLACEHOLDER_COLOURS: Readonly<Record<string, string>> = {
  URL: '#2563eb',
  PDF: '#dc2626',
  DOC: '#1d4ed8',
  VID: '#7c3aed',
  AUD: '#059669',
  IMG: '#6b7280',
};
const DEFAULT_COLOUR = '#6b7280';

/**
 * A plain tile made with sharp. The service does not call it: the tiles it serves are these
 * bytes, made once by `npm run tiles` (placeholder-tiles.ts), so an entry without an image does
 * not load libvips (about 8 MB resident) into a process that may never see an image.
 */
export function renderPlaceholder(background: string): Promise<Buffer> {
  return sharp()({ create: { width: TILE_SIZE, height: TILE_SIZE, channels: 3, background } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

const placeholders = new Map<string, { image: Buffer; blob: BlobInfo }>();

/**
 * The same bytes every time for a type, so storage keeps one copy, with the digests storage names
 * them by: an entry can point at the stored copy without sending the bytes again.
 */
export function placeholderTile(entryType: string): { image: Buffer; blob: BlobInfo } {
  const background = PLACEHOLDER_COLOURS[entryType] ?? DEFAULT_COLOUR;
  let tile = placeholders.get(background);
  if (!tile) {
    const encoded = PLACEHOLDER_TILES[background];
    if (!encoded) throw new Error(`no placeholder tile for ${background}: run npm run tiles`);
    const image = Buffer.from(encoded, 'base64');
    tile = {
      image,
      blob: {
        sha256: crypto.createHash('sha256').update(image).digest('hex'),
        md5: crypto.createHash('md5').update(image).digest('hex'),
        bytes: image.length,
      },
    };
    placeholders.set(background, tile);
  }
  return tile;
}
