import { describe, expect, it } from 'vitest';
import { httpUrl, objectColumns, peekLines, plainSummary, shapeOf } from './data-shapes';

const event = (id: string, start: number, extra: Record<string, unknown> = {}) => ({
  id,
  status: 'CONFIRMED',
  title: `Meeting ${id}`,
  isStarted: false,
  start: { dateTime: new Date(start).toISOString(), timeStamp: start },
  end: { dateTime: new Date(start + 3_600_000).toISOString(), timeStamp: start + 3_600_000 },
  attendees: [],
  ...extra,
});

describe('shapeOf', () => {
  it('shows nothing for no document', () => {
    expect(shapeOf('CUSTOM', null)).toEqual({ kind: 'empty' });
    expect(shapeOf('TABLE', { columns: [], rows: [] })).toEqual({ kind: 'empty' });
    expect(shapeOf('LIST', [])).toEqual({ kind: 'empty' });
    expect(shapeOf('KEY_VALUE', {})).toEqual({ kind: 'empty' });
    expect(shapeOf('FEED', { title: 'News', items: [] })).toEqual({ kind: 'empty' });
  });

  it('reads a TABLE as its columns in order and its rows', () => {
    const doc = { columns: ['b', 'a'], rows: [{ a: 1, b: 2 }] };
    expect(shapeOf('TABLE', doc)).toEqual({ kind: 'table', columns: ['b', 'a'], rows: [{ a: 1, b: 2 }] });
  });

  it('reads a LIST of calendar events as events by start, and any other LIST as a list', () => {
    const shape = shapeOf('LIST', [event('2', 2_000_000), event('1', 1_000_000, { organizer: 'Ada', status: 'CANCELLED' })]);
    expect(shape).toMatchObject({
      kind: 'events',
      events: [
        { id: '1', title: 'Meeting 1', organizer: 'Ada', status: 'CANCELLED', start: 1_000_000, end: 4_600_000 },
        { id: '2', start: 2_000_000 },
      ],
    });
    expect(shapeOf('LIST', [event('1', 0), 'plain'])).toEqual({ kind: 'list', items: [event('1', 0), 'plain'] });
  });

  it('reads a FEED with links and images from http(s) only and summaries as text', () => {
    const shape = shapeOf('FEED', {
      title: 'News',
      items: [
        { id: 'a', title: 'One', link: 'javascript:alert(1)', imageUrl: 'data:image/png;base64,AA', summary: '<b>Bold</b> &amp; more' },
        {
          id: 'b',
          title: 'Two',
          link: 'https://example.com/two',
          published: 5,
          enclosures: [{ url: 'https://example.com/two.jpg', type: 'image/jpeg' }],
        },
        'not an item',
      ],
    });
    expect(shape).toEqual({
      kind: 'feed',
      title: 'News',
      items: [
        { id: 'a', title: 'One', link: undefined, published: undefined, summary: 'Bold & more', imageUrl: undefined },
        {
          id: 'b',
          title: 'Two',
          link: 'https://example.com/two',
          published: 5,
          summary: undefined,
          imageUrl: 'https://example.com/two.jpg',
        },
      ],
    });
  });

  it('reads a KEY_VALUE object as its entries', () => {
    expect(shapeOf('KEY_VALUE', { a: 1, b: 'x' })).toEqual({
      kind: 'keyValue',
      entries: [
        ['a', 1],
        ['b', 'x'],
      ],
    });
  });

  it('shows CUSTOM data, and data that does not fit its structure, as JSON', () => {
    expect(shapeOf('CUSTOM', { any: [1] })).toEqual({ kind: 'json', value: { any: [1] } });
    expect(shapeOf('TABLE', { columns: 'a', rows: [] })).toMatchObject({ kind: 'json' });
    expect(shapeOf('FEED', [1])).toMatchObject({ kind: 'json' });
    expect(shapeOf('KEY_VALUE', [1])).toMatchObject({ kind: 'json' });
    expect(shapeOf('LIST', { a: 1 })).toMatchObject({ kind: 'json' });
  });
});

describe('helpers', () => {
  it('httpUrl takes http and https only', () => {
    expect(httpUrl('https://a.example/x')).toBe('https://a.example/x');
    expect(httpUrl('javascript:alert(1)')).toBeUndefined();
    expect(httpUrl('not a url')).toBeUndefined();
    expect(httpUrl(5)).toBeUndefined();
  });

  it('plainSummary drops tags, decodes entities and cuts long text', () => {
    expect(plainSummary('<p>A&nbsp;&lt;b&gt; &#233;&#x41;</p>\n\n<script>x</script>')).toBe('A <b> éA x');
    expect(plainSummary('x'.repeat(1000))).toHaveLength(400);
  });

  it('objectColumns lists the keys of a list of objects, first seen first', () => {
    expect(
      objectColumns([
        { id: 1, name: 'a' },
        { id: 2, size: 3 },
      ]),
    ).toEqual(['id', 'name', 'size']);
    expect(objectColumns([{ id: 1 }, 'x'])).toBeUndefined();
    expect(objectColumns([{ a: 1, b: 2, c: 3 }], 2)).toEqual(['a', 'b']);
  });

  it('peekLines says what the data holds in a few lines', () => {
    expect(peekLines(shapeOf('TABLE', { columns: ['a', 'b'], rows: [{ a: 1, b: 'x' }, { a: 2 }] }))).toEqual(['1 · x', '2 · ']);
    expect(peekLines(shapeOf('FEED', { items: [{ id: '1', title: 'T' }] }))).toEqual(['T']);
    expect(peekLines(shapeOf('LIST', ['a', { name: 'n' }, { x: 1 }, 'd']))).toEqual(['a', 'n', '{"x":1}']);
    expect(peekLines(shapeOf('KEY_VALUE', { a: 1 }))).toEqual(['a: 1']);
    expect(peekLines(shapeOf('CUSTOM', null))).toEqual([]);
  });
});
