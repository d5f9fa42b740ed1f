import { createHash } from 'node:crypto';
import { extractFromJson, extractFromXml } from '@extractus/feed-extractor';
import { parseDate } from './dates';
import { FormatError, shortReason } from './errors';
import { collapseWhitespace, htmlToText, safeUrl, sanitizeHtml, textToHtml } from './html';
import { parseJsonText } from './json';
import { storable } from './storable';
import { decodeBody } from './text';
import { attribute, field, isObject, list, text } from './tree';
import type { Feed, FeedEnclosure, FeedItem } from './types';
import { assertWellFormedXml, decodeXmlEntities, parseXmlTree, readableXmlError, xmlParserOptions } from './xml';

/** However the datasource trims, a feed keeps at most this many items (merging keeps old items otherwise forever). */
const MAX_FEED_ITEMS = 10_000;
const DAY_MS = 86_400_000;

export type ParseFeedOptions = {
  contentType?: string;
  previous?: Feed;
  keepLastXDays?: number;
  keepLastXItem?: number;
  now: number;
};

/**
 * RSS 2.0 (and RSS 1.0/RDF), Atom 1.0 or JSON Feed 1.x to a FEED document (spec 5 §2), recognised by content.
 * Items are merged with `previous` by id (the new version wins), sorted newest first, then trimmed.
 */
export function parseFeed(body: Buffer, options: ParseFeedOptions): Feed {
  const text = decodeBody(body, { contentType: options.contentType, sniffXmlDeclaration: true });
  const start = text.trimStart();
  let feed: Feed;
  if (start.startsWith('{')) feed = readJsonFeed(text);
  else if (start.startsWith('<')) feed = readXmlFeed(text);
  else if (start === '') throw new FormatError('The document is empty: it holds no feed.');
  else throw new FormatError('The document is neither an RSS or Atom feed nor a JSON Feed.');
  const items = trimItems(mergeItems(feed.items, options.previous), feed.items, options);

  return storable({ title: feed.title || undefined, link: feed.link, items });
}

// --- merging and trimming --------------------------------------------------------------------------------------

function mergeItems(current: FeedItem[], previous: Feed | undefined): FeedItem[] {
  const byId = new Map<string, FeedItem>();
  for (const item of current) if (!byId.has(item.id)) byId.set(item.id, item);
  for (const item of previousItems(previous)) if (!byId.has(item.id)) byId.set(item.id, item);
  const dated = (item: FeedItem) => item.published ?? item.updated ?? Number.NEGATIVE_INFINITY;

  // Array.prototype.sort is stable: undated items keep the document's order, this document's items first.
  return [...byId.values()].sort((a, b) => dated(b) - dated(a) || 0);
}

/** Items of the stored document, read defensively: it is JSON from the database. */
function previousItems(previous: Feed | undefined): FeedItem[] {
  const items: unknown = previous?.items;
  if (!Array.isArray(items)) return [];

  return items.filter((item): item is FeedItem => isObject(item) && typeof item.id === 'string' && typeof item.title === 'string');
}

function trimItems(items: FeedItem[], current: FeedItem[], options: ParseFeedOptions): FeedItem[] {
  let kept = items;
  const days = options.keepLastXDays;
  if (days !== undefined && Number.isFinite(days) && days > 0) {
    const cutoff = options.now - days * DAY_MS;
    const currentIds = new Set(current.map((item) => item.id));
    // An undated item cannot be aged: it stays while the feed still lists it.
    kept = kept.filter((item) => {
      const date = item.published ?? item.updated;

      return date === undefined ? currentIds.has(item.id) : date >= cutoff;
    });
  }
  const count = options.keepLastXItem;
  const limit = count !== undefined && Number.isFinite(count) && count >= 1 ? Math.floor(count) : MAX_FEED_ITEMS;

  return kept.slice(0, Math.min(limit, MAX_FEED_ITEMS));
}

// --- XML feeds ---------------------------------------------------------------------------------------------------

type XmlFormat = 'rss' | 'rdf' | 'atom';

function readXmlFeed(text: string): Feed {
  const rawItems: unknown[] = [];
  let rawFeed: unknown;
  try {
    extractFromXml(text, {
      normalization: true,
      descriptionMaxLen: 0,
      // Text and HTML elements stay raw, so that markup inside them survives (see RAW_TEXT_NODES).
      xmlParserOptions: { ...xmlParserOptions({ stopNodes: RAW_TEXT_NODES }) },
      getExtraFeedFields: (feedData) => {
        rawFeed = feedData;

        return {};
      },
      getExtraEntryFields: (entryData) => {
        rawItems.push(entryData);

        return {};
      },
    });
  } catch (error) {
    return readUnrecognizedXml(text, error);
  }
  const format: XmlFormat = field(rawFeed, 'entry') !== undefined ? 'atom' : field(rawFeed, 'channel') ? 'rdf' : 'rss';

  return format === 'atom' ? atomFeed(rawFeed, rawItems) : rssFeed(format, rawFeed, rawItems);
}

