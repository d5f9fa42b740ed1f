import type { CalendarEventStatus } from '@/server/modules/datasources/formats/types';

/*
 * What a data document looks like to the console (spec 5 §2 and §3), decided once so the detail page, the slide
 * editor's peek and the tests agree: a TABLE's columns and rows, a LIST of calendar events, another LIST, a FEED's
 * items, a KEY_VALUE object's entries, or anything else as JSON. The document is untrusted: whatever does not fit
 * its structure is shown as JSON instead of failing, links and images are taken from http(s) only, and markup in a
 * feed's summary becomes text.
 */

export type EventRow = {
  id: string;
  title: string;
  organizer?: string;
  location?: string;
  status: CalendarEventStatus | string;
  start: number;
  end: number;
};

export type FeedRow = { id: string; title: string; link?: string; published?: number; summary?: string; imageUrl?: string };

export type DataShape =
  | { kind: 'empty' }
  | { kind: 'table'; columns: string[]; rows: Array<Record<string, unknown>> }
  | { kind: 'events'; events: EventRow[] }
  | { kind: 'list'; items: unknown[] }
  | { kind: 'feed'; title?: string; items: FeedRow[] }
  | { kind: 'keyValue'; entries: Array<[string, unknown]> }
  | { kind: 'json'; value: unknown };

const MAX_SUMMARY = 400;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An http(s) address, or nothing (a `javascript:` link or a `data:` image never reaches the page). */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);

    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** A summary as plain text: tags dropped, the common entities decoded, whitespace folded, cut to a readable length. */
export function plainSummary(value: string): string {
  const text = value
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);

      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();

  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}

/** A value as one line of text: strings as they are, numbers and booleans written, anything else as compact JSON. */
export function valueText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);

  return JSON.stringify(value) ?? '';
}

function instantOf(value: unknown): number | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.timeStamp === 'number' && Number.isFinite(value.timeStamp)) return value.timeStamp;
  const parsed = typeof value.dateTime === 'string' ? Date.parse(value.dateTime) : Number.NaN;

  return Number.isFinite(parsed) ? parsed : undefined;
}

/** A calendar event of spec 5 §3 (a start and an end with `timeStamp` or `dateTime`, a title), or nothing. */
function eventOf(value: unknown, index: number): EventRow | undefined {
  if (!isRecord(value) || typeof value.title !== 'string') return undefined;
  const start = instantOf(value.start);
  const end = instantOf(value.end);
  if (start === undefined || end === undefined) return undefined;

  return {
    id: typeof value.id === 'string' ? value.id : String(index),
    title: value.title,
    organizer: typeof value.organizer === 'string' && value.organizer ? value.organizer : undefined,
    location: typeof value.location === 'string' && value.location ? value.location : undefined,
    status: typeof value.status === 'string' ? value.status : 'CONFIRMED',
    start,
    end,
  };
}

function feedItemOf(value: unknown, index: number): FeedRow | undefined {
  if (!isRecord(value)) return undefined;
  const enclosure = Array.isArray(value.enclosures)
    ? value.enclosures.find((e) => isRecord(e) && typeof e.type === 'string' && e.type.startsWith('image/') && httpUrl(e.url))
    : undefined;
  const summary = typeof value.summary === 'string' ? plainSummary(value.summary) : undefined;

  return {
    id: typeof value.id === 'string' ? value.id : String(index),
    title: typeof value.title === 'string' ? value.title : '',
    link: httpUrl(value.link),
    published: typeof value.published === 'number' && Number.isFinite(value.published) ? value.published : undefined,
    summary: summary || undefined,
    imageUrl: httpUrl(value.imageUrl) ?? (isRecord(enclosure) ? httpUrl(enclosure.url) : undefined),
  };
}

function tableOf(document: unknown): { columns: string[]; rows: Array<Record<string, unknown>> } | undefined {
  if (!isRecord(document) || !Array.isArray(document.columns) || !Array.isArray(document.rows)) return undefined;
  if (!document.columns.every((c): c is string => typeof c === 'string')) return undefined;
  if (!document.rows.every(isRecord)) return undefined;

  return { columns: document.columns, rows: document.rows };
}

/** How the console shows `document` of a datasource of `structureType`. */
export function shapeOf(structureType: string | undefined, document: unknown): DataShape {
  if (document === null || document === undefined) return { kind: 'empty' };
  switch (structureType) {
    case 'TABLE': {
      const table = tableOf(document);
      if (table) return table.columns.length === 0 && table.rows.length === 0 ? { kind: 'empty' } : { kind: 'table', ...table };
      break;
    }
    case 'LIST': {
      if (!Array.isArray(document)) break;
      if (document.length === 0) return { kind: 'empty' };
      const events = document.map(eventOf);
      if (events.every((e): e is EventRow => e !== undefined)) return { kind: 'events', events: events.sort((a, b) => a.start - b.start) };

      return { kind: 'list', items: document };
    }
    case 'FEED': {
      if (!isRecord(document) || !Array.isArray(document.items)) break;
      const items = document.items.map(feedItemOf).filter((i): i is FeedRow => i !== undefined);
      if (items.length === 0) return { kind: 'empty' };

      return { kind: 'feed', title: typeof document.title === 'string' ? document.title : undefined, items };
    }
    case 'KEY_VALUE': {
      if (!isRecord(document)) break;
      const entries = Object.entries(document);

      return entries.length === 0 ? { kind: 'empty' } : { kind: 'keyValue', entries };
    }
  }

  return { kind: 'json', value: document };
}

/** The columns of a list of objects (first seen first, at most `max`): a LIST of files or screens reads as a table. */
export function objectColumns(items: readonly unknown[], max = 8): string[] | undefined {
  if (items.length === 0 || !items.every(isRecord)) return undefined;
  const columns: string[] = [];
  for (const item of items.slice(0, 50)) {
    for (const key of Object.keys(item)) {
      if (!columns.includes(key)) columns.push(key);
      if (columns.length >= max) return columns;
    }
  }

  return columns;
}

/** A few lines that say what the data holds now (the slide editor's peek under the datasource select). */
export function peekLines(shape: DataShape, max = 3): string[] {
  switch (shape.kind) {
    case 'empty':
      return [];
    case 'table':
      return shape.rows.slice(0, max).map((row) =>
        shape.columns
          .slice(0, 4)
          .map((c) => valueText(row[c]))
          .join(' · '),
      );
    case 'events':
      return shape.events.slice(0, max).map((e) => e.title);
    case 'list':
      return shape.items.slice(0, max).map((item) => {
        const title = isRecord(item) ? (item.title ?? item.name) : undefined;

        return typeof title === 'string' ? title : valueText(item);
      });
    case 'feed':
      return shape.items.slice(0, max).map((item) => item.title);
    case 'keyValue':
      return shape.entries.slice(0, max).map(([key, value]) => `${key}: ${valueText(value)}`);
    case 'json':
      return [valueText(shape.value)];
  }
}
