import { FormatError, shortReason } from './errors';
import { applyJsonPath } from './json-path';
import { storable } from './storable';
import { decodeBody } from './text';

const DEFAULT_MAX_DEPTH = 64;

/**
 * JSON.parse with a nesting cap (checked before parsing, so a hostile `[[[[…` is refused cheaply and no later
 * recursive walk can overflow the stack) and a readable FormatError instead of a SyntaxError or RangeError.
 * NUL characters and lone surrogates are removed from the result (see storable.ts).
 */
export function parseJsonText(text: string, options: { maxDepth?: number } = {}): unknown {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') throw new FormatError('The document is empty: it holds no JSON value.');
  if (nestingDepth(source) > maxDepth) {
    throw new FormatError(`The JSON document is nested more than ${maxDepth} levels deep.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    throw new FormatError(`The document is not valid JSON: ${shortReason(error)}.`);
  }

  return storable(parsed);
}

/** JSON datasource: the document, or the value at `jsonPath`. */
export function parseJsonDocument(body: Buffer, options: { jsonPath?: string; contentType?: string }): unknown {
  const document = parseJsonText(decodeBody(body, { contentType: options.contentType }));
  const path = options.jsonPath?.trim();

  return path ? applyJsonPath(document, path) : document;
}

/** The deepest nesting of arrays and objects, ignoring brackets inside strings. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let isInString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isInString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) isInString = false;
    } else if (code === 0x22) {
      isInString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }

  return deepest;
}
