import { ValidationError } from '@/server/errors';

/*
 * PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it with a 500 (or, in a
 * streamed answer, cuts the connection). Every way input enters (query string, path, JSON and form
 * bodies, multipart fields and file names) refuses it here, once, with a 400.
 *
 * Parsed JSON can be nested deeper than any recursive code (validation, serialisation) survives, so
 * the walks here are iterative and JSON bodies are also limited in depth.
 */

const NUL = '\u0000';

/** Deepest nesting of arrays and objects a JSON body may have; real bodies stay below 10. */
export const MAX_JSON_DEPTH = 64;

type Visit = (value: unknown, path: string, depth: number) => 'stop' | 'skip' | void;

/** Depth-first walk in document order, without recursion. Keys are visited as strings of their own. */
function walk(root: unknown, rootPath: string, visit: Visit): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const verdict = visit(value, path, depth);
    if (verdict === 'stop') return;
    if (verdict === 'skip' || !value || typeof value !== 'object') continue;
    const children: Array<{ value: unknown; path: string; depth: number }> = [];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push({ value: value[i], path: path ? `${path}.${i}` : String(i), depth: depth + 1 });
    } else {
      for (const [key, item] of Object.entries(value)) {
        const keyPath = path ? `${path}.${key}` : key;
        children.push({ value: key, path: keyPath, depth: depth + 1 }, { value: item, path: keyPath, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** The dotted path of the first string (value or object key) holding a NUL, or undefined. */
export function findNul(value: unknown, path = ''): string | undefined {
  let found: string | undefined;
  walk(value, path, (item, itemPath) => {
    if (typeof item === 'string' && item.includes(NUL)) {
      found = itemPath;

      return 'stop';
    }

    return undefined;
  });

  return found;
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

/** 400 `request.error.tooDeep`: a JSON body nested deeper than MAX_JSON_DEPTH. */
export class NestingTooDeepError extends ValidationError {
  constructor(target: string, maxDepth: number) {
    super('request.error.tooDeep', `The ${target} body is nested deeper than ${maxDepth} levels`, { target, maxDepth });
  }
}

/** The depth of the deepest array or object (a scalar is 0, `[]` is 1), stopping once it passes `limit`. */
export function nestingDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  walk(value, '', (item, _path, depth) => {
    if (!item || typeof item !== 'object') return undefined;
    deepest = Math.max(deepest, depth + 1);

    return deepest > limit ? 'stop' : undefined;
  });

  return deepest;
}

/** A parsed JSON body: no deeper than `maxDepth` (checked first), and no NUL in any key or string. */
export function assertSafeJson(target: string, value: unknown, maxDepth = MAX_JSON_DEPTH): void {
  if (nestingDepth(value, maxDepth) > maxDepth) throw new NestingTooDeepError(target, maxDepth);
  assertNoNul(target, value);
}
