/*
 * Which page names the keyed form of a slide's pages can hold (DECISIONS §2). No imports: the schemas
 * (content-data.schemas.ts), the conversion the web player bundles (slide-document.schemas.ts) and the editor use it.
 */

/**
 * Whether a page name is a canonical array index ("0", "1", "10", up to 4294967294): JavaScript objects (and
 * JSON.parse) list such keys first, in ascending order, whatever order they were sent in, so a page with such a
 * name cannot keep its place in the keyed form. The schemas refuse them; the editor does not offer them.
 */
export function isArrayIndexName(name: string): boolean {
  return new RegExp(ARRAY_INDEX_PATTERN).test(name);
}

/** The canonical array indices 0 … 4294967294 as a pattern (also the OpenAPI document's rule for page names). */
export const ARRAY_INDEX_PATTERN =
  '^(?:0|[1-9][0-9]{0,8}|[1-3][0-9]{9}|4[01][0-9]{8}|42[0-8][0-9]{7}|429[0-3][0-9]{6}|4294[0-8][0-9]{5}|42949[0-5][0-9]{4}|429496[0-6][0-9]{3}|4294967[01][0-9]{2}|42949672[0-8][0-9]|429496729[0-4])$';
