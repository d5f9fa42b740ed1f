import type { DatasourceWidget } from '@/server/modules/content/content-data.schemas';
import { applyTextStyle, el, marqueeLine, scrollMarquee, type Cleanup, type Marquee, type TextStyle } from './dom';
import type { RenderOptions } from './render';

/*
 * A slide's datasource widget (spec 5 §2 "Widgets"): the current data of a datasource, as a formatted value, a
 * paged table, items in turn, a ticker or a room sign, redrawn whenever the feed says the data changed. The data
 * is untrusted: text goes in as text (never markup), images only from http(s), and data that does not fit the
 * mode shows the placeholder instead of throwing. Each redraw is built off the page and swapped in with one
 * `replaceChildren`, so the screen never shows an empty box between two states.
 */

export type DatasourceFeed = {
  /** The datasource's current data document, when the feed holds it. */
  read(id: string): unknown | undefined;
  /** Calls `onChange` after each change of that datasource's data; answers the function that ends it. */
  subscribe(id: string, onChange: () => void): () => void;
};

/** The words the renderer writes (a room sign's); the player has no translations, the console passes its own. */
export type RendererWords = { now: string; next: string; free: string; until: string };

const ENGLISH_WORDS: RendererWords = { now: 'Now', next: 'Next', free: 'Free', until: 'until' };

/** Numbers and dates are written the same in the console's preview and on every screen. */
const LOCALE = 'en-GB';
const DEFAULT_TURN_SECONDS = 10;
const DEFAULT_ROWS_PER_PAGE = 10;
/** A cell, title or summary longer than this is cut: a screen cannot show more, and the layout stays cheap. */
const MAX_TEXT = 2_000;
/** How long a redraw waits for its new images to decode before it is shown anyway. */
const IMAGE_WAIT_MS = 1_000;

type Format = DatasourceWidget['format'];
type Data = Record<string, unknown>;

const isRecord = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.slice(0, MAX_TEXT);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);

  return undefined;
}

/**
 * The value at a dot path (`price`, `rooms.2.name`, `rows.0.price`): array steps are indexes, object steps the
 * object's own keys only (never `__proto__` or `constructor` of the prototype). No path: the data itself.
 */
export function valueAt(data: unknown, path: string | undefined): unknown {
  if (!path) return data;
  let at = data;
  for (const step of path.split('.')) {
    if (Array.isArray(at)) {
      if (!/^\d+$/.test(step)) return undefined;
      at = at[Number(step)];
    } else if (isRecord(at) && Object.hasOwn(at, step)) {
      at = at[step];
    } else {
      return undefined;
    }
  }

  return at;
}

/** `Intl` with the screen's zone; a zone the browser does not know falls back to its own rather than to nothing. */
function inZone<T>(make: (timeZone: string | undefined) => T, timeZone: string | undefined): T {
  try {
    return make(timeZone);
  } catch {
    return make(undefined);
  }
}

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;

  return Number.isFinite(n) ? n : undefined;
}

/** Epoch milliseconds (a number or digits) or an ISO 8601 text. */
function instantOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const ms = /^-?\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);

  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}

function formatNumber(n: number, format: NonNullable<Format>): string {
  const digits = format.decimals === undefined ? {} : { minimumFractionDigits: format.decimals, maximumFractionDigits: format.decimals };
  if (format.kind === 'percent') return new Intl.NumberFormat(LOCALE, { style: 'percent', ...digits }).format(n);
  if (format.kind === 'currency' && format.currency) {
    try {
      return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: format.currency, ...digits }).format(n);
    } catch {
      // A code Intl refuses: the amount alone, below.
    }
  }
  if (format.kind === 'currency') {
    const cents = format.decimals ?? 2;

    return new Intl.NumberFormat(LOCALE, { minimumFractionDigits: cents, maximumFractionDigits: cents }).format(n);
  }

  return new Intl.NumberFormat(LOCALE, digits).format(n);
}

const DATE_STYLES = {
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
} as const;

/**
 * A value written as the widget's format says (numbers and dates through `Intl`, dates in `timeZone`), with its
 * prefix and suffix; `undefined` when the value cannot be written so (an object, a date that is none).
 */
