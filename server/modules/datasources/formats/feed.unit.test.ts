import { describe, expect, it } from 'vitest';
import { parseFeed } from './feed';
import { expectReadable, fixture, formatErrorOf } from './formats.test-kit';
import type { Feed } from './types';

const NOW = Date.UTC(2026, 2, 16, 9, 0);
const DAY = 86_400_000;

function rss(items: string[], channelTitle = 'Test channel'): Buffer {
  return Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>${channelTitle}</title>${items.join('')}</channel></rss>`);
}

function rssItem(id: string, published: number, title = `Item ${id}`): string {
  return `<item><title>${title}</title><guid isPermaLink="false">${id}</guid><pubDate>${new Date(published).toUTCString()}</pubDate></item>`;
}

describe('parseFeed: RSS 2.0', () => {
  const feed = parseFeed(fixture('rss-city-news.xml'), { now: NOW });

  it('reads the channel and its items, newest first', () => {
    expect(feed.title).toBe('Riverside Council & Community News');
    expect(feed.link).toBe('https://news.riverside.example/');
    expect(feed.items.map((item) => item.title)).toEqual([
      'Bridge Street closed for resurfacing this weekend',
      'Library opening hours over Easter',
      'Council meeting podcast: March session',
      'Weekly bin collection reminder',
    ]);
  });

  it('takes the id from guid, else link, else a hash of title and date', () => {
    expect(feed.items.map((item) => item.id)).toEqual([
      'riverside-news-4821',
      'https://news.riverside.example/2026/03/library-easter',
      'https://news.riverside.example/2026/03/podcast-march',
      expect.stringMatching(/^sha256:[0-9a-f]{32}$/),
    ]);
    // the hash is the same on the next refresh
    expect(parseFeed(fixture('rss-city-news.xml'), { now: NOW + DAY }).items[3]?.id).toBe(feed.items[3]?.id);
  });

  it('reads RFC 822 dates with offsets and zone names as epoch milliseconds', () => {
    expect(feed.items[0]?.published).toBe(Date.UTC(2026, 2, 16, 7, 30));
    expect(feed.items[1]?.published).toBe(Date.UTC(2026, 2, 13, 16, 0));
    expect(feed.items[2]?.published).toBe(Date.UTC(2026, 2, 13, 0, 45)); // 19:45 EST
  });

  it('strips HTML from title and summary, and names the author', () => {
    const [closure, library] = feed.items;
    expect(closure?.summary).toBe('Bridge Street will be closed between the station and Mill Lane from Saturday 06:00.');
    expect(closure?.author).toBe('Planning Office');
    expect(library?.summary).toBe('The library closes at 13:00 on Good Friday & reopens on Tuesday.');
    expect(library?.author).toBe('Central Library');
  });

  it('keeps content as sanitized HTML: no scripts, styles, frames, event attributes or javascript: links', () => {
    const content = feed.items[0]?.content ?? '';
    expect(content).toContain('<strong>closed</strong>');
    expect(content).toContain('<img src="https://news.riverside.example/media/2026/bridge.jpg" alt="Bridge Street">');
    expect(content).toContain('<a href="https://news.riverside.example/2026/03/diversions">diversions</a>');
    expect(content).not.toMatch(/script|cookie|<style|display: none|onclick|onerror|javascript:|iframe/i);
  });

  it('finds enclosures and the picture (media:content before a thumbnail, else an image enclosure)', () => {
    expect(feed.items[0]?.imageUrl).toBe('https://cdn.riverside.example/photos/bridge-1200.jpg');
    expect(feed.items[1]?.imageUrl).toBe('https://cdn.riverside.example/img/library.png');
    expect(feed.items[1]?.enclosures).toEqual([
      { url: 'https://cdn.riverside.example/pdf/easter-hours.pdf', type: 'application/pdf', length: 48213 },
      { url: 'https://cdn.riverside.example/img/library.png', type: 'image/png', length: 120400 },
    ]);
    expect(feed.items[2]?.enclosures).toEqual([
      { url: 'https://cdn.riverside.example/audio/march.mp3', type: 'audio/mpeg', length: 31457280 },
    ]);
    expect(feed.items[2]?.imageUrl).toBeUndefined();
  });

  it('takes the first <img> of the content when the feed names no picture', () => {
    const body = rss([
      `<item><guid>a</guid><title>A</title><description><![CDATA[<p>Hi</p><img src="https://img.example/a.png"><img src="https://img.example/b.png">]]></description></item>`,
    ]);
    expect(parseFeed(body, { now: NOW }).items[0]?.imageUrl).toBe('https://img.example/a.png');
  });

  it('keeps the text of unescaped markup inside title and description', () => {
    const body = rss([
      '<item><guid>raw</guid><title>Hello <b>World</b></title><description><p>Doors open at <b>9</b>.</p><img src="https://img.example/door.jpg"/></description></item>',
    ]);
    expect(parseFeed(body, { now: NOW }).items[0]).toMatchObject({
      title: 'Hello World',
      summary: 'Doors open at 9.',
      imageUrl: 'https://img.example/door.jpg',
    });
  });

  it('reads an ISO-8859-1 feed by its XML declaration', () => {
    const latin = parseFeed(fixture('rss-latin1.xml'), { now: NOW });
    expect(latin.title).toBe('Café Müller');
    expect(latin.items[0]).toMatchObject({ title: 'Grüße aus Köln – Frühstück', summary: 'Crème brûlée für 4,50 €' });
  });

  // The timeout is a limit against hangs on a loaded machine (about 3 s alone), not a timing assertion.
  it('parses 10 000 items (about 10 MiB) and keeps them newest first', { timeout: 60_000 }, () => {
    const base = Date.UTC(2026, 0, 1);
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(14);
    // written oldest first, so the order of the answer comes from the dates
    const items = Array.from(
      { length: 10_000 },
      (_, index) =>
        `<item><title>Story ${index}</title><link>https://news.example/${index}</link><guid>story-${index}</guid>` +
        `<pubDate>${new Date(base + index * 60_000).toUTCString()}</pubDate><description><![CDATA[<p>${filler}</p>]]></description></item>`,
    );
    const body = rss(items);
    expect(body.length).toBeGreaterThan(9 * 1024 * 1024);
    const big = parseFeed(body, { now: NOW });
    expect(big.items).toHaveLength(10_000);
    expect(big.items[0]?.id).toBe('story-9999');
    expect(big.items[9_999]?.id).toBe('story-0');
    expect(big.items.every((item, index, all) => index === 0 || (all[index - 1]?.published ?? 0) >= (item.published ?? 0))).toBe(true);
  });
});

