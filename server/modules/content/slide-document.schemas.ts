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
export function contentDataToWire(data: SlideData): SlideDocument;
export function contentDataToWire(data: unknown): unknown;
export function contentDataToWire(data: unknown): unknown {
  return isSlideData(data) ? slideDocumentOf(data) : data;
}