export function formatValue(value: unknown, format: Format, timeZone?: string): string | undefined {
  const kind = format?.kind ?? 'text';
  let text: string | undefined;
  if (kind === 'text') {
    text = scalarText(value);
  } else if (kind === 'date' || kind === 'time' || kind === 'dateTime') {
    const ms = instantOf(value);
    text =
      ms === undefined
        ? undefined
        : inZone((zone) => new Intl.DateTimeFormat(LOCALE, { ...DATE_STYLES[kind], timeZone: zone }).format(ms), timeZone);
  } else {
    const n = numberOf(value);
    text = n === undefined || !format ? undefined : formatNumber(n, format);
  }

  return text === undefined ? undefined : `${format?.prefix ?? ''}${text}${format?.suffix ?? ''}`;
}

type Table = { columns: string[]; rows: Data[] };

/** A TABLE document `{columns, rows}`, or a LIST of objects (its columns: the keys of its first rows, in order). */
function tableOf(data: unknown): Table | undefined {
  if (isRecord(data) && Array.isArray(data.columns) && Array.isArray(data.rows)) {
    const columns = data.columns.filter((c): c is string => typeof c === 'string');

    return columns.length > 0 ? { columns, rows: data.rows.filter(isRecord) } : undefined;
  }
  if (!Array.isArray(data)) return undefined;
  const rows = data.filter(isRecord);
  const columns = new Set<string>();
  for (const row of rows.slice(0, 100)) for (const key of Object.keys(row)) if (columns.size < 50) columns.add(key);

  return columns.size > 0 ? { columns: [...columns], rows } : undefined;
}

type ListItem = { title?: string; summary?: string; imageUrl?: string };

/** An absolute http(s) address, or nothing (`javascript:`, `data:`, relative paths are refused). */
function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 4_096) return undefined;
  try {
    const url = new URL(value);

    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** A feed summary's markup as plain text (feeds often carry HTML there): tags dropped, entities read, spaces folded. */
function plainText(html: string): string {
  return html
    .slice(0, MAX_TEXT * 4)
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);

      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_TEXT);
}

function itemOf(value: unknown): ListItem | undefined {
  const text = scalarText(value);
  if (text !== undefined) return text ? { title: text } : undefined;
  if (!isRecord(value)) return undefined;
  const summary = scalarText(value.summary) ?? scalarText(value.description);
  const enclosure = Array.isArray(value.enclosures)
    ? value.enclosures.find((e) => isRecord(e) && typeof e.type === 'string' && e.type.startsWith('image/') && httpUrl(e.url))
    : undefined;
  const item: ListItem = {
    title: scalarText(value.title) ?? scalarText(value.name),
    summary: summary === undefined ? undefined : plainText(summary),
    imageUrl: httpUrl(value.imageUrl) ?? (isRecord(enclosure) ? httpUrl(enclosure.url) : undefined),
  };

  return item.title || item.summary || item.imageUrl ? item : undefined;
}

/** The items of a FEED (`{items}`) or a LIST (strings or objects), at most `max`; nothing when it is neither. */
function itemsOf(data: unknown, max = 100): ListItem[] | undefined {
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.items) ? data.items : undefined;
  if (!list) return undefined;
  const items: ListItem[] = [];
  for (const value of list) {
    if (items.length >= max) break;
    const item = itemOf(value);
    if (item) items.push(item);
  }

  return items;
}

/** A ticker's line: the titles of the items (or the strings of a LIST, or a single value), joined by ' • '. */
function tickerText(data: unknown, max = 100): string | undefined {
  const single = scalarText(data);
  if (single !== undefined) return single || undefined;
  const titles = (itemsOf(data, max) ?? []).map((item) => item.title).filter((t): t is string => Boolean(t));

  return titles.length > 0 ? titles.join(' • ') : undefined;
}

type CalendarEvent = { title: string; organizer: string; start: number; end: number; status: string; isStarted: boolean };

function eventTime(value: unknown): number | undefined {
  if (!isRecord(value)) return undefined;

  return numberOf(value.timeStamp) ?? instantOf(value.dateTime);
}

