import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatasourceWidget, Page } from '@/server/modules/content/content-data.schemas';
import { formatValue, roomState, eventsOf, valueAt, type DatasourceFeed } from './datasource-widget';
import { fake, fakeDocument, type FakeElement } from './fake-dom';
import { renderPage, type RenderOptions } from './render';

/** A feed the test fills: `set` changes a datasource's data and tells its subscribers, as the player's store does. */
class TestFeed implements DatasourceFeed {
  private readonly data = new Map<string, unknown>();
  readonly listeners = new Map<string, Set<() => void>>();

  read(id: string): unknown {
    return this.data.get(id);
  }

  subscribe(id: string, onChange: () => void): () => void {
    const set = this.listeners.get(id) ?? new Set();
    set.add(onChange);
    this.listeners.set(id, set);

    return () => set.delete(onChange);
  }

  set(id: string, data: unknown): void {
    this.data.set(id, data);
    this.listeners.get(id)?.forEach((listener) => listener());
  }

  subscribers(id: string): number {
    return this.listeners.get(id)?.size ?? 0;
  }
}

const BERLIN = 'Europe/Berlin';
/** Tuesday 3 March 2026, 09:30 in Berlin (CET, UTC+1). */
const NOW = Date.UTC(2026, 2, 3, 8, 30);
const berlin = (hh: number, mm: number, day = 3) => Date.UTC(2026, 2, day, hh - 1, mm);

type Shown = { node: FakeElement; feed: TestFeed; stop: () => void };

function show(
  widget: Partial<DatasourceWidget> & Pick<DatasourceWidget, 'mode'>,
  data?: unknown,
  options: Partial<RenderOptions> = {},
  doc = fakeDocument(),
): Shown {
  const feed = new TestFeed();
  if (data !== undefined) feed.set('ds', data);
  const page: Page = {
    name: 'Default',
    pageData: { screenSize: { width: 1920, height: 1080 } },
    widgets: [
      { id: 'w1', x: 0, y: 0, width: 800, height: 400, zIndex: 0, datasourceId: 'ds', placeholder: '—', ...widget, type: 'datasource' },
    ],
  };
  const { element, stop } = renderPage(doc, page, {
    fileUrl: () => '',
    datasources: feed,
    timeZone: BERLIN,
    now: () => NOW,
    ...options,
  });
  const node = fake(element).querySelector('[data-widget-id="w1"]');
  if (!node) throw new Error('the widget was not drawn');

  return { node, feed, stop };
}

const rows = (node: FakeElement) => node.querySelectorAll('tr').map((tr) => tr.children.map((cell) => cell.textContent));
const texts = (node: FakeElement) => node.querySelectorAll('div').map((d) => d.textContent);

beforeEach(() => {
  vi.useFakeTimers();
  // One animation frame every 16 ms of the fake clock (the ticker's step).
  vi.stubGlobal('requestAnimationFrame', (step: (t: number) => void) => setTimeout(() => step(performance.now()), 16));
  vi.stubGlobal('cancelAnimationFrame', (frame: ReturnType<typeof setTimeout>) => clearTimeout(frame));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the value of a dot path', () => {
  it('steps through objects by their own keys and arrays by index', () => {
    const data = { price: 3, rooms: [{ name: 'A' }, { name: 'B' }, { name: 'C' }], rows: [{ price: 9 }] };
    expect(valueAt(data, 'price')).toBe(3);
    expect(valueAt(data, 'rooms.2.name')).toBe('C');
    expect(valueAt(data, 'rows.0.price')).toBe(9);
    expect(valueAt(data, 'rooms.x')).toBeUndefined();
    expect(valueAt(data, 'rooms.9.name')).toBeUndefined();
    expect(valueAt(data, 'constructor')).toBeUndefined();
    expect(valueAt(data, '__proto__')).toBeUndefined();
    expect(valueAt(data, 'price.toFixed')).toBeUndefined();
    expect(valueAt(data, undefined)).toBe(data);
  });
});

