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
  return setAtPlace(document, keySelectorPlace(document, keySelector), value, keySelector);
}

/**
 * The one place `keySelector` names in `document`, as path segments from the root (`[]`: the document itself, `$`).
 * A dot path or a plain JSONPath names a place that need not exist yet; any other JSONPath must select exactly one
 * existing place.
 */
export function keySelectorPlace(document: unknown, keySelector: string): string[] {
  const selector = keySelector.trim();
  if (selector === '') throw new FormatError('The key selector is empty.');
  if (!selector.startsWith('$')) {
    const segments = selector.split('.');
    if (segments.some((segment) => segment === '')) {
      throw new FormatError(`The key selector "${clip(selector)}" has an empty segment (two dots, or a dot at an end).`);
    }

    return segments;
  }
  const plain = plainSegments(selector);
  if (plain) return plain;
  const places = selectJsonPath(document, selector);
  if (places.length !== 1) {
    throw new FormatError(`The key selector "${clip(selector)}" selects ${places.length} places; it must select exactly one.`);
  }

  return places[0]?.segments ?? [];
}

/** A new document with `value` at `place` (from keySelectorPlace; `keySelector` names it in messages). */
export function setAtPlace(document: unknown, place: readonly string[], value: unknown, keySelector: string): unknown {
  return writeAt(document, place, value, keySelector.trim());
}

/**
 * What is at `place`: present with its value, or absent (a missing member, an index past the end, a missing or null
 * object on the way). Reading through a text or a number, or into a list by a name, is a FormatError, as writing is.
 */
export function valueAtPlace(document: unknown, place: readonly string[], keySelector: string): { isPresent: boolean; value: unknown } {
  let node = document;
  for (let depth = 0; depth < place.length; depth++) {
    const next = childOf(node, place, depth, keySelector.trim());
    if (!next.isPresent) return next;
    node = next.value;
  }

  return { isPresent: true, value: node };
}

/**
 * A new document without what is at `place`: an object's member removed, or a list's element taken out (the later
 * ones move up). When nothing is there, the very same document is answered, so a caller can tell nothing changed.
 */
export function removeAtPlace(document: unknown, place: readonly string[], keySelector: string): unknown {
  if (place.length === 0)
    throw new FormatError(`The key selector "${clip(keySelector.trim())}" names the whole document, not a key in it.`);

  return removeAt(document, place, keySelector.trim(), 0);
}

function removeAt(node: unknown, segments: readonly string[], selector: string, depth: number): unknown {
  const child = childOf(node, segments, depth, selector);
  if (!child.isPresent) return node;
  const segment = segments[depth] ?? '';
  const isLast = depth === segments.length - 1;
  const replaced = isLast ? undefined : removeAt(child.value, segments, selector, depth + 1);
  if (!isLast && replaced === child.value) return node;
  if (Array.isArray(node)) {
    const index = Number(segment);

    return isLast ? node.filter((_, i) => i !== index) : node.map((element, i) => (i === index ? replaced : element));
  }
  if (!isPlainObject(node)) return node;
  // fromEntries keeps "__proto__" an ordinary member.
  const entries = Object.entries(node);

  return Object.fromEntries(
    isLast ? entries.filter(([name]) => name !== segment) : entries.map(([name, value]) => [name, name === segment ? replaced : value]),
  );
}

/** One step down: the member or element `segments[depth]` of `node`. */
function childOf(node: unknown, segments: readonly string[], depth: number, selector: string): { isPresent: boolean; value: unknown } {
  const segment = segments[depth] ?? '';
  const where = segments.slice(0, depth).join('.') || 'the document';
  if (Array.isArray(node)) {
    if (!/^(0|[1-9]\d*)$/.test(segment)) {
      throw new FormatError(`The key selector "${clip(selector)}": ${where} is a list, and "${clip(segment)}" is not an index.`);
    }
    const index = Number(segment);

    return index < node.length ? { isPresent: true, value: node[index] } : { isPresent: false, value: undefined };
  }
  if (node === undefined || node === null) return { isPresent: false, value: undefined };
  if (isPlainObject(node))
    return Object.hasOwn(node, segment) ? { isPresent: true, value: node[segment] } : { isPresent: false, value: undefined };
  throw new FormatError(
    `The key selector "${clip(selector)}": ${where} is ${typeof node === 'string' ? 'a text' : `a ${typeof node}`}, so "${clip(segment)}" cannot be inside it.`,
  );
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

function writeAt(node: unknown, segments: readonly string[], value: unknown, selector: string, depth = 0): unknown {
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