/** A LIST of calendar events (spec 5 §3); entries without a readable start and end are skipped. */
export function eventsOf(data: unknown): CalendarEvent[] | undefined {
  if (!Array.isArray(data)) return undefined;
  const events: CalendarEvent[] = [];
  for (const value of data.slice(0, 10_000)) {
    if (!isRecord(value)) continue;
    const start = eventTime(value.start);
    const end = eventTime(value.end);
    if (start === undefined || end === undefined || end <= start) continue;
    events.push({
      title: scalarText(value.title) ?? '',
      organizer: scalarText(value.organizer) ?? '',
      start,
      end,
      status: typeof value.status === 'string' ? value.status : 'CONFIRMED',
      isStarted: value.isStarted === true,
    });
  }

  return events;
}

/**
 * A room at `now`: the event under way (confirmed or started; cancelled ones do not count), the next one to start,
 * and, while the room is free, until when: the next event's start when it is on the same day in `timeZone`
 * (otherwise free for the rest of the day).
 */
export function roomState(
  events: readonly CalendarEvent[],
  now: number,
  timeZone?: string,
): { current?: CalendarEvent; next?: CalendarEvent; freeUntil?: number } {
  const live = events.filter((e) => e.status !== 'CANCELLED');
  const byStart = (a: CalendarEvent, b: CalendarEvent) => a.start - b.start;
  const current = live.filter((e) => (e.status === 'CONFIRMED' || e.isStarted) && e.start <= now && now < e.end).sort(byStart)[0];
  const next = live.filter((e) => e.start > now && e !== current).sort(byStart)[0];
  const freeUntil = !current && next && sameDay(next.start, now, timeZone) ? next.start : undefined;

  return { current, next, freeUntil };
}

function dayOf(ms: number, timeZone: string | undefined): string {
  return inZone(
    (zone) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone }).format(ms),
    timeZone,
  );
}

function sameDay(a: number, b: number, timeZone: string | undefined): boolean {
  return dayOf(a, timeZone) === dayOf(b, timeZone);
}

/** HH:mm in the zone, with the day in front when it is not today. */
function clockTime(ms: number, now: number, timeZone: string | undefined): string {
  const time = inZone(
    (zone) => new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(ms),
    timeZone,
  );
  if (sameDay(ms, now, timeZone)) return time;
  const day = inZone(
    (zone) => new Intl.DateTimeFormat(LOCALE, { weekday: 'short', day: 'numeric', month: 'short', timeZone: zone }).format(ms),
    timeZone,
  );

  return `${day} ${time}`;
}

/** What one draw puts in the widget; `turns`: pages or items to go through (more than one: the timer turns them). */
type View = { nodes: HTMLElement[]; hasData: boolean; turns: number; start?: () => Cleanup };

type Context = {
  doc: Document;
  widget: DatasourceWidget;
  width: number;
  timeZone?: string;
  now: number;
  words: RendererWords;
  step: number;
  /** The ticker goes on from where the previous line was. */
  marquee: { x?: number };
};

function textNode(doc: Document, text: string, style: Partial<CSSStyleDeclaration> = {}): HTMLElement {
  const node = el(doc, 'div', style);
  node.textContent = text;

  return node;
}

function placeholder(c: Context): View {
  return { nodes: [textNode(c.doc, c.widget.placeholder ?? '')], hasData: false, turns: 0 };
}

function headerCss(style: TextStyle): Partial<CSSStyleDeclaration> {
  return {
    fontWeight: style?.fontWeight ?? 'bold',
    ...(style?.fontFamily ? { fontFamily: style.fontFamily } : {}),
    ...(style?.fontSize ? { fontSize: `${style.fontSize}px` } : {}),
    ...(style?.italic ? { fontStyle: 'italic' } : {}),
    ...(style?.color ? { color: style.color } : {}),
    // A header cell is centred by browsers unless told: it follows the widget's alignment.
    textAlign: style?.align ?? 'inherit',
  };
}

const CELL: Partial<CSSStyleDeclaration> = {
  padding: '0.15em 0.4em',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
};

