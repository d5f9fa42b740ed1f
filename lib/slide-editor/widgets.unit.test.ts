import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { labelFrom, type Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import en from '@/messages/en';
import { ADDABLE, copyWidget, newWidget, newWidgetId, widgetLabel } from './widgets';
import { SlidePage, Widget as WidgetSchema, type Page, type Widget } from '@/server/modules/content/content-data.schemas';

const page = (width: number, height: number): Page => ({
  name: 'Default',
  tags: [],
  pageStyle: {},
  pageData: { screenSize: { width, height } },
  widgets: [],
});
const FILE = '5f0b8a52-3a53-4a43-9a53-1f7f4a7c1d11';

describe('new widgets', () => {
  it('are centred on the page, inside it, in front, and valid by the schema once their source is chosen', () => {
    for (const size of [page(1920, 1080), page(1080, 1920), page(640, 480)]) {
      const p = { ...size, widgets: [{ ...newWidget('text', size), x: 0, y: 0, zIndex: 7 }] };
      for (const type of ADDABLE) {
        const w = newWidget(
          type,
          p,
          type === 'image' || type === 'video' ? { fileId: FILE } : type === 'playlist' ? { simpleLoopId: FILE } : {},
        );
        expect(WidgetSchema.safeParse(w).success, type).toBe(true);
        expect(w.zIndex).toBe(8);
        expect(w.x).toBeGreaterThanOrEqual(0);
        expect(w.x + w.width).toBeLessThanOrEqual(size.pageData.screenSize.width);
        expect(Math.abs(w.x + w.width / 2 - size.pageData.screenSize.width / 2)).toBeLessThanOrEqual(1);
        expect(w.y + w.height).toBeLessThanOrEqual(size.pageData.screenSize.height);
      }
      const { name: _name, ...wire } = p;
      expect(SlidePage.safeParse(wire).success).toBe(true);
    }
  });

  it('do not land on top of the last one: each new one a step down and right, and inside the page', () => {
    let p = page(1920, 1080);
    const placed: Array<[number, number]> = [];
    for (let i = 0; i < 40; i++) {
      const w = newWidget('image', p, { fileId: FILE });
      expect(w.x + w.width).toBeLessThanOrEqual(1920);
      expect(w.y + w.height).toBeLessThanOrEqual(1080);
      placed.push([w.x, w.y]);
      p = { ...p, widgets: [...(p.widgets ?? []), w] };
    }
    expect(placed.slice(0, 2)).toEqual([
      [576, 324],
      [598, 346],
    ]);
    expect(new Set(placed.map(([x, y]) => `${x},${y}`)).size).toBe(placed.length);
  });

  it('get ids not used on the page', () => {
    const p = { ...page(100, 100), widgets: [{ ...newWidget('text', page(100, 100), {}, 'w-a') }] };
    const ids = ['a', 'a', 'b'];
    expect(newWidgetId(p, () => ids.shift()!)).toBe('w-b');
  });

  it('copies shift, go in front and get a new id', () => {
    const p = page(1920, 1080);
    const original = newWidget('clock', p, {}, 'w-1');
    const withOne = { ...p, widgets: [original] };
    const copy = copyWidget(original, withOne, 'w-2');
    expect(copy).toMatchObject({ id: 'w-2', type: 'clock', x: original.x + 22, y: original.y + 22, zIndex: 1 });
  });
});

describe('widget labels', () => {
  const label: Label = (table, value, fallback) => labelFrom(en.labels, table, value, fallback);
  const t = createTranslator({ locale: 'en', messages: en, namespace: 'slideEditor' }) as unknown as Translate<'slideEditor'>;
  const name = (widget: Widget) => widgetLabel(widget, label, t);

  it('name a widget by its name, else its kind and, for text, its first line', () => {
    const p = page(1920, 1080);
    expect(name({ ...newWidget('text', p), text: 'Welcome\nsecond line' } as Widget)).toBe('Text “Welcome”');
    expect(name({ ...newWidget('text', p), text: '  ' } as Widget)).toBe('Text');
    expect(name(newWidget('clock', p))).toBe('Clock');
    expect(name({ ...newWidget('clock', p), name: 'Lobby clock' })).toBe('Lobby clock');
  });
});