describe('formatting a value', () => {
  const at = Date.UTC(2026, 6, 1, 10, 5);

  it('writes numbers, amounts and shares with their decimals, prefix and suffix', () => {
    expect(formatValue(12.5, undefined)).toBe('12.5');
    expect(formatValue('12.5', { kind: 'number', decimals: 2 })).toBe('12.50');
    expect(formatValue(1234.5, { kind: 'currency', currency: 'EUR' })).toBe('€1,234.50');
    expect(formatValue(1234.5, { kind: 'currency' })).toBe('1,234.50');
    expect(formatValue(0.256, { kind: 'percent', decimals: 1 })).toBe('25.6%');
    expect(formatValue(21, { kind: 'number', prefix: 'Room ', suffix: ' °C' })).toBe('Room 21 °C');
  });

  it("writes dates from epoch milliseconds or ISO text in the screen's zone", () => {
    expect(formatValue(at, { kind: 'time' }, BERLIN)).toBe('12:05');
    expect(formatValue(String(at), { kind: 'date' }, BERLIN)).toBe('1 Jul 2026');
    expect(formatValue('2026-07-01T10:05:00Z', { kind: 'dateTime' }, 'America/New_York')).toBe('1 Jul 2026, 06:05');
    // An unknown zone is the browser's own rather than nothing.
    expect(formatValue(at, { kind: 'date' }, 'Mars/Olympus')).toBe('1 Jul 2026');
  });

  it('answers nothing for what cannot be written so', () => {
    expect(formatValue({ a: 1 }, undefined)).toBeUndefined();
    expect(formatValue(null, undefined)).toBeUndefined();
    expect(formatValue('soon', { kind: 'date' })).toBeUndefined();
    expect(formatValue('many', { kind: 'number' })).toBeUndefined();
    expect(formatValue(Number.NaN, undefined)).toBeUndefined();
  });
});

describe('text mode', () => {
  it('shows the formatted value at the field of a KEY_VALUE, a TABLE or a LIST', () => {
    expect(show({ mode: 'text', field: 'price', format: { kind: 'currency', currency: 'EUR' } }, { price: 3.2 }).node.textContent).toBe(
      '€3.20',
    );
    expect(show({ mode: 'text', field: 'rows.1.name' }, { columns: ['name'], rows: [{ name: 'A' }, { name: 'B' }] }).node.textContent).toBe(
      'B',
    );
    expect(show({ mode: 'text', field: '1' }, ['first', 'second']).node.textContent).toBe('second');
    expect(show({ mode: 'text', field: 'ok' }, { ok: true }).node.dataset.state).toBe('data');
  });

  it('shows the placeholder without a datasource, without data, or when the field holds no value', () => {
    expect(show({ mode: 'text', field: 'price', datasourceId: undefined }, { price: 1 }).node.textContent).toBe('—');
    expect(show({ mode: 'text', field: 'price' }).node.textContent).toBe('—');
    expect(show({ mode: 'text', field: 'price' }, { price: 1 }, { datasources: undefined }).node.textContent).toBe('—');
    const object = show({ mode: 'text', field: 'price' }, { price: { amount: 1 } });
    expect(object.node.textContent).toBe('—');
    expect(object.node.dataset.state).toBe('placeholder');
  });
});

