import { describe, expect, it } from 'vitest';
import type { Datasource } from '@/lib/api/datasources';
import { documentLines, feedTitles } from './datasource-document';
import { isAwaitingRefresh, relativeTime, statusOf } from './datasource-status';

const external = (patch: Partial<Datasource>): Datasource => ({ id: 'a', sourceType: 'EXTERNAL', errorCounter: 0, ...patch });

describe('the status of a datasource', () => {
  it('is not about refreshes for internal and system datasources', () => {
    expect(statusOf({ sourceType: 'INTERNAL' })).toEqual({ kind: 'notRefreshed', sourceType: 'INTERNAL' });
    expect(statusOf({ sourceType: 'SYSTEM', deactivated: true })).toEqual({ kind: 'notRefreshed', sourceType: 'SYSTEM' });
  });

  it('waits for the first refresh, then is OK, failing with the reason, or deactivated', () => {
    expect(statusOf(external({}))).toEqual({ kind: 'pending' });
    expect(statusOf(external({ lastRefreshTime: 1 }))).toEqual({ kind: 'ok' });
    expect(statusOf(external({ lastRefreshTime: 1, errorCounter: 3, lastError: 'HTTP 500' }))).toEqual({
      kind: 'failing',
      error: 'HTTP 500',
      count: 3,
    });
    expect(statusOf(external({ deactivated: true, errorCounter: 25, lastError: 'Timeout' }))).toEqual({
      kind: 'deactivated',
      error: 'Timeout',
      count: 25,
    });
  });

  it('asks the list to look again only while an external datasource waits for its first refresh', () => {
    const page = (content: Datasource[]) => ({
      content,
      first: true,
      last: true,
      number: 0,
      numberOfElements: content.length,
      size: 20,
      totalElements: content.length,
      totalPages: 1,
    });
    expect(isAwaitingRefresh(page([external({ lastRefreshTime: 1 }), { id: 'b', sourceType: 'INTERNAL' }]))).toBe(false);
    expect(isAwaitingRefresh(page([external({})]))).toBe(true);
    expect(isAwaitingRefresh(page([external({ deactivated: true })]))).toBe(false);
    expect(isAwaitingRefresh(undefined)).toBe(false);
  });
});

describe('relative times', () => {
  const now = Date.UTC(2026, 0, 10, 12);

  it('reads the largest whole unit, past and future, in the locale', () => {
    expect(relativeTime(now - 3 * 60_000, now, 'en')).toBe('3 minutes ago');
    expect(relativeTime(now + 2 * 3_600_000 + 5, now, 'en')).toBe('in 2 hours');
    expect(relativeTime(now - 86_400_000, now, 'en')).toBe('yesterday');
    expect(relativeTime(now - 3 * 60_000, now, 'de')).toBe('vor 3 Minuten');
  });

  it('calls the last few seconds now', () => {
    expect(relativeTime(now - 4_000, now, 'en')).toBe('now');
    expect(relativeTime(now - 40_000, now, 'en')).toBe('40 seconds ago');
  });
});

describe('a tested document', () => {
  it('is shown as indented JSON lines', () => {
    expect(documentLines({ a: [1] })).toEqual(['{', '  "a": [', '    1', '  ]', '}']);
    expect(documentLines(undefined)).toEqual(['null']);
  });

  it('names a feed’s first items by title', () => {
    const feed = { items: [{ title: 'One' }, { title: ' ' }, { title: 'Three' }, {}] };
    expect(feedTitles(feed, 3)).toEqual({ titles: ['One', null, 'Three'], total: 4 });
    expect(feedTitles([1, 2], 3)).toEqual({ titles: [], total: 0 });
  });
});
