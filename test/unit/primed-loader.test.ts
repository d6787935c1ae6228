// PrimedLoader: a value a page primed is read at once (no promise, no batch); anything else goes
// through the DataLoader, and the loader's first answer for a key stays its answer, as DataLoader's
// own cache keeps it.
import { PrimedLoader } from '../../src/core/loaders';

function loader() {
  const batches: number[][] = [];
  const l = new PrimedLoader<number, string>(async (ids) => {
    batches.push([...ids]);
    return ids.map((id) => `loaded ${id}`);
  });
  return { l, batches };
}

describe('PrimedLoader', () => {
  it('answers a primed key at once, without a batch', () => {
    const { l, batches } = loader();
    l.prime(1, 'primed 1');
    expect(l.now(1)).toBe('primed 1');
    expect(batches).toEqual([]);
  });

  it('answers any other key through the loader, one batch for the keys asked together', async () => {
    const { l, batches } = loader();
    const [two, three] = [l.now(2), l.now(3)];
    expect(two).toBeInstanceOf(Promise);
    expect(three).toBeInstanceOf(Promise);
    expect(await Promise.all([two as Promise<string>, three as Promise<string>])).toEqual(['loaded 2', 'loaded 3']);
    expect(batches).toEqual([[2, 3]]);
  });

  it("keeps the loader's first answer: priming a key already loaded, or priming it twice, changes nothing", async () => {
    const { l } = loader();
    expect(await l.load(4)).toBe('loaded 4');
    l.prime(4, 'primed 4');
    expect(await l.now(4)).toBe('loaded 4');
    l.prime(5, 'first');
    l.prime(5, 'second');
    expect(l.now(5)).toBe('first');
    expect(await l.load(5)).toBe('first');
  });

  it('leaves an error or a promise primed to the loader, and forgets a cleared key', async () => {
    const { l } = loader();
    l.prime(6, new Error('gone'));
    await expect(l.now(6)).rejects.toThrow('gone');
    l.prime(7, 'primed 7');
    l.clear(7);
    expect(await l.now(7)).toBe('loaded 7');
    l.prime(8, 'primed 8');
    l.clearAll();
    expect(await l.now(8)).toBe('loaded 8');
  });
});
