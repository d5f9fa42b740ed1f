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

/** A node of the walk: its path is built from its parents only when asked for (most walks never ask). */
type Node = { value: unknown; parent: Node | undefined; segment: string; depth: number };
type Visit = (value: unknown, node: Node) => 'stop' | 'skip' | void;

/** The dotted path of a node (`rootPath` for the root), without recursion. */
function pathOf(node: Node): string {
  const segments: string[] = [];
  for (let n: Node | undefined = node; n; n = n.parent) segments.push(n.segment);
  let path = segments.pop()!;
  while (segments.length > 0) {
    const segment = segments.pop()!;
    path = path ? `${path}.${segment}` : segment;
  }

  return path;
}

/** Depth-first walk in document order, without recursion. Keys are visited as strings of their own. */
function walk(root: unknown, rootPath: string, visit: Visit): void {
  const stack: Node[] = [{ value: root, parent: undefined, segment: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value, depth } = node;
    const verdict = visit(value, node);
    if (verdict === 'stop') return;
    if (verdict === 'skip' || !value || typeof value !== 'object') continue;
    // Pushed last child first, so they pop in document order (an object's key before its value).
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: node, segment: String(i), depth: depth + 1 });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push(
          { value: (value as Record<string, unknown>)[key], parent: node, segment: key, depth: depth + 1 },
          { value: key, parent: node, segment: key, depth: depth + 1 },
        );
      }
    }
  }
}

/** The dotted path of the first string (value or object key) holding a NUL, or undefined. */
export function findNul(value: unknown, path = ''): string | undefined {
  let found: Node | undefined;
  walk(value, path, (item, node) => {
    if (typeof item === 'string' && item.includes(NUL)) {
      found = node;

      return 'stop';
    }

    return undefined;
  });

  return found && pathOf(found);
}

/** 400 `request.error.nulCharacter`; `target` is `query`, `param`, `json`, `form`, `multipart`, … */
/** `text` without C0 control characters (NUL included) and DEL: for text stored or shown that quotes what a caller sent. */
export function withoutControlCharacters(text: string): string {
  return Array.from(text)
    .filter((char) => char.charCodeAt(0) > 0x1f && char !== '\u007f')
    .join('');
}

export class NulCharacterError extends ValidationError {
  constructor(target: string, path: string) {
    super(
      'request.error.nulCharacter',
      `The ${target} value${path ? ` '${path}'` : ''} contains a NUL character (U+0000), which is not allowed`,
      {
        target,
        path,
      },
    );
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
  walk(value, '', (item, { depth }) => {
    if (!item || typeof item !== 'object') return undefined;
    deepest = Math.max(deepest, depth + 1);

    return deepest > limit ? 'stop' : undefined;
  });

  return deepest;
}

/** A parsed JSON body: no deeper than `maxDepth` (checked first), and no NUL in any key or string. One walk for both. */
export function assertSafeJson(target: string, value: unknown, maxDepth = MAX_JSON_DEPTH): void {
  let tooDeep = false;
  let nul: Node | undefined;
  walk(value, '', (item, node) => {
    if (typeof item === 'string') {
      if (nul === undefined && item.includes(NUL)) nul = node;
    } else if (item && typeof item === 'object' && node.depth + 1 > maxDepth) {
      tooDeep = true;

      return 'stop';
    }

    return undefined;
  });
  if (tooDeep) throw new NestingTooDeepError(target, maxDepth);
  if (nul !== undefined) throw new NulCharacterError(target, pathOf(nul));
}

/**
 * A JSON message that arrives outside an HTTP request (a device's WebSocket frame), held to the rule of a JSON
 * body: malformed is 400 `request.error.invalid`, then depth and NUL as `assertSafeJson`. Its size is the
 * transport's to bound before it is read (the socket's largest frame, the route's body limit).
 */
export function parseSafeJson(target: string, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ValidationError('request.error.invalid', `The ${target} message is not JSON`, { target });
  }
  assertSafeJson(target, parsed);

  return parsed;
}