/**
 * Elements the XML parser leaves as raw text: Atom text constructs (XHTML content is markup) and RSS elements that
 * feeds fill with unescaped HTML (`<description><p>…</p></description>`), which would otherwise become objects and
 * lose text. rawText() and atomText() decode them.
 */
const RAW_TEXT_NODES = [
  'feed.title',
  'feed.entry.title',
  'feed.entry.summary',
  'feed.entry.content',
  'rss.channel.title',
  'rss.channel.item.title',
  'rss.channel.item.description',
  'rss.channel.item.content:encoded',
  'rdf:RDF.channel.title',
  'rdf:RDF.item.title',
  'rdf:RDF.item.description',
  'rdf:RDF.item.content:encoded',
];

function readUnrecognizedXml(text: string, error: unknown): Feed {
  const reason = shortReason(error);
  if (/not well-formed/i.test(reason)) {
    assertWellFormedXml(text);
    throw new FormatError('The document is not valid XML.');
  }
  if (!/unrecognized feed format/i.test(reason)) throw readableXmlError(error);
  const tree = parseXmlTree(text, { stopNodes: RAW_TEXT_NODES });
  const root = Object.keys(tree)[0] ?? '';
  // feed-extractor knows an Atom feed by its entries; one without entries is a valid, empty feed.
  if (root === 'feed') return atomFeed(tree.feed, []);
  if (root === 'rss') throw new FormatError('The RSS document has no <channel> element.');
  throw new FormatError(`The XML document is not an RSS, Atom or RDF feed: its root element is <${root.slice(0, 40)}>.`);
}

function rssFeed(format: 'rss' | 'rdf', rawFeed: unknown, rawItems: unknown[]): Feed {
  const channel = format === 'rdf' ? field(rawFeed, 'channel') : rawFeed;
  const link = safeUrl(text(field(channel, 'link')), undefined, true);
  const items = rawItems.map((raw) => rssItem(raw, link)).filter((item) => item !== undefined);

  return { title: htmlToText(rawText(field(channel, 'title'))), link, items };
}

function rssItem(raw: unknown, base: string | undefined): FeedItem | undefined {
  if (!isObject(raw)) return undefined;
  const guid = text(raw.guid).trim() || attribute(raw, 'rdf:about')?.trim() || '';
  const isPermaLink = attribute(raw.guid, 'isPermaLink') !== 'false';
  const link = safeUrl(text(raw.link), base, true) ?? (isPermaLink && guid ? safeUrl(guid, undefined, true) : undefined);
  const itemBase = link ?? base;
  const description = rawText(raw.description);
  const encoded = rawText(raw['content:encoded']);
  const content = encoded ? sanitizeHtml(encoded, itemBase) : undefined;
  const title = htmlToText(rawText(raw.title) || text(raw['dc:title']));
  const published = parseDate(text(raw.pubDate) || text(raw['dc:date']));
  const media = mediaRss(raw, itemBase);
  const enclosures = uniqueEnclosures([
    ...list(raw.enclosure).map((node) => enclosureOf(node, 'url', 'length', itemBase)),
    ...media.enclosures,
  ]);
  const imageUrl =
    media.imageUrl ??
    enclosures.find((item) => item.type?.startsWith('image/'))?.url ??
    firstUrl([attribute(raw['itunes:image'], 'href')], itemBase) ??
    content?.firstImageUrl ??
    firstImageIn(description, itemBase);

  return {
    id: guid || link || hashId(title, published),
    title,
    link,
    summary: htmlToText(description) || (encoded ? htmlToText(encoded) : undefined) || undefined,
    content: content?.html || undefined,
    published,
    author: rssAuthor(text(raw.author) || text(raw['dc:creator'])),
    imageUrl,
    enclosures: enclosures.length > 0 ? enclosures : undefined,
  };
}

/** RSS 2.0's author is an e-mail address, often "jane@example.com (Jane Doe)": the name reads better. */
function rssAuthor(value: string): string | undefined {
  const named = /\(([^)]+)\)\s*$/.exec(value);

  return collapseWhitespace(named?.[1] ?? value) || undefined;
}

/**
 * Media RSS (media:content, media:thumbnail, also inside media:group): enclosures, and the item's picture, the
 * full image before a thumbnail since a display is large.
 */
