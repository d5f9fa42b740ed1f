import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inSlices, PING_SLICE, pingGapMs } from './ping-round';

describe('the ping round', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('spreads its slices over the first half of the interval, and pings a small fleet at once', () => {
    expect(pingGapMs(PING_SLICE, 30)).toBe(0);
    // 5 000 connections: ten slices, nine gaps in 15 s.
    expect(pingGapMs(10 * PING_SLICE, 30)).toBeCloseTo(15_000 / 9);
    expect(pingGapMs(PING_SLICE + 1, 30)).toBe(15_000);
  });

  it('reaches every connection once, a slice a gap', async () => {
    const items = Array.from({ length: 2 * PING_SLICE + 1 }, (_, i) => i);
    const seen: number[] = [];
    const done = inSlices(items, 1_000, (i) => seen.push(i), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toHaveLength(PING_SLICE);
    await vi.advanceTimersByTimeAsync(999);
    expect(seen).toHaveLength(PING_SLICE);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2 * PING_SLICE);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toBe(true);
    expect(seen).toEqual(items);
  });

  it('stops at once when the instance stops, also in the middle of a wait', async () => {
    const stopping = new AbortController();
    const seen: number[] = [];
    const done = inSlices(
      Array.from({ length: 3 * PING_SLICE }, (_, i) => i),
      60_000,
      (i) => seen.push(i),
      stopping.signal,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    stopping.abort();
    // No timer has to fire: the wait ends with the abort.
    expect(await done).toBe(false);
    expect(seen).toHaveLength(PING_SLICE);
  });
});
