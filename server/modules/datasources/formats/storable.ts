/**
 * The one pass every produced document goes through before it is stored: PostgreSQL's jsonb refuses the NUL
 * character (\u0000) and unpaired UTF-16 surrogates, so NULs are removed and lone surrogates become U+FFFD, in
 * values and in keys. Values JSON cannot hold are dropped (undefined, functions) or become null (NaN, ±Infinity),
 * so what is stored is exactly what a later read returns. Objects are rebuilt with Object.fromEntries, which
 * defines `__proto__` as an ordinary key instead of changing a prototype.
 */

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// A separate non-global copy for test(): a global regex keeps lastIndex between calls.
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATES.source);

export function storableText(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;

  return HAS_LONE_SURROGATE.test(withoutNul) ? withoutNul.replace(LONE_SURROGATES, '\uFFFD') : withoutNul;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);

  return prototype === Object.prototype || prototype === null;
}

export function storable<T>(document: T): T {
  // The parsers build plain JSON-shaped values, so the cleaned copy has the caller's shape.
  return clean(document) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.map((entry) => clean(entry) ?? null);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (isPlainObject(value)) {
    const entries: Array<[string, unknown]> = [];
    for (const [key, entry] of Object.entries(value)) {
      const cleaned = clean(entry);
      if (cleaned !== undefined) entries.push([storableText(key), cleaned]);
    }

    return Object.fromEntries(entries);
  }

  return undefined;
}
