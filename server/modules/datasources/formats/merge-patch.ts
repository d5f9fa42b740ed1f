import { isPlainObject } from './storable';

/**
 * JSON Merge Patch, RFC 7396 §2 exactly: a patch that is not an object replaces the target (arrays included);
 * in an object patch, null removes the member and any other value is merged into it recursively. The target is
 * never modified; the result shares unchanged parts with it.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const base = isPlainObject(target) ? target : {};
  const result = new Map<string, unknown>(Object.entries(base));
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) result.delete(name);
    else result.set(name, mergePatch(result.get(name), value));
  }

  // fromEntries defines "__proto__" as an ordinary member, as JSON.parse does.
  return Object.fromEntries(result);
}
