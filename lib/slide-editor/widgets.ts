import type { Label } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import type { Page, Widget } from '@/server/modules/content/content-data.schemas';

/*
 * The widget types the slide editor adds, how a widget is named and the widget a new one starts as: centred on
 * the page, sized to it, in front of the others. Pure (unit-tested); the names of the types are the label table's
 * (`labels.widgetType`).
 */

export type WidgetType = Widget['type'];

/** What a new widget of a type needs that the editor asks for first (a file or a content item). */
export type WidgetSource = { fileId: string } | { simpleLoopId: string } | { contentId: string } | Record<string, never>;

/** The types the editor offers, in the order of its "Add" bar. */
export const ADDABLE: readonly WidgetType[] = ['text', 'image', 'video', 'clock', 'webPage', 'channel', 'playlist', 'datasource'];

/** "Text “Welcome”", "Image", "Clock": how a widget is named to the user and to assistive technology, in the console's words. */
export function widgetLabel(widget: Widget, label: Label, t: Translate<'slideEditor'>): string {
  if (widget.name) return widget.name;
  const kind = label('widgetType', widget.type);
  if (widget.type === 'text') {
    const first = widget.text.trim().split('\n')[0] ?? '';

    return first ? t('widgetText', { kind, text: first.length > 40 ? `${first.slice(0, 39)}…` : first }) : kind;
  }

  return kind;
}

/** A key unique within the page (the schema's `id` of a widget). */
export function newWidgetId(page: Pick<Page, 'widgets'>, random: () => string = () => Math.random().toString(36).slice(2, 10)): string {
  const taken = new Set((page.widgets ?? []).map((w) => w.id));
  for (;;) {
    const id = `w-${random()}`;
    if (!taken.has(id)) return id;
  }
}

/** How far a copy or a new widget moves off the one under it: 2 % of the page's short side. */
const stepOf = (page: Pick<Page, 'pageData'>) =>
  Math.max(8, Math.round(Math.min(page.pageData.screenSize.width, page.pageData.screenSize.height) * 0.02));

/**
 * Where a new `width` × `height` widget goes: centred, unless another widget's corner is there; then a step down
 * and right until no widget's corner is (starting again from the top left where the page ends), so a new widget
 * never lands exactly on top of one already placed.
 */
function freePosition(page: Pick<Page, 'pageData' | 'widgets'>, width: number, height: number): { x: number; y: number } {
  const { width: W, height: H } = page.pageData.screenSize;
  const step = stepOf(page);
  const taken = (x: number, y: number) => (page.widgets ?? []).some((w) => Math.abs(w.x - x) < step && Math.abs(w.y - y) < step);
  const fits = (x: number, y: number) => x + width <= W && y + height <= H;
  const start = { x: Math.round((W - width) / 2), y: Math.round((H - height) / 2) };
  const room = Math.max(1, Math.floor(Math.min(W - width, H - height) / step) + 1);
  for (let k = 0; k < room * 2; k++) {
    const x = k < room ? start.x + k * step : (k - room) * step;
    const y = k < room ? start.y + k * step : (k - room) * step;
    if (fits(x, y) && !taken(x, y)) return { x, y };
  }

  // A page full of widgets at every step: the centre, as before.
  return start;
}

/** A new widget of `type` on `page`: centred (or off the widgets already there), a sensible share of the page, in front of every other widget. */
export function newWidget(type: WidgetType, page: Page, source: WidgetSource = {}, id = newWidgetId(page)): Widget {
  const { width: W, height: H } = page.pageData.screenSize;
  const short = Math.min(W, H);
  const size: Record<WidgetType, [number, number]> = {
    text: [W * 0.5, short * 0.15],
    image: [W * 0.4, H * 0.4],
    video: [W * 0.5, H * 0.5],
    webPage: [W * 0.6, H * 0.6],
    clock: [short * 0.4, short * 0.12],
    channel: [W * 0.5, H * 0.5],
    playlist: [W * 0.5, H * 0.5],
    content: [W * 0.5, H * 0.5],
    datasource: [W * 0.4, short * 0.12],
  };
  const [width, height] = size[type].map((v) => Math.max(8, Math.round(v))) as [number, number];
  const fontSize = Math.max(12, Math.round(short * 0.06));
  const base = {
    id,
    ...freePosition(page, width, height),
    width,
    height,
    zIndex: frontZ(page),
  };
  const text = { fontSize, color: '#ffffff', align: 'center', verticalAlign: 'middle' } as const;
  switch (type) {
    case 'text':
      return { ...base, type, text: 'Your text', textStyle: text };
    case 'image':
      return { ...base, type, fileId: 'fileId' in source ? source.fileId : '', fit: 'contain' };
    case 'video':
      return { ...base, type, fileId: 'fileId' in source ? source.fileId : '', fit: 'contain', muted: true, loop: true };
    case 'webPage':
      return { ...base, type, url: 'https://example.com/' };
    case 'clock':
      return { ...base, type, format: 'HH:mm', textStyle: text };
    case 'channel':
      return { ...base, type, tags: ['main'] };
    case 'playlist':
      return { ...base, type, simpleLoopId: 'simpleLoopId' in source ? source.simpleLoopId : '' };
    case 'content':
      return { ...base, type, contentId: 'contentId' in source ? source.contentId : '' };
    case 'datasource':
      return { ...base, type, mode: 'text', placeholder: 'Data field', textStyle: { ...text, fontSize: Math.round(fontSize * 0.8) } };
  }
}

/** A copy of `widget` shifted down and right, in front of everything, under a new id. */
export function copyWidget(widget: Widget, page: Page, id = newWidgetId(page)): Widget {
  const offset = stepOf(page);

  return { ...structuredClone(widget), id, name: widget.name, x: widget.x + offset, y: widget.y + offset, zIndex: frontZ(page) };
}

/** The types whose widget needs a source chosen before it is placed. */
export function needsSource(type: WidgetType): 'image' | 'video' | 'playlist' | null {
  return type === 'image' || type === 'video' ? type : type === 'playlist' ? 'playlist' : null;
}

/** A z-index in front of every widget of the page (within the schema's bound). */
function frontZ(page: Pick<Page, 'widgets'>): number {
  return Math.min(
    10_000,
    (page.widgets ?? []).reduce((top, w) => Math.max(top, w.zIndex + 1), 0),
  );
}
