import { JSONPath } from 'jsonpath-plus';
import { FormatError } from './errors';
import { normalizeJsonPath, selectJsonPath } from './json-path';
import { isPlainObject } from './storable';

/**
 * A new document with `value` written at `keySelector` (spec 5 §2, webhook actions' `set`). The selector is a dot
 * path (`rooms.2.name`: a numeric segment indexes an array, a missing or null object on the way is created) or,
 * starting with `$`, a JSONPath. A JSONPath of plain names and indexes (`$.rooms[2].name`) is written like a dot path
 * and may create the place; any other JSONPath (wildcards, filters, recursion) must select exactly one existing
 * place. The input document is never modified.
 */
export function setAtKeySelector(document: unknown, keySelector: string, value: unknown): unknown {
  const selector = keySelector.trim();
  if (selector === '') throw new FormatError('The key selector is empty.');
  if (!selector.startsWith('$')) {
    const segments = selector.split('.');
    if (segments.some((segment) => segment === '')) {
      throw new FormatError(`The key selector "${clip(selector)}" has an empty segment (two dots, or a dot at an end).`);
    }

    return writeAt(document, segments, value, selector);
  }
  const plain = plainSegments(selector);
  if (plain) return writeAt(document, plain, value, selector);
  const places = selectJsonPath(document, selector);
  if (places.length !== 1) {
    throw new FormatError(`The key selector "${clip(selector)}" selects ${places.length} places; it must select exactly one.`);
  }

  return writeAt(document, places[0]?.segments ?? [], value, selector);
}

/** The segments of a JSONPath made only of names and indexes, or undefined when it has any operator. */
function plainSegments(selector: string): string[] | undefined {
  // toPathArray caches and returns its arrays: copy before use.
  const parts = [...JSONPath.toPathArray(normalizeJsonPath(selector))];
  if (parts[0] !== '$') return undefined;
  const segments = parts.slice(1);
  const isPlain = segments.every((segment) => segment !== '' && segment !== '..' && !/[*?()@,:~^]/.test(segment));

  return isPlain ? segments : undefined;
}

function writeAt(node: unknown, segments: string[], value: unknown, selector: string, depth = 0): unknown {
  if (depth === segments.length) return value;
  const segment = segments[depth] ?? '';
  const where = segments.slice(0, depth).join('.') || 'the document';
  if (Array.isArray(node)) {
    if (!/^(0|[1-9]\d*)$/.test(segment)) {
      throw new FormatError(`The key selector "${clip(selector)}": ${where} is a list, and "${clip(segment)}" is not an index.`);
    }
    const index = Number(segment);
    if (index > node.length) {
      throw new FormatError(`The key selector "${clip(selector)}": index ${index} is past the end of ${where} (${node.length} entries).`);
    }
    const copy = [...node];
    copy[index] = writeAt(node[index], segments, value, selector, depth + 1);

    return copy;
  }
  if (node === undefined || node === null || isPlainObject(node)) {
    const object = isPlainObject(node) ? node : {};
    const current = Object.hasOwn(object, segment) ? object[segment] : undefined;

    // A computed key in a literal defines "__proto__" as an ordinary member instead of setting the prototype.
    return { ...object, [segment]: writeAt(current, segments, value, selector, depth + 1) };
  }
  throw new FormatError(
    `The key selector "${clip(selector)}": ${where} is ${typeof node === 'string' ? 'a text' : `a ${typeof node}`}, so "${clip(segment)}" cannot be written inside it.`,
  );
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