describe('table mode', () => {
  const table = {
    columns: ['name', 'price', 'stock'],
    rows: [
      { name: 'Tea', price: 2, stock: 10 },
      { name: 'Coffee', price: 3, stock: 0 },
    ],
  };

  it("draws the TABLE's columns (or those chosen, in their order) with zebra rows", () => {
    const all = show({ mode: 'table' }, table).node;
    expect(rows(all)).toEqual([
      ['name', 'price', 'stock'],
      ['Tea', '2', '10'],
      ['Coffee', '3', '0'],
    ]);
    expect(all.querySelectorAll('th')).toHaveLength(3);
    const body = all.querySelectorAll('tbody')[0]!.children;
    expect(body[0]!.style.backgroundColor).toBe('');
    expect(body[1]!.style.backgroundColor).not.toBe('');
    const chosen = show({ mode: 'table', columns: ['price', 'name', 'missing'], headerStyle: { color: '#ff0000' } }, table).node;
    expect(rows(chosen)[0]).toEqual(['price', 'name']);
    expect(chosen.querySelectorAll('th')[0]!.style.color).toBe('#ff0000');
  });

  it('draws a LIST of objects with their keys as columns; other documents show the placeholder', () => {
    expect(
      rows(
        show({ mode: 'table' }, [
          { id: 1, name: 'Lobby' },
          { id: 2, name: 'Hall', floor: 3 },
        ]).node,
      ),
    ).toEqual([
      ['id', 'name', 'floor'],
      ['1', 'Lobby', ''],
      ['2', 'Hall', '3'],
    ]);
    expect(show({ mode: 'table' }, { price: 3 }).node.textContent).toBe('—');
    expect(show({ mode: 'table' }, { items: [{ title: 'x' }] }).node.textContent).toBe('—');
    expect(show({ mode: 'table' }, ['a', 'b']).node.textContent).toBe('—');
    expect(show({ mode: 'table', columns: ['nothing'] }, table).node.textContent).toBe('—');
  });

  it('turns its pages every pageSeconds, back to the first after the last', () => {
    const many = { columns: ['n'], rows: Array.from({ length: 25 }, (_, i) => ({ n: i + 1 })) };
    const { node } = show({ mode: 'table', rowsPerPage: 10, pageSeconds: 5 }, many);
    const firstColumn = () =>
      rows(node)
        .slice(1)
        .map((r) => r[0]);
    expect(firstColumn()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    vi.advanceTimersByTime(4_999);
    expect(firstColumn()[0]).toBe('1');
    vi.advanceTimersByTime(1);
    expect(firstColumn()[0]).toBe('11');
    vi.advanceTimersByTime(5_000);
    expect(firstColumn()).toEqual(['21', '22', '23', '24', '25']);
    vi.advanceTimersByTime(5_000);
    expect(firstColumn()[0]).toBe('1');
  });
});

describe('list mode', () => {
  const feed = {
    title: 'News',
    items: [
      { id: '1', title: 'First', summary: '<p>Hello &amp; <b>welcome</b></p>', imageUrl: 'https://img.example/1.jpg' },
      { id: '2', title: 'Second', enclosures: [{ url: 'https://img.example/2.png', type: 'image/png' }] },
      { id: '3', title: 'Third' },
    ],
  };

  it('shows FEED items one at a time in turn: title, summary as text, image', () => {
    const { node } = show({ mode: 'list', itemSeconds: 4 }, feed);
    expect(texts(node)).toContain('First');
    expect(texts(node)).toContain('Hello & welcome');
    expect(node.querySelectorAll('img').map((img) => img.src)).toEqual(['https://img.example/1.jpg']);
    expect(node.querySelectorAll('b')).toHaveLength(0);
    vi.advanceTimersByTime(4_000);
    expect(texts(node)).toContain('Second');
    expect(node.querySelectorAll('img').map((img) => img.src)).toEqual(['https://img.example/2.png']);
    vi.advanceTimersByTime(8_000);
    expect(texts(node)).toContain('First');
  });

  it('shows the strings of a LIST, at most maxItems, and only the parts asked for', () => {
    const { node } = show({ mode: 'list', itemSeconds: 2, maxItems: 2 }, ['Alpha', 'Beta', 'Gamma']);
    expect(node.textContent).toBe('Alpha');
    vi.advanceTimersByTime(2_000);
    expect(node.textContent).toBe('Beta');
    vi.advanceTimersByTime(2_000);
    expect(node.textContent).toBe('Alpha');
    const bare = show({ mode: 'list', showImage: false, showSummary: false }, feed).node;
    expect(bare.textContent).toBe('First');
    expect(bare.querySelectorAll('img')).toHaveLength(0);
  });

  it('shows the placeholder for a KEY_VALUE or a TABLE', () => {
    expect(show({ mode: 'list' }, { price: 1 }).node.textContent).toBe('—');
    expect(show({ mode: 'list' }, { columns: ['a'], rows: [{ a: 1 }] }).node.textContent).toBe('—');
    expect(show({ mode: 'list' }, []).node.textContent).toBe('—');
  });
});

describe('ticker mode', () => {
  it("scrolls the FEED's titles, a LIST's strings or a field's value, separated by bullets", () => {
    expect(show({ mode: 'ticker' }, { items: [{ title: 'One' }, { title: 'Two' }] }).node.textContent).toBe('One • Two');
    expect(show({ mode: 'ticker', maxItems: 2 }, ['a', 'b', 'c']).node.textContent).toBe('a • b');
    expect(show({ mode: 'ticker', field: 'headline' }, { headline: 'Breaking' }).node.textContent).toBe('Breaking');
    expect(show({ mode: 'ticker' }, { headline: 'Breaking' }).node.textContent).toBe('—');
  });

  it('moves right to left and goes on from where it was when the data changes', () => {
    const { node, feed } = show({ mode: 'ticker', marqueeSpeed: 100 }, ['old news']);
    const line = () => node.querySelectorAll('span')[0]!;
    expect(line().style.transform).toBe('translateX(800px)');
    vi.advanceTimersByTime(1_000);
    const x = Number(/-?[\d.]+/.exec(line().style.transform ?? '')?.[0]);
    expect(x).toBeLessThan(800);
    feed.set('ds', ['new news']);
    expect(line().textContent).toBe('new news');
    expect(line().style.transform).toBe(`translateX(${x}px)`);
  });
});

describe('calendar mode', () => {
  const event = (title: string, from: number, to: number, extra: Record<string, unknown> = {}) => ({
    id: title,
    status: 'CONFIRMED',
    title,
    organizer: `${title} organiser`,
    start: { dateTime: new Date(from).toISOString(), timeStamp: from },
    end: { dateTime: new Date(to).toISOString(), timeStamp: to },
    ...extra,
  });
  const day = [
    event('Standup', berlin(9, 0), berlin(10, 0)),
    event('Cancelled', berlin(9, 15), berlin(9, 45), { status: 'CANCELLED' }),
    event('Review', berlin(10, 30), berlin(11, 0)),
    event('Tomorrow', berlin(9, 0, 4), berlin(9, 30, 4)),
  ];

  it('finds the event under way, the next one and until when the room is free; cancelled ones do not count', () => {
    const events = eventsOf(day)!;
    expect(roomState(events, NOW, BERLIN).current?.title).toBe('Standup');
    expect(roomState(events, NOW, BERLIN).next?.title).toBe('Review');
    expect(roomState(events, berlin(10, 10), BERLIN)).toMatchObject({ current: undefined, freeUntil: berlin(10, 30) });
    // After the last event of the day: free for the rest of it, tomorrow's is next.
    expect(roomState(events, berlin(12, 0), BERLIN)).toMatchObject({
      current: undefined,
      freeUntil: undefined,
      next: { title: 'Tomorrow' },
    });
    expect(roomState(eventsOf([day[1]])!, berlin(9, 20), BERLIN).current).toBeUndefined();
    // A tentative (not confirmed) event is not "now" until started.
    const suspended = eventsOf([event('Hold', berlin(9, 0), berlin(10, 0), { status: 'SUSPENDED' })])!;
    expect(roomState(suspended, NOW, BERLIN).current).toBeUndefined();
    expect(
      roomState(eventsOf([event('Hold', berlin(9, 0), berlin(10, 0), { status: 'SUSPENDED', isStarted: true })])!, NOW).current,
    ).toBeDefined();
  });

  it('shows the room sign: now, the organiser, until when, and the next event', () => {
    const { node } = show({ mode: 'calendar' }, day);
    expect(node.querySelector('[data-room]')!.dataset.room).toBe('busy');
    const shown = texts(node);
    expect(shown).toEqual(expect.arrayContaining(['Now', 'Standup', 'Standup organiser', 'until 10:00', 'Next', '10:30–11:00 Review']));
  });

  it('shows Free until the next event, or Free alone for the rest of the day, in the words given', () => {
    const free = show({ mode: 'calendar' }, day, { now: () => berlin(10, 10), words: { free: 'Frei', until: 'bis', next: 'Danach' } }).node;
    expect(texts(free)).toEqual(expect.arrayContaining(['Frei', 'bis 10:30', 'Danach', '10:30–11:00 Review']));
    const evening = show({ mode: 'calendar' }, day, { now: () => berlin(18, 0) }).node;
    expect(texts(evening)).toContain('Free');
    expect(texts(evening).some((t) => t.startsWith('until'))).toBe(false);
    expect(texts(evening)).toContain('Wed 4 Mar 09:00–Wed 4 Mar 09:30 Tomorrow');
  });

  it('is drawn again on each minute of the clock', () => {
    let now = berlin(9, 59, 3) + 30_000;
    const { node } = show({ mode: 'calendar' }, day, { now: () => now });
    expect(node.querySelector('[data-room]')!.dataset.room).toBe('busy');
    now += 31_000;
    vi.advanceTimersByTime(31_000);
    expect(node.querySelector('[data-room]')!.dataset.room).toBe('free');
    expect(texts(node)).toContain('until 10:30');
  });

  it('shows the placeholder for data that is not a list of events', () => {
    expect(show({ mode: 'calendar' }, { items: [] }).node.textContent).toBe('—');
    expect(show({ mode: 'calendar' }, 'today').node.textContent).toBe('—');
  });
});

describe('live data', () => {
  it('draws a change into the same box with one replaceChildren, from the placeholder to data and back', () => {
    const { node, feed } = show({ mode: 'text', field: 'temperature', format: { kind: 'number', suffix: ' °C' } });
    const swaps = vi.spyOn(node, 'replaceChildren');
    expect(node.textContent).toBe('—');
    feed.set('ds', { temperature: 21 });
    expect(node.textContent).toBe('21 °C');
    expect(swaps).toHaveBeenCalledTimes(1);
    feed.set('ds', { temperature: 22 });
    expect(node.textContent).toBe('22 °C');
    expect(swaps).toHaveBeenCalledTimes(2);
    feed.set('ds', { humidity: 40 });
    expect(node.textContent).toBe('—');
    expect(node.dataset.state).toBe('placeholder');
  });

  it('shows the next item once its image has decoded (at most a second later), never an empty box', async () => {
    let decoded = () => {};
    const decode = () => new Promise<void>((resolve) => (decoded = resolve));
    const items = [
      { title: 'One', imageUrl: 'https://img.example/1.jpg' },
      { title: 'Two', imageUrl: 'https://img.example/2.jpg' },
      { title: 'Three', imageUrl: 'https://img.example/3.jpg' },
    ];
    const { node } = show({ mode: 'list', itemSeconds: 5 }, items, {}, fakeDocument({ decode }));
    expect(texts(node)).toContain('One');
    vi.advanceTimersByTime(5_000);
    expect(texts(node)).toContain('One');
    decoded();
    await vi.advanceTimersByTimeAsync(0);
    expect(texts(node)).toContain('Two');
    // An image that never decodes holds the old item one second at most.
    vi.advanceTimersByTime(5_000);
    expect(texts(node)).toContain('Two');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(texts(node)).toContain('Three');
  });

  it('keeps its page of a table across data changes', () => {
    const data = (n: number) => ({ columns: ['n'], rows: Array.from({ length: n }, (_, i) => ({ n: i + 1 })) });
    const { node, feed } = show({ mode: 'table', rowsPerPage: 2, pageSeconds: 10 }, data(6));
    vi.advanceTimersByTime(10_000);
    feed.set('ds', data(7));
    expect(rows(node)[1]).toEqual(['3']);
  });

  it('ends its timers and its subscription when the page goes', () => {
    const { feed, stop } = show({ mode: 'table', pageSeconds: 5 }, { columns: ['a'], rows: [] });
    expect(feed.subscribers('ds')).toBe(1);
    stop();
    expect(feed.subscribers('ds')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    const ticker = show({ mode: 'ticker' }, ['x']);
    ticker.stop();
    expect(vi.getTimerCount()).toBe(0);
    const sign = show({ mode: 'calendar' }, []);
    sign.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('hostile data', () => {
  it('writes markup as text and never loads a script address as an image', () => {
    const attack = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const text = show({ mode: 'text', field: 'v' }, { v: attack }).node;
    expect(text.textContent).toBe(attack);
    expect(text.querySelectorAll('img')).toHaveLength(0);
    const list = show({ mode: 'list' }, { items: [{ title: attack, imageUrl: 'javascript:alert(1)' }] }).node;
    expect(list.textContent).toContain(attack);
    expect(list.querySelectorAll('img')).toHaveLength(0);
    expect(show({ mode: 'list' }, [{ title: 'x', imageUrl: 'data:image/svg+xml,<svg/>' }]).node.querySelectorAll('img')).toHaveLength(0);
    const cells = show({ mode: 'table' }, { columns: ['a'], rows: [{ a: attack }] }).node;
    expect(cells.querySelectorAll('script')).toHaveLength(0);
    expect(rows(cells)[1]).toEqual([attack]);
  });

  it('pages 10 000 rows without drawing them all', () => {
    const big = { columns: ['n', 'label'], rows: Array.from({ length: 10_000 }, (_, i) => ({ n: i, label: `row ${i}` })) };
    const { node } = show({ mode: 'table', rowsPerPage: 20, pageSeconds: 2 }, big);
    expect(node.querySelectorAll('tr')).toHaveLength(21);
    vi.advanceTimersByTime(2_000 * 499);
    expect(rows(node)[1]).toEqual(['9980', 'row 9980']);
    vi.advanceTimersByTime(2_000);
    expect(rows(node)[1]).toEqual(['0', 'row 0']);
  });

  it('shows the placeholder for data of the wrong shapes and for a feed that throws', () => {
    const shapes = [null, 42, 'x', { columns: 5, rows: 'x' }, [[1, 2]], { items: 'x' }, { deep: { deeper: [{}] } }];
    const shown = (mode: DatasourceWidget['mode']) =>
      shapes.map((data) => show({ mode, field: mode === 'text' ? 'a.b' : undefined }, data).node.textContent);
    expect(shown('text')).toEqual(Array(7).fill('—'));
    expect(shown('table')).toEqual(Array(7).fill('—'));
    expect(shown('list')).toEqual(Array(7).fill('—'));
    expect(shapes.map((data) => show({ mode: 'ticker' }, data).node.textContent)).toEqual(['—', '42', 'x', '—', '—', '—', '—']);
    // A list without one readable event is a calendar with nothing booked.
    expect(shapes.map((data) => show({ mode: 'calendar' }, data).node.textContent)).toEqual(['—', '—', '—', '—', 'Free', '—', '—']);
    const broken: DatasourceFeed = {
      read: () => {
        throw new Error('corrupt');
      },
      subscribe: () => () => undefined,
    };
    expect(show({ mode: 'text' }, undefined, { datasources: broken }).node.textContent).toBe('—');
  });
});
