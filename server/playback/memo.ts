/*
 * The resolver's caches, in two kinds: answers of pure functions by a text key (bounded, cleared whole when full),
 * and answers tied to an object (a rules object, a timeline) that go when the object goes.
 */

/** A bounded cache of `compute()` by `key`, cleared whole when full. */
export function memo<T>(limit: number): (key: string, compute: () => T) => T {
  const cache = new Map<string, T>();

  return (key, compute) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (cache.size >= limit) cache.clear();
    cache.set(key, value);

    return value;
  };
}

/** A cache of `compute()` by `owner` and `key`, held weakly by the owner. */
export function ownedMemo<O extends object, T>(): (owner: O, key: string, compute: () => T) => T {
  const byOwner = new WeakMap<O, Map<string, T>>();

  return (owner, key, compute) => {
    let cache = byOwner.get(owner);
    if (!cache) byOwner.set(owner, (cache = new Map()));
    let value = cache.get(key);
    if (value === undefined) cache.set(key, (value = compute()));

    return value;
  };
}
