// Per-request memo helpers for loaders that depend on more than the EntityManager: a loader per
// viewer (keyed), or a value computed once per request (once). Both live in the request's
// loaders, so they are typed and die with the request; nothing is kept in an untyped bag.

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
