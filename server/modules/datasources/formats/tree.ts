/**
 * Reading the JSON trees fast-xml-parser builds, where an element is a string, an object with `#text` and `@_`
 * attributes, or an array when it repeats, without a cast at every step.
 */

export function field(node: unknown, name: string): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  // Own properties only: a key named "constructor" or "__proto__" in a document is data, not the prototype's.
  const descriptor = Object.getOwnPropertyDescriptor(node, name);

  return descriptor?.value;
}

/** An element that may repeat, always as an array. */
export function list(node: unknown): unknown[] {
  if (node === undefined || node === null || node === '') return [];

  return Array.isArray(node) ? node : [node];
}

/** An element's text: a string, a number, `#text`, or the first of repeated elements. */
export function text(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (Array.isArray(node)) return text(node[0]);
  const inner = field(node, '#text');

  return inner === undefined ? '' : text(inner);
}

export function attribute(node: unknown, name: string): string | undefined {
  const value = field(Array.isArray(node) ? node[0] : node, `@_${name}`);

  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export function isObject(node: unknown): node is Record<string, unknown> {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}
