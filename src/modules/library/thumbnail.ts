// THMB tiles: a JPEG of at most TILE_SIZE pixels a side, made with sharp from the tile image or
// the uploaded image; entries with neither get a plain tile in the colour of their type.
import crypto from 'node:crypto';
import type Sharp from 'sharp';
import { ServiceError } from '../../graphql/errors';
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

export async function tileFrom(image: Buffer, field: string): Promise<Buffer> {
  try {
    return await sharp()(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(TILE_SIZE, TILE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new ServiceError('WSUnsupportedTypeException', 'The image could not be read.', { field });
  }
}

/** Throws WSUnsupportedTypeException when the bytes carry an image header but no readable image. */
export async function assertReadableImage(image: Buffer, field: string): Promise<void> {
  try {
    const meta = await sharp()(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
  } catch {
    throw new ServiceError('WSUnsupportedTypeException', 'The image could not be read.', { field });
  }
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