describe('parseFeed: Atom 1.0', () => {
  const feed = parseFeed(fixture('atom-engineering.xml'), { now: NOW });

  it('reads an html title as text and the alternate link', () => {
    expect(feed.title).toBe('Platform Engineering Notes');
    expect(feed.link).toBe('https://eng.example.org/');
  });

  it('keeps XHTML content as sanitized HTML, relative images made absolute', () => {
    const [migrations] = feed.items;
    expect(migrations?.content).toContain('<h2>Expand, migrate, contract</h2>');
    expect(migrations?.content).toContain('then <em>backfill</em>');
    expect(migrations?.content).toContain('<img src="https://eng.example.org/img/diagram.png" alt="Three phases">');
    expect(migrations?.content).not.toMatch(/onmouseover|xmlns|<div/);
  });

  it('reads item fields: alternate link (not the enclosure), html summary as text, dates, author, enclosure', () => {
    expect(feed.items[0]).toMatchObject({
      id: 'tag:eng.example.org,2026:posts/zero-downtime',
      title: 'Zero-downtime migrations',
      link: 'https://eng.example.org/posts/zero-downtime',
      summary: 'How we moved orders without a single failed request.',
      published: Date.UTC(2026, 2, 14, 8, 0),
      updated: Date.UTC(2026, 2, 14, 10, 12),
      author: 'Ada Park',
      imageUrl: 'https://eng.example.org/img/migrations.webp',
      enclosures: [{ url: 'https://eng.example.org/img/migrations.webp', type: 'image/webp', length: 88211 }],
    });
  });

  it('reads a text title literally, escaped html content as HTML, and sorts an updated-only entry by its update', () => {
    const [, sorting] = feed.items;
    expect(sorting?.title).toBe('Why 1 < 2 matters for sorting');
    expect(sorting?.content).toBe('<p>Comparators must be <b>consistent</b>.</p>');
    expect(sorting?.summary).toBe('Comparators must be consistent.');
    expect(sorting?.updated).toBe(Date.UTC(2026, 2, 10, 8, 30));
  });

  it('answers an Atom feed without entries as an empty feed', () => {
    const empty = parseFeed(Buffer.from('<feed xmlns="http://www.w3.org/2005/Atom"><title>Quiet</title></feed>'), { now: NOW });
    expect(empty).toEqual({ title: 'Quiet', items: [] });
  });
});

