// Per-request memo helpers for loaders that depend on more than the EntityManager: a loader per
// viewer (keyed), or a value computed once per request (once). Both live in the request's
// loaders, so they are typed and die with the request; nothing is kept in an untyped bag. And a
// DataLoader whose primed values a resolver can read at once (PrimedLoader).
import DataLoader from 'dataloader';

/** One value per key, made on first use: e.g. a DataLoader per viewing user. */
export function keyed<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}

/** A value computed at most once per request (a rejected computation is kept too, as a DataLoader does). */
export interface Once<T> {
  get(compute: () => Promise<T>): Promise<T>;
}

export function once<T>(): Once<T> {
  let value: Promise<T> | undefined;
  return { get: (compute) => (value ??= compute()) };
}

/** Key of a pair of ids in a DataLoader (a user and a company, event or consent): "a:b". */
export const pairKey = (a: number, b: number): string => `${a}:${b}`;

/** The two ids of a pairKey. */
export const splitPairKey = (key: string): [number, number] => key.split(':').map(Number) as [number, number];

/**
 * A DataLoader whose primed values can also be read at once (`now`): a field resolver of a list
 * item answers without a promise when a page already put its value in the request, and through the
 * loader otherwise. A promise per field per item (its own, the loader's, graphql-jit's handling of
 * it) is much of what a page of nested lists allocates (docs/performance.md, "The service
 * boundary"). As with DataLoader's own cache, the first value of a key wins: a key already asked
 * for with `load` answers what the loader answers, and priming it again changes nothing.
 */
export class PrimedLoader<K, V> extends DataLoader<K, V> {
  private readonly primed = new Map<K, V>();
  /** Keys only the loader answers: asked for with `load`, or primed with a promise or an error. */
  private readonly loaderOnly = new Set<K>();

  override load(key: K): Promise<V> {
    if (!this.primed.has(key)) this.loaderOnly.add(key);
    return super.load(key);
  }

  override prime(key: K, value: V | PromiseLike<V> | Error): this {
    if (!this.loaderOnly.has(key) && !this.primed.has(key)) {
      if (value instanceof Error || typeof (value as PromiseLike<V> | null)?.then === 'function') this.loaderOnly.add(key);
      else this.primed.set(key, value as V);
    }
    return super.prime(key, value);
  }

  override clear(key: K): this {
    this.primed.delete(key);
    this.loaderOnly.delete(key);
    return super.clear(key);
  }

  override clearAll(): this {
    this.primed.clear();
    this.loaderOnly.clear();
    return super.clearAll();
  }

  /** The value primed for `key`, at once, or the loader's promise of it. */
  now(key: K): V | Promise<V> {
    return this.primed.has(key) ? (this.primed.get(key) as V) : this.load(key);
  }
}