function tableView(c: Context, table: Table): View {
  const { doc, widget } = c;
  const wanted = widget.columns?.length ? widget.columns.filter((name) => table.columns.includes(name)) : table.columns;
  if (wanted.length === 0) return placeholder(c);
  const perPage = widget.rowsPerPage ?? DEFAULT_ROWS_PER_PAGE;
  const pages = Math.max(1, Math.ceil(table.rows.length / perPage));
  const page = c.step % pages;
  const element = el(doc, 'table', { width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed' });
  element.dataset.page = String(page);
  const head = el(doc, 'tr');
  for (const name of wanted) {
    const cell = el(doc, 'th', { ...CELL, ...headerCss(widget.headerStyle) });
    cell.textContent = name;
    head.appendChild(cell);
  }
  const thead = el(doc, 'thead', { borderBottom: '2px solid rgba(127, 127, 127, 0.6)' });
  thead.appendChild(head);
  const tbody = el(doc, 'tbody');
  table.rows.slice(page * perPage, (page + 1) * perPage).forEach((row, i) => {
    // Zebra rows in a grey both light and dark text stay readable on.
    const tr = el(doc, 'tr', { backgroundColor: i % 2 === 1 ? 'rgba(127, 127, 127, 0.15)' : '' });
    for (const name of wanted) {
      const cell = el(doc, 'td', CELL);
      cell.textContent = Object.hasOwn(row, name) ? (scalarText(row[name]) ?? '') : '';
      tr.appendChild(cell);
    }
    tbody.appendChild(tr);
  });
  element.append(thead, tbody);

  return { nodes: [element], hasData: true, turns: pages };
}

function listView(c: Context, items: ListItem[]): View {
  const { doc, widget } = c;
  if (items.length === 0) return placeholder(c);
  const index = c.step % items.length;
  const item = items[index]!;
  const box = el(doc, 'div', { display: 'flex', flexDirection: 'column', gap: '0.3em', minHeight: '0', maxHeight: '100%' });
  box.dataset.item = String(index);
  if (widget.showImage !== false && item.imageUrl) {
    const img = el(doc, 'img', { width: '100%', minHeight: '0', flex: '1 1 auto', objectFit: 'contain', display: 'block' });
    img.alt = '';
    img.referrerPolicy = 'no-referrer';
    img.src = item.imageUrl;
    box.appendChild(img);
  }
  if (widget.showTitle !== false && item.title) box.appendChild(textNode(doc, item.title, { fontWeight: 'bold' }));
  if (widget.showSummary !== false && item.summary) box.appendChild(textNode(doc, item.summary, { fontSize: '0.6em', opacity: '0.85' }));

  return box.childNodes.length > 0 ? { nodes: [box], hasData: true, turns: items.length } : placeholder(c);
}

function tickerView(c: Context, text: string): View {
  const line = marqueeLine(c.doc, text);

  return {
    nodes: [line],
    hasData: true,
    turns: 0,
    start: () => {
      const marquee: Marquee = scrollMarquee(line, { width: c.width, speed: c.widget.marqueeSpeed ?? 120, from: c.marquee.x });

      return () => {
        c.marquee.x = marquee.position();
        marquee.stop();
      };
    },
  };
}

function calendarView(c: Context, events: CalendarEvent[]): View {
  const { doc, words, now, timeZone } = c;
  const { current, next, freeUntil } = roomState(events, now, timeZone);
  const sign = el(doc, 'div', { display: 'flex', flexDirection: 'column', gap: '0.2em' });
  sign.dataset.room = current ? 'busy' : 'free';
  sign.appendChild(
    textNode(doc, current ? words.now : words.free, { fontWeight: 'bold', fontSize: '1.3em', color: current ? '#ef4444' : '#22c55e' }),
  );
  if (current) {
    sign.appendChild(textNode(doc, current.title, { fontWeight: 'bold' }));
    if (current.organizer) sign.appendChild(textNode(doc, current.organizer, { fontSize: '0.7em' }));
    sign.appendChild(textNode(doc, `${words.until} ${clockTime(current.end, now, timeZone)}`, { fontSize: '0.7em' }));
  } else if (freeUntil !== undefined) {
    sign.appendChild(textNode(doc, `${words.until} ${clockTime(freeUntil, now, timeZone)}`, { fontSize: '0.7em' }));
  }
  if (next) {
    const below = el(doc, 'div', { marginTop: '0.6em', fontSize: '0.6em', opacity: '0.85' });
    below.dataset.next = '';
    below.appendChild(textNode(doc, words.next, { fontWeight: 'bold' }));
    below.appendChild(textNode(doc, `${clockTime(next.start, now, timeZone)}–${clockTime(next.end, now, timeZone)} ${next.title}`.trim()));
    sign.appendChild(below);
  }

  return { nodes: [sign], hasData: true, turns: 0 };
}

function viewOf(c: Context, data: unknown): View {
  const { widget } = c;
  if (data === undefined) return placeholder(c);
  switch (widget.mode) {
    case 'text': {
      const text = formatValue(valueAt(data, widget.field), widget.format, c.timeZone);

      return text === undefined ? placeholder(c) : { nodes: [textNode(c.doc, text)], hasData: true, turns: 0 };
    }
    case 'table': {
      const table = tableOf(valueAt(data, widget.field));

      return table ? tableView(c, table) : placeholder(c);
    }
    case 'list': {
      const items = itemsOf(valueAt(data, widget.field), widget.maxItems);

      return items ? listView(c, items) : placeholder(c);
    }
    case 'ticker': {
      const text = tickerText(valueAt(data, widget.field), widget.maxItems);

      return text ? tickerView(c, text) : placeholder(c);
    }
    case 'calendar': {
      const events = eventsOf(data);

      return events ? calendarView(c, events) : placeholder(c);
    }
    default:
      return placeholder(c);
  }
}

/** Resolves once every image has decoded (or failed), or after `ms`: a swap then shows no half-loaded picture. */
function decoded(images: HTMLImageElement[], ms: number): Promise<void> {
  return Promise.race([
    Promise.all(images.map((img) => img.decode().catch(() => undefined))).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, ms)),
  ]);
}

