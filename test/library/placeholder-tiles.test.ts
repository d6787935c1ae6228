// The plain tiles of entries without an image: committed bytes (npm run tiles) that are exactly
// what sharp renders today, served without loading sharp.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { renderTiles, tilesModule, TILES_FILE } from '../../scripts/placeholder-tiles';
import { PLACEHOLDER_COLOURS, placeholderTile } from '../../src/modules/library/thumbnail';

const root = path.join(__dirname, '../..');

test('the committed tiles are what sharp renders now (else: npm run tiles)', async () => {
  const committed = fs.readFileSync(path.join(root, TILES_FILE), 'utf8');
  expect(committed).toBe(tilesModule(await renderTiles()));
});

test('each type gets a 400 x 400 JPEG of its colour, with the digests of its bytes', async () => {
  for (const [type, colour] of Object.entries({ ...PLACEHOLDER_COLOURS, XYZ: '#6b7280' })) {
    const { image, blob } = placeholderTile(type);
    const meta = await sharp(image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 400, 400]);
    const { channels } = await sharp(image).stats();
    const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    channels.slice(0, 3).forEach((c, i) => expect(Math.abs(c.mean - rgb[i])).toBeLessThanOrEqual(2));
    expect(blob).toEqual({
      sha256: crypto.createHash('sha256').update(image).digest('hex'),
      md5: crypto.createHash('md5').update(image).digest('hex'),
      bytes: image.length,
    });
  }
});

test('a plain tile does not load sharp', () => {
  jest.isolateModules(() => {
    jest.doMock('sharp', () => {
      throw new Error('sharp was loaded');
    });
    const isolated = jest.requireActual<{ placeholderTile: typeof placeholderTile }>('../../src/modules/library/thumbnail');
    expect(isolated.placeholderTile('URL').blob.bytes).toBeGreaterThan(1000);
    expect(() => jest.requireMock('sharp')).toThrow('sharp was loaded');
  });
});
