import type { Page, SlideData, SlideDocument } from './content-data.schemas';

/*
 * The two forms of a slide's (or interactive content's) pages, and the one pair of functions between them.
 *
 * - On the wire (DECISIONS §2, spec 2 "Content"), `data` is an object keyed by page name, pages in play order
 *   (the key order of the JSON object): `{"Default": {tags, pageStyle, pageData: {screenSize}, widgets?}}`.
 * - Stored, and in the editors and the renderer, it is `{pages: [{name, ...page}]}`: PostgreSQL's jsonb does
 *   not keep the key order of an object, a list does.
 *
 * Every edge converts with these two: the request schemas (content.schemas.ts), the answers (the `data` field of
 * the content and template resources), the manifest, the console's API layer and the web player. The page
 * objects are carried as they are (unknown keys included), so the two are exact inverses for any document the
 * schemas accept. No imports but types: the web player bundles this file without zod.
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

/** The keyed form (wire) as the page list (stored): each key becomes its page's `name`, in key order. */
export function slideDataOf(document: SlideDocument): SlideData {
  return { pages: Object.entries(document).map(([name, page]): Page => ({ ...page, name })) };
}

/** The page list (stored) as the keyed form (wire): each page under its `name`, in list order. */
export function slideDocumentOf(data: SlideData): SlideDocument {
  // fromEntries defines own properties: no name can reach a prototype (the schemas refuse `__proto__` anyway).
  return Object.fromEntries(data.pages.map(({ name, ...page }) => [name, page]));
}

/** Whether a stored document is a slide's page list (a playlist's is `{loopData, slides}`). */
export function isSlideData(data: unknown): data is SlideData {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

/**
 * A stored `data` document (of either kind) as the API answers it: a slide's pages keyed by name, a playlist as
 * it is. The field readers (content, templates) call this without the row's kind at hand; a stored slide is
 * always the page list and a playlist never has `pages` (both validated on write).
 */
export function contentDataToWire(data: unknown): unknown {
  return isSlideData(data) ? slideDocumentOf(data) : data;
}