/**
 * Fills `node` (the widget's box) and keeps it current: on each change of the datasource, on each turn of a table's
 * pages or a list's items, and each minute for a room sign. Timers and the subscription end with `cleanups`.
 */
export function renderDatasource({
  doc,
  node,
  widget,
  options,
  cleanups,
}: {
  doc: Document;
  node: HTMLElement;
  widget: DatasourceWidget;
  options: Pick<RenderOptions, 'datasources' | 'now' | 'timeZone' | 'words'>;
  cleanups: Cleanup[];
}): void {
  applyTextStyle(node, widget.textStyle);
  if (widget.mode === 'ticker') node.style.justifyContent = 'center';
  node.dataset.mode = widget.mode;
  const feed = options.datasources;
  const id = widget.datasourceId;
  const clock = options.now ?? Date.now;
  const words = { ...ENGLISH_WORDS, ...options.words };
  const marquee: { x?: number } = {};
  let step = 0;
  let turns = 0;
  let generation = 0;
  let stopView: Cleanup | undefined;
  let stopped = false;

  const draw = () => {
    if (stopped) return;
    let view: View;
    const c: Context = { doc, widget, width: widget.width, timeZone: options.timeZone, now: clock(), words, step, marquee };
    try {
      view = viewOf(c, id && feed ? feed.read(id) : undefined);
    } catch {
      // Whatever the data holds, the screen goes on: the placeholder.
      view = placeholder(c);
    }
    const mine = ++generation;
    const swap = () => {
      if (stopped || mine !== generation) return;
      stopView?.();
      node.replaceChildren(...view.nodes);
      node.dataset.state = view.hasData ? 'data' : 'placeholder';
      turns = view.turns;
      stopView = view.start?.();
    };
    const images = view.nodes.flatMap((n) => [...n.querySelectorAll('img')]).filter((img) => typeof img.decode === 'function');
    if (images.length > 0 && node.childNodes.length > 0) void decoded(images, IMAGE_WAIT_MS).then(swap);
    else swap();
  };

  draw();
  if (feed && id) cleanups.push(feed.subscribe(id, draw));
  const turnSeconds = widget.mode === 'table' ? widget.pageSeconds : widget.mode === 'list' ? widget.itemSeconds : undefined;
  if (widget.mode === 'table' || widget.mode === 'list') {
    const timer = setInterval(
      () => {
        if (turns < 2) return;
        step = (step + 1) % turns;
        draw();
      },
      (turnSeconds ?? DEFAULT_TURN_SECONDS) * 1000,
    );
    cleanups.push(() => clearInterval(timer));
  }
  if (widget.mode === 'calendar') {
    // On each minute of the (server's) clock: an event starting at 10:00 shows at 10:00, not up to a minute later.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      draw();
      timer = setTimeout(tick, 60_000 - (clock() % 60_000) + 20);
    };
    timer = setTimeout(tick, 60_000 - (clock() % 60_000) + 20);
    cleanups.push(() => clearTimeout(timer));
  }
  cleanups.push(() => {
    stopped = true;
    stopView?.();
  });
}
