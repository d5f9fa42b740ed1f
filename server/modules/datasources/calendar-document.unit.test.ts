import { describe, expect, it } from 'vitest';
import { nextChangeAfter } from './calendar-document';

/* When an internal calendar's document must be built again without a write (calendar-document.ts). */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const now = Date.UTC(2026, 2, 30, 9, 0);
const event = (values: { endsAt: number; status?: 'CONFIRMED' | 'SUSPENDED'; suspendedUntil?: number }) => ({
  status: values.status ?? 'CONFIRMED',
  endsAt: new Date(values.endsAt),
  suspendedUntil: values.suspendedUntil === undefined ? null : new Date(values.suspendedUntil),
});

describe('nextChangeAfter', () => {
  it('is null for an empty calendar with nothing ahead: nothing changes until a write', () => {
    expect(nextChangeAfter({ now, listed: [], hasRoom: true })).toBeNull();
  });

  it('is the end of a suspension when that comes first', () => {
    const listed = [event({ endsAt: now + 2 * 60 * MINUTE, status: 'SUSPENDED', suspendedUntil: now + 15 * MINUTE })];
    expect(nextChangeAfter({ now, listed, hasRoom: true })).toBe(now + 15 * MINUTE);
  });

  it('ignores a suspension that has already run out (the document shows it CONFIRMED)', () => {
    const listed = [event({ endsAt: now + 60 * MINUTE, status: 'SUSPENDED', suspendedUntil: now - MINUTE })];
    expect(nextChangeAfter({ now, listed, hasRoom: true })).toBe(now + 60 * MINUTE + DAY);
  });

  it('is a day after the earliest end: then the event leaves the window behind', () => {
    const listed = [event({ endsAt: now + 5 * 60 * MINUTE }), event({ endsAt: now - 60 * MINUTE })];
    expect(nextChangeAfter({ now, listed, hasRoom: true })).toBe(now - 60 * MINUTE + DAY);
  });

  it('is the instant the next event enters the window 366 days ahead, while the document has room', () => {
    const nextStart = now + 400 * DAY;
    expect(nextChangeAfter({ now, listed: [], hasRoom: true, nextStart })).toBe(nextStart - 366 * DAY + 1);
    const listed = [event({ endsAt: now + 500 * DAY })];
    expect(nextChangeAfter({ now, listed, hasRoom: false, nextStart })).toBe(now + 501 * DAY);
  });

  it('always lies after now for a document built now', () => {
    const listed = [event({ endsAt: now - DAY + 1 }), event({ endsAt: now + MINUTE, status: 'SUSPENDED', suspendedUntil: now + 1 })];
    const next = nextChangeAfter({ now, listed, hasRoom: true, nextStart: now + 366 * DAY });
    expect(next).toBe(now + 1);
  });
});
