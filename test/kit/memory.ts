// Memory measurements in tests: full garbage collections, so an RSS reading counts what is kept.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
/** One full collection, at once. */
export const collect: () => void = vm.runInNewContext('gc');

/** Full collections with turns of the event loop between them, so freed buffers are released. */
export async function gc(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    collect();
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const MB = 1024 * 1024;
