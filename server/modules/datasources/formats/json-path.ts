import { JSONPath } from 'jsonpath-plus';
import { FormatError, shortReason } from './errors';

/** One place a JSONPath selected: its value and where it is, as path segments from the root. */
export type JsonPathPlace = { value: unknown; segments: string[] };

/**
 * The value at `path` (JSONPath) in `document`: one match gives that value, several give the array of them, none is
 * a FormatError. Filters run in jsonpath-plus's safe evaluator (no JavaScript: no calls, no assignments, no
 * `this`); a filter that fails on one element counts as no match for that element.
 */
export function applyJsonPath(document: unknown, path: string): unknown {
  const places = selectJsonPath(document, path);
  if (places.length === 0) throw new FormatError(`The JSONPath ${quote(path)} matches nothing in the document.`);

  return places.length === 1 ? places[0]?.value : places.map((place) => place.value);
}

export function selectJsonPath(document: unknown, path: string): JsonPathPlace[] {
  const expression = normalizeJsonPath(path);
  let results: unknown;
  try {
    results = JSONPath({
      path: expression,
      // jsonpath-plus wants an object or array; a scalar document can only match '$'
      json: typeof document === 'object' && document !== null ? document : [document],
      resultType: 'all',
      wrap: true,
      eval: 'safe',
      ignoreEvalErrors: true,
    });
  } catch (error) {
    throw new FormatError(`The JSONPath ${quote(path)} cannot be used: ${shortReason(error).replace(/^jsonPath:\s*/, '')}.`);
  }
  if (typeof document !== 'object' || document === null) {
    return expression === '$' ? [{ value: document, segments: [] }] : [];
  }
  if (!Array.isArray(results)) return [];

  return results.map((result: unknown) => ({ value: valueOf(result), segments: segmentsOf(result) }));
}

/** A path without the leading `$` is read from the root: `items[0]` means `$.items[0]`. */
export function normalizeJsonPath(path: string): string {
  const trimmed = path.trim();
  if (trimmed === '') throw new FormatError('The JSONPath is empty.');
  if (trimmed.startsWith('$')) return trimmed;

  return trimmed.startsWith('[') ? `$${trimmed}` : `$.${trimmed}`;
}

function valueOf(result: unknown): unknown {
  return typeof result === 'object' && result !== null && 'value' in result ? result.value : undefined;
}

/** jsonpath-plus reports each match's place as a JSON Pointer (RFC 6901). */
function segmentsOf(result: unknown): string[] {
  const pointer = typeof result === 'object' && result !== null && 'pointer' in result ? result.pointer : '';
  if (typeof pointer !== 'string' || pointer === '') return [];

  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function quote(path: string): string {
  return JSON.stringify(path.length > 120 ? `${path.slice(0, 119)}…` : path);
}
