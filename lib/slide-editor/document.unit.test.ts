import { describe, expect, it } from 'vitest';
import en from '@/messages/en';
import { addPage, freePageName, pageNameProblem, removePage, renamePage, resizeScreen, withWidget } from './document';
import { SlideDocument, type SlideData, type Widget } from '@/server/modules/content/content-data.schemas';
import { slideDocumentOf } from '@/server/modules/content/slide-document.schemas';

const button = (id: string, page?: string): Widget => ({
  id,
  type: 'text',
  text: id,
  x: 100,
  y: 50,
  width: 200,
  height: 100,
  zIndex: 0,
  ...(page ? { action: { type: 'GO_TO_PAGE', page } } : {}),
});
const doc = (): SlideData => ({
  pages: [
    {
      name: 'Home',
      tags: [],
      pageStyle: { backgroundColor: '#111111' },
      pageData: { screenSize: { width: 1920, height: 1080 } },
      widgets: [button('to-menu', 'Menu')],
    },
    { name: 'Menu', tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } }, widgets: [button('back', 'Home')] },
  ],
});
/** Valid as the API takes it (keyed by page name). */
const valid = (d: SlideData) => SlideDocument.safeParse(slideDocumentOf(d)).success;

describe('pages of interactive content', () => {
  it('adds a page with a free name, the size and background of the one it is like', () => {
    const d = addPage(doc(), doc().pages[0]!);
    expect(d.pages[2]).toMatchObject({
      name: 'Page 3',
      pageStyle: { backgroundColor: '#111111' },
      pageData: { screenSize: { width: 1920, height: 1080 } },
      widgets: [],
    });
    expect(freePageName({ pages: [...d.pages, { ...d.pages[2]!, name: 'Page 4' }] })).toBe('Page 5');
    expect(valid(d)).toBe(true);
  });

  it('renames a page and the taps that go to it; a taken name is refused', () => {
    const d = renamePage(doc(), 1, 'Drinks')!;
    expect(d.pages[1]!.name).toBe('Drinks');
    expect(d.pages[0]!.widgets![0]!.action).toEqual({ type: 'GO_TO_PAGE', page: 'Drinks' });
    expect(valid(d)).toBe(true);
    expect(renamePage(doc(), 1, 'Home')).toBeNull();
    expect(renamePage(doc(), 1, '')).toBeNull();
  });

  it('refuses a whole number as a page name (the API would: it could not keep the page order)', () => {
    expect(pageNameProblem(doc(), 1, '2')).toBe('wholeNumber');
    expect(en.slideEditor.page.nameProblem.wholeNumber).toMatch(/whole number/);
    expect(renamePage(doc(), 1, '2')).toBeNull();
    expect(renamePage(doc(), 1, 'Page 2')).not.toBeNull();
    expect(valid(renamePage(doc(), 1, '02')!)).toBe(true);
  });

  it('leaves a page without widgets (as a client may send it) without them', () => {
    const bare: SlideData = {
      pages: [...doc().pages, { name: 'Bare', pageData: { screenSize: { width: 1920, height: 1080 } }, note: 'kept' }],
    };
    expect(renamePage(bare, 0, 'Start')!.pages[2]).toEqual(bare.pages[2]);
    expect(removePage(bare, 1).pages[1]).toEqual(bare.pages[2]);
  });

  it('removes a page, never the last, and the taps that went to it', () => {
    const d = removePage(doc(), 1);
    expect(d.pages.map((p) => p.name)).toEqual(['Home']);
    expect(d.pages[0]!.widgets![0]!.action).toBeUndefined();
    expect(valid(d)).toBe(true);
    expect(removePage(d, 0)).toBe(d);
  });
});

describe('screen size', () => {
  it('changes every page and keeps each widget’s place on it', () => {
    const d = resizeScreen(doc(), { width: 1080, height: 1920 });
    expect(d.pages.every((p) => p.pageData.screenSize.width === 1080 && p.pageData.screenSize.height === 1920)).toBe(true);
    expect(d.pages[0]!.widgets![0]).toMatchObject({ x: 56, y: 89, width: 113, height: 178 });
    expect(valid(d)).toBe(true);
  });
});

it('changes one widget of one page only', () => {
  const d = withWidget(doc(), 1, 'back', (w) => ({ ...w, x: 7 }));
  expect(d.pages[1]!.widgets![0]!.x).toBe(7);
  expect(d.pages[0]!.widgets![0]!.x).toBe(100);
});
