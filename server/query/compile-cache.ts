import type { SQL } from 'drizzle-orm';
import type { AnyResource } from './relations';
import { compileSearch } from './search/compile';
import { buildProjection, type Projection } from './select';
import { compileSort, type CompiledSort } from './sort';

/**
 * Compiled `search`, `select` and `sort` per resource and exact input string. Consoles and
 * devices repeat the same list requests; a hit skips parsing and compiling entirely. Values
 * are immutable drizzle SQL trees, safe to share between concurrent requests. Inputs that fail
 * to compile are not cached: they throw every time.
 */
const MAX_ENTRIES = 2_000;
const cache = new Map<string, unknown>();

function cached<T>(key: string, compute: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined || cache.has(key)) {
    // Refresh recency: Map iteration order is insertion order, so re-insert.
    cache.delete(key);
    cache.set(key, hit);

    return hit as T;
  }
  const value = compute();
  cache.set(key, value);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);

  return value;
}

// Resources are module singletons; a WeakMap gives each a stable cache-key prefix.
const resourceIds = new WeakMap<AnyResource, number>();
let nextResourceId = 0;
function resourceKey(resource: AnyResource): number {
  let id = resourceIds.get(resource);
  if (id === undefined) {
    id = nextResourceId++;
    resourceIds.set(resource, id);
  }

  return id;
}

export function cachedSearch(resource: AnyResource, search: string | undefined): SQL | undefined {
  if (search === undefined) return undefined;

  return cached(`${resourceKey(resource)}\u0000w\u0000${search}`, () => compileSearch(resource, search));
}

export function cachedProjection(resource: AnyResource, select: string | undefined): Projection {
  return cached(`${resourceKey(resource)}\u0000p\u0000${select ?? ''}`, () => buildProjection(resource, select));
}

export function cachedSort(resource: AnyResource, sort: string | readonly string[] | undefined): CompiledSort {
  const key = sort === undefined ? '' : typeof sort === 'string' ? sort : sort.join('\u0001');

  return cached(`${resourceKey(resource)}\u0000s\u0000${key}`, () => compileSort(resource, sort));
}

/** For tests and benchmarks: forget everything. */
export function clearCompileCache(): void {
  cache.clear();
}
