import type { Page, SlideData, Widget } from '@/server/modules/content/content-data.schemas';
import { isArrayIndexName } from '@/server/modules/content/page-names.schemas';

/*
 * Whole-document edits of a slide that keep it valid by its schema: pages of interactive content added,
 * renamed and removed with the tap actions that point at them, and the screen size of every page changed
 * with the widgets moved to keep their place. Pure (unit-tested).
 */

/** A page name not used yet: "Page 2", "Page 3", … */
export function freePageName(data: SlideData): string {
  const names = new Set(data.pages.map((p) => p.name));
  for (let i = data.pages.length + 1; ; i++) if (!names.has(`Page ${i}`)) return `Page ${i}`;
}

/** A new, empty page after the others, at the same screen size and background as `like`. */
export function addPage(data: SlideData, like: Page): SlideData {
  const page: Page = {
    name: freePageName(data),
    tags: [],
    pageStyle: { backgroundColor: like.pageStyle?.backgroundColor },
    pageData: { screenSize: { ...like.pageData.screenSize } },
    widgets: [],
  };

  return { ...data, pages: [...data.pages, page] };
}

/** The page with its taps that went to page `from` going to `to` (none: they do nothing); a page without widgets as it is. */
const retarget = (page: Page, from: string, to: string | null): Page =>
  page.widgets
    ? {
        ...page,
        widgets: page.widgets.map((w) =>
          w.action?.page !== from ? w : to === null ? { ...w, action: undefined } : { ...w, action: { ...w.action, page: to } },
        ),
      }
    : page;

/** Why a page cannot have a name, by its key in `slideEditor.page.nameProblem`. */
export type PageNameProblem = 'enterName' | 'wholeNumber' | 'taken';

/** Why a page cannot have this name (empty; another page has it; a whole number, which the API refuses), or null. */
export function pageNameProblem(data: SlideData, index: number, name: string): PageNameProblem | null {
  if (!name) return 'enterName';
  if (isArrayIndexName(name)) return 'wholeNumber';
  if (data.pages.some((p, i) => i !== index && p.name === name)) return 'taken';

  return null;
}

/** Renames a page; the widgets that go to it follow. A name the page cannot have is refused (null). */
export function renamePage(data: SlideData, index: number, name: string): SlideData | null {
  const old = data.pages[index];
  if (!old || pageNameProblem(data, index, name)) return null;

  return { ...data, pages: data.pages.map((p, i) => retarget(i === index ? { ...p, name } : p, old.name, name)) };
}

/** Removes a page (never the last one); taps that went to it do nothing now. */
export function removePage(data: SlideData, index: number): SlideData {
  const gone = data.pages[index];
  if (!gone || data.pages.length <= 1) return data;

  return { ...data, pages: data.pages.filter((_, i) => i !== index).map((p) => retarget(p, gone.name, null)) };
}

/** Every page at `size`; widgets keep their place and share of the page (whole pixels). */
export function resizeScreen(data: SlideData, size: { width: number; height: number }): SlideData {
  return {
    ...data,
    pages: data.pages.map((p) => {
      const sx = size.width / p.pageData.screenSize.width;
      const sy = size.height / p.pageData.screenSize.height;

      return {
        ...p,
        pageData: { ...p.pageData, screenSize: { ...size } },
        widgets: p.widgets?.map((w) => ({
          ...w,
          x: Math.round(w.x * sx),
          y: Math.round(w.y * sy),
          width: Math.max(1, Math.round(w.width * sx)),
          height: Math.max(1, Math.round(w.height * sy)),
        })),
      };
    }),
  };
}

/** The document with one page changed. */
export function withPage(data: SlideData, index: number, change: (page: Page) => Page): SlideData {
  return { ...data, pages: data.pages.map((p, i) => (i === index ? change(p) : p)) };
}

/** The document with one widget of a page changed. */
export function withWidget(data: SlideData, index: number, id: string, change: (widget: Widget) => Widget): SlideData {
  return withPage(data, index, (p) => ({ ...p, widgets: (p.widgets ?? []).map((w) => (w.id === id ? change(w) : w)) }));
}
