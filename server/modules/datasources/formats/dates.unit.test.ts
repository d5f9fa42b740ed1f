import { describe, expect, it } from 'vitest';
import { parseDate } from './dates';

describe('parseDate', () => {
  it.each([
    ['Mon, 16 Mar 2026 07:30:00 +0000', Date.UTC(2026, 2, 16, 7, 30)],
    ['Mon, 16 Mar 2026 07:30:00 GMT', Date.UTC(2026, 2, 16, 7, 30)],
    ['Thu, 12 Mar 2026 19:45:00 EST', Date.UTC(2026, 2, 13, 0, 45)],
    ['Sun, 29 Mar 2026 10:00:00 CEST', Date.UTC(2026, 2, 29, 8, 0)],
    ['16 Mar 2026 07:30 +0530', Date.UTC(2026, 2, 16, 2, 0)],
    ['Mon, 16 Mar 26 07:30:00 GMT', Date.UTC(2026, 2, 16, 7, 30)],
    ['Monday, 16 March 2026 07:30:00 GMT', Date.UTC(2026, 2, 16, 7, 30)],
    ['2026-03-16T07:30:00Z', Date.UTC(2026, 2, 16, 7, 30)],
    ['2026-03-16T07:30:00.250+01:00', Date.UTC(2026, 2, 16, 6, 30, 0, 250)],
    ['2026-03-16T07:30:00-0500', Date.UTC(2026, 2, 16, 12, 30)],
    ['2026-03-16', Date.UTC(2026, 2, 16)],
  ])('reads %s', (text, expected) => {
    expect(parseDate(text)).toBe(expected);
  });

  it('reads a date without an offset as UTC, whatever the process time zone', () => {
    expect(parseDate('2026-03-16T07:30:00')).toBe(Date.UTC(2026, 2, 16, 7, 30));
    expect(parseDate('Mon, 16 Mar 2026 07:30:00')).toBe(Date.UTC(2026, 2, 16, 7, 30));
  });

  it.each(['', 'yesterday', '2026-13-01', '32 Foo 2026 10:00:00 GMT', undefined])('answers undefined for %j', (text) => {
    expect(parseDate(text)).toBeUndefined();
  });
});