describe('parseFeed: JSON Feed', () => {
  const feed = parseFeed(fixture('jsonfeed-transit.json'), { now: NOW });

  it('reads the feed and its items', () => {
    expect(feed.title).toBe('Metro Line Updates');
    expect(feed.link).toBe('https://metro.example.net/updates');
    expect(feed.items[0]).toMatchObject({
      id: '2026-03-16-red-line',
      title: 'Red Line: minor delays',
      link: 'https://metro.example.net/updates/2026-03-16-red-line',
      summary: 'Up to 10 minutes late after a signal fault.',
      published: Date.UTC(2026, 2, 16, 6, 42),
      updated: Date.UTC(2026, 2, 16, 7, 10),
      author: 'Control Centre',
      imageUrl: 'https://metro.example.net/img/red-line.jpg',
    });
    expect(feed.items[0]?.content).toContain('<a href="https://metro.example.net/stations/harbour">Harbour</a>');
  });

  it('turns a numeric id into text and content_text into paragraphs', () => {
    expect(feed.items[1]).toMatchObject({
      id: '20260315',
      content: '<p>No service between Park and Quay on Saturday.</p><p>Replacement buses every 10 minutes.</p>',
      imageUrl: 'https://metro.example.net/img/works.jpg',
      enclosures: [{ url: 'https://metro.example.net/pdf/blue-works.pdf', type: 'application/pdf', length: 20480 }],
    });
  });

  it('skips items that are not objects', () => {
    const body = Buffer.from('{"version": "https://jsonfeed.org/version/1.1", "items": [null, 7, "x", {"id": "ok", "title": "Ok"}]}');
    expect(parseFeed(body, { now: NOW }).items).toEqual([{ id: 'ok', title: 'Ok' }]);
  });

  it('recognises the format by content, whatever the Content-Type says', () => {
    const asXml = parseFeed(fixture('jsonfeed-transit.json'), { now: NOW, contentType: 'application/rss+xml' });
    expect(asXml.items).toHaveLength(2);
    const asJson = parseFeed(fixture('rss-city-news.xml'), { now: NOW, contentType: 'application/json' });
    expect(asJson.items).toHaveLength(4);
  });
});