function mediaRss(raw: Record<string, unknown>, base: string | undefined): { enclosures: FeedEnclosure[]; imageUrl?: string } {
  const groups = list(raw['media:group']);
  const contents = [raw, ...groups].flatMap((node) => list(field(node, 'media:content')));
  const thumbnails = [raw, ...groups, ...contents].flatMap((node) => list(field(node, 'media:thumbnail')));
  const isImage = (node: unknown) => attribute(node, 'medium') === 'image' || (attribute(node, 'type')?.startsWith('image/') ?? false);
  const images = contents.filter(isImage).map((node) => attribute(node, 'url'));

  return {
    enclosures: contents.map((node) => enclosureOf(node, 'url', 'fileSize', base)).filter((item) => item !== undefined),
    imageUrl: firstUrl([...images, ...thumbnails.map((node) => attribute(node, 'url'))], base),
  };
}

function atomFeed(rawFeed: unknown, rawItems: unknown[]): Feed {
  const link = atomLink(field(rawFeed, 'link'), 'alternate');
  const items = rawItems.map((raw) => atomItem(raw, link)).filter((item) => item !== undefined);

  return { title: atomText(field(rawFeed, 'title'))?.text, link, items };
}

function atomItem(raw: unknown, base: string | undefined): FeedItem | undefined {
  if (!isObject(raw)) return undefined;
  const link = atomLink(raw.link, 'alternate', base);
  const itemBase = link ?? base;
  const title = atomText(raw.title)?.text ?? '';
  const summary = atomText(raw.summary);
  // Out-of-line content (content src="…") is not fetched.
  const contentText = attribute(raw.content, 'src') === undefined ? atomText(raw.content) : undefined;
  const content = contentText?.html ? sanitizeHtml(contentText.html, itemBase) : undefined;
  const published = parseDate(text(raw.published) || text(raw.issued));
  const updated = parseDate(text(raw.updated) || text(raw.modified));
  const media = mediaRss(raw, itemBase);
  const links = list(raw.link).filter((node) => attribute(node, 'rel') === 'enclosure');
  const enclosures = uniqueEnclosures([...links.map((node) => enclosureOf(node, 'href', 'length', itemBase)), ...media.enclosures]);
  const imageUrl =
    media.imageUrl ??
    enclosures.find((item) => item.type?.startsWith('image/'))?.url ??
    content?.firstImageUrl ??
    (summary ? firstImageIn(summary.html, itemBase) : undefined);

  return {
    id: text(raw.id).trim() || link || hashId(title, published ?? updated),
    title,
    link,
    summary: summary?.text || contentText?.text || undefined,
    content: content?.html || undefined,
    published,
    updated,
    author: collapseWhitespace(text(field(list(raw.author)[0], 'name'))) || undefined,
    imageUrl,
    enclosures: enclosures.length > 0 ? enclosures : undefined,
  };
}

/** The href of the first link with that relation (a link without rel is "alternate"), HTML pages first. */
function atomLink(links: unknown, rel: string, base?: string): string | undefined {
  const candidates = list(links).filter((node) => (attribute(node, 'rel') ?? 'alternate') === rel);
  const preferred = candidates.find((node) => attribute(node, 'type')?.includes('html')) ?? candidates[0];
  const href = attribute(preferred, 'href') ?? (typeof preferred === 'string' ? preferred : undefined);

  return safeUrl(href, base, true);
}

/**
 * An Atom text construct (title, summary, content), kept raw by the parser's stop nodes: "xhtml" is markup inside a
 * wrapping <div>; "html" is escaped markup (entities and CDATA decoded here); "text" is text.
 */
function atomText(node: unknown): { text: string; html: string } | undefined {
  if (node === undefined) return undefined;
  const raw = text(node);
  const type = (attribute(node, 'type') ?? 'text').toLowerCase();
  if (type === 'xhtml') {
    const html = raw.replace(/^\s*<(?:\w+:)?div\b[^>]*>([\s\S]*)<\/(?:\w+:)?div>\s*$/i, '$1');

    return { text: htmlToText(html), html };
  }
  const decoded = decodeRawXmlText(raw);
  if (type === 'html' || type.includes('html')) return { text: htmlToText(decoded), html: decoded };

  return { text: collapseWhitespace(decoded), html: textToHtml(decoded) };
}

/** An element kept raw by RAW_TEXT_NODES, as the HTML it carries. */
function rawText(node: unknown): string {
  return decodeRawXmlText(text(node));
}

/** Raw element text: CDATA sections as they are, everything else with its entities decoded. */
function decodeRawXmlText(raw: string): string {
  let decoded = '';
  let position = 0;
  for (const match of raw.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)) {
    decoded += decodeXmlEntities(raw.slice(position, match.index)) + (match[1] ?? '');
    position = match.index + match[0].length;
  }

  return decoded + decodeXmlEntities(raw.slice(position));
}

