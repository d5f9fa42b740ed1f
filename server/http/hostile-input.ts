import { ValidationError } from '@/server/errors';

/*
 * PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it with a 500 (or, in a
 * streamed answer, cuts the connection). Every way input enters (query string, path, JSON and form
 * bodies, multipart fields and file names) refuses it here, once, with a 400.
 */

const NUL = '\u0000';

/** The dotted path of the first string (value or object key) holding a NUL, or undefined. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], path ? `${path}.${i}` : String(i));
      if (found !== undefined) return found;
    }

    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (key.includes(NUL)) return keyPath;
      const found = findNul(item, keyPath);
      if (found !== undefined) return found;
    }
  }

  return undefined;
}

/** 400 `request.error.nulCharacter`; `target` is `query`, `param`, `json`, `form`, `multipart`, … */
export class NulCharacterError extends ValidationError {
  constructor(target: string, path: string) {
    super('request.error.nulCharacter', `The ${target} value${path ? ` '${path}'` : ''} contains a NUL character (U+0000), which is not allowed`, {
      target,
      path,
    });
  }
}

/** Throws NulCharacterError when `value` holds a NUL anywhere. */
export function assertNoNul(target: string, value: unknown): void {
  const path = findNul(value);
  if (path !== undefined) throw new NulCharacterError(target, path);
}