describe('parseFeed: merging and trimming', () => {
  const previous: Feed = {
    title: 'Old title',
    items: [
      { id: 'a', title: 'A (old version)', published: NOW - 2 * DAY },
      { id: 'gone', title: 'Gone from the feed', published: NOW - 3 * DAY },
      { id: 'ancient', title: 'Ancient', published: NOW - 40 * DAY },
      { id: 'undated-old', title: 'Undated, no longer listed' },
    ],
  };

  it('merges with the previous items by id, the new version winning, newest first', () => {
    const body = rss([rssItem('a', NOW - 2 * DAY, 'A (new version)'), rssItem('b', NOW - DAY)]);
    const feed = parseFeed(body, { now: NOW, previous });
    expect(feed.title).toBe('Test channel');
    expect(feed.items.map((item) => [item.id, item.title])).toEqual([
      ['b', 'Item b'],
      ['a', 'A (new version)'],
      ['gone', 'Gone from the feed'],
      ['ancient', 'Ancient'],
      ['undated-old', 'Undated, no longer listed'],
    ]);
  });

  it('keeps the last X days (an undated item only while the feed lists it)', () => {
    const body = rss([rssItem('b', NOW - DAY), '<item><title>Undated now</title><guid>undated-now</guid></item>']);
    const feed = parseFeed(body, { now: NOW, previous, keepLastXDays: 30 });
    expect(feed.items.map((item) => item.id)).toEqual(['b', 'a', 'gone', 'undated-now']);
  });

  it('keeps the last X items', () => {
    const body = rss([rssItem('b', NOW - DAY)]);
    expect(parseFeed(body, { now: NOW, previous, keepLastXItem: 2 }).items.map((item) => item.id)).toEqual(['b', 'a']);
  });

  it('ignores previous items that are not feed items', () => {
    // stored JSON can be anything: the cast states what the caller believes, the parser must not
    const broken = { items: [null, 'x', { id: 7, title: 'bad id' }, { id: 'ok', title: 'Ok', published: NOW }] } as unknown as Feed;
    expect(parseFeed(rss([]), { now: NOW, previous: broken }).items).toEqual([{ id: 'ok', title: 'Ok', published: NOW }]);
  });
});

describe('parseFeed: hostile and malformed documents', () => {
  it('removes NUL characters everywhere', () => {
    const feed = parseFeed(rss(['<item><title>Br\u0000eaking</title><guid>n\u0000ul</guid></item>'], 'Ti\u0000tle'), { now: NOW });
    expect(JSON.stringify(feed)).not.toContain('\\u0000');
    expect(feed).toMatchObject({ title: 'Title', items: [{ id: 'nul', title: 'Breaking' }] });
  });

  it('refuses a malformed RSS document naming the error and its line', () => {
    const body = Buffer.from('<rss version="2.0">\n<channel>\n<item><title>Unclosed</title>\n</channel>\n</rss>');
    const error = formatErrorOf(() => parseFeed(body, { now: NOW }));
    expect(error.message).toMatch(/^The document is not valid XML: Expected closing tag 'item'.*\(line 4, column \d+\)\.$/);
    expectReadable(error);
  });

  it.each([
    ['a web page', '<!DOCTYPE html><html><body><p>Not found<br></body></html>', 'The document is an HTML web page, not XML.'],
    [
      'another XML document',
      '<catalog><room/></catalog>',
      'The XML document is not an RSS, Atom or RDF feed: its root element is <catalog>.',
    ],
    ['RSS without a channel', '<rss version="2.0"><item/></rss>', 'The RSS document has no <channel> element.'],
    ['JSON that is not a feed', '{"rooms": []}', 'The JSON document is not a JSON Feed: it has no "items" list.'],
    ['plain text', 'Service unavailable', 'The document is neither an RSS or Atom feed nor a JSON Feed.'],
    ['nothing', '  ', 'The document is empty: it holds no feed.'],
  ])('refuses %s with a readable reason', (_, body, message) => {
    const error = formatErrorOf(() => parseFeed(Buffer.from(body), { now: NOW }));
    expect(error.message).toBe(message);
    expectReadable(error);
  });

  it('does not expand DOCTYPE entities in a feed', () => {
    const entities = ['<!ENTITY a "aaaaaaaaaa">'];
    for (let level = 1; level <= 9; level++) entities.push(`<!ENTITY a${level} "${`&a${level === 1 ? '' : level - 1};`.repeat(10)}">`);
    const body = Buffer.from(`<!DOCTYPE rss [${entities.join('')}]><rss><channel><title>&a9;</title></channel></rss>`);
    expect(parseFeed(body, { now: NOW }).title).toBe('&a9;');
  });
});