// --- JSON Feed ---------------------------------------------------------------------------------------------------

function readJsonFeed(text: string): Feed {
  const data = parseJsonText(text);
  if (!isObject(data) || !Array.isArray(data.items)) {
    throw new FormatError('The JSON document is not a JSON Feed: it has no "items" list.');
  }
  const rawItems: unknown[] = [];
  try {
    // feed-extractor reads every item's fields: a null or a number among the items would throw there.
    extractFromJson(
      { ...data, items: data.items.filter(isObject) },
      {
        normalization: true,
        descriptionMaxLen: 0,
        getExtraEntryFields: (entryData) => {
          rawItems.push(entryData);

          return {};
        },
      },
    );
  } catch (error) {
    throw new FormatError(`The JSON Feed cannot be read: ${shortReason(error)}.`);
  }
  const link = safeUrl(string(data.home_page_url), undefined, true);

  return {
    title: htmlToText(string(data.title)),
    link,
    items: rawItems.map((raw) => jsonFeedItem(raw, link)).filter((item) => item !== undefined),
  };
}

function jsonFeedItem(raw: unknown, base: string | undefined): FeedItem | undefined {
  if (!isObject(raw)) return undefined;
  const link = safeUrl(string(raw.url) || string(raw.external_url), base, true);
  const itemBase = link ?? base;
  const title = htmlToText(string(raw.title));
  const contentHtml = string(raw.content_html);
  const contentText = string(raw.content_text);
  const content = contentHtml ? sanitizeHtml(contentHtml, itemBase) : contentText ? { html: textToHtml(contentText) } : undefined;
  const published = parseDate(string(raw.date_published));
  const updated = parseDate(string(raw.date_modified));
  const enclosures = uniqueEnclosures(
    list(raw.attachments).map((node) =>
      enclosure({
        url: string(field(node, 'url')),
        type: string(field(node, 'mime_type')),
        length: string(field(node, 'size_in_bytes')),
        base: itemBase,
      }),
    ),
  );
  const authors = [...list(raw.authors), ...list(raw.author)];

  return {
    id: string(raw.id).trim() || link || hashId(title, published ?? updated),
    title,
    link,
    summary: htmlToText(string(raw.summary)) || htmlToText(contentHtml) || collapseWhitespace(contentText) || undefined,
    content: content?.html || undefined,
    published,
    updated,
    author: collapseWhitespace(string(field(authors[0], 'name'))) || undefined,
    imageUrl:
      firstUrl([string(raw.image), string(raw.banner_image)], itemBase) ??
      enclosures.find((item) => item.type?.startsWith('image/'))?.url ??
      content?.firstImageUrl,
    enclosures: enclosures.length > 0 ? enclosures : undefined,
  };
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

// --- shared ------------------------------------------------------------------------------------------------------

function enclosure(input: { url?: string; type?: string; length?: string; base?: string }): FeedEnclosure | undefined {
  const url = safeUrl(input.url, input.base);
  if (!url) return undefined;
  const length = input.length !== undefined && /^\s*\d+\s*$/.test(input.length) ? Number(input.length) : undefined;

  return { url, type: input.type?.trim() || undefined, length };
}

/** An enclosure from an element's attributes: RSS <enclosure url length>, Atom <link href length>, <media:content>. */
function enclosureOf(node: unknown, urlAttribute: string, lengthAttribute: string, base: string | undefined): FeedEnclosure | undefined {
  return enclosure({
    url: attribute(node, urlAttribute),
    type: attribute(node, 'type'),
    length: attribute(node, lengthAttribute),
    base,
  });
}

function uniqueEnclosures(enclosures: Array<FeedEnclosure | undefined>): FeedEnclosure[] {
  const byUrl = new Map<string, FeedEnclosure>();
  for (const item of enclosures) if (item && !byUrl.has(item.url)) byUrl.set(item.url, item);

  return [...byUrl.values()];
}

function firstUrl(urls: Array<string | undefined>, base: string | undefined): string | undefined {
  for (const url of urls) {
    const safe = safeUrl(url, base);
    if (safe) return safe;
  }

  return undefined;
}

/** The first <img src> of an HTML fragment, without parsing it (a summary is only read as text otherwise). */
function firstImageIn(html: string, base: string | undefined): string | undefined {
  const match = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html);

  return match ? safeUrl(decodeXmlEntities(match[1] ?? match[2] ?? match[3] ?? ''), base) : undefined;
}

/** An item with neither id nor link: a hash of its title and date, the same on every refresh. */
function hashId(title: string, date: number | undefined): string {
  const digest = createHash('sha256')
    .update(`${title}\n${date ?? ''}`)
    .digest('hex');

  return `sha256:${digest.slice(0, 32)}`;
}
