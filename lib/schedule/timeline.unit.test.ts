import { describe, expect, it } from 'vitest';
import { fittingTicks, formatSpan, timelineBars, timelineTicks, type Tick } from './timeline';

const H = 3_600_000;

describe('timeline placement', () => {
  it('places items as shares of the window, clipped, and leaves out those outside', () => {
    const window = { from: 0, to: 10 * H };
    const bars = timelineBars(
      [
        { from: -H, to: 2 * H },
        { from: 2 * H, to: 7 * H },
        { from: 7 * H, to: 12 * H },
        { from: 11 * H, to: 12 * H },
      ],
      window,
    );
    expect(bars.map((b) => [b.left, b.width])).toEqual([
      [0, 20],
      [20, 50],
      [70, 30],
    ]);
  });

  it("ticks at the screen's local hours, majors at its midnight, across a DST change", () => {
    // Europe/Berlin springs forward on 2026-03-29: 02:00 does not exist that day.
    const from = Date.UTC(2026, 2, 28, 23); // 00:00 CET on the 29th
    const ticks = timelineTicks({ from, to: from + 23 * H }, 'Europe/Berlin', 1, 'en-GB');
    expect(ticks[0]).toMatchObject({ at: from, major: true, label: '00', sub: 'Sun 29' });
    // 00, 01, then 03 (CEST): every remaining local hour once.
    expect(ticks.slice(1, 3).map((t) => [t.label, t.at - from])).toEqual([
      ['01', H],
      ['03', 2 * H],
    ]);
    expect(ticks).toHaveLength(23);
    // In Kathmandu (+05:45) local midnight is not on a UTC hour.
    const kathmandu = timelineTicks({ from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 2) }, 'Asia/Kathmandu', 24, 'en-GB');
    expect(kathmandu).toHaveLength(1);
    expect(kathmandu[0]).toMatchObject({ at: Date.UTC(2026, 0, 1, 18, 15), label: 'Fri', sub: '2 Jan' });
  });

  it('keeps only labels that fit side by side, midnights first, anchored inside the edges', () => {
    // A week from Sat 19:05 UTC: the first midnight is 2.9 % in (the CI run that found labels overlapping).
    const from = Date.UTC(2026, 10, 28, 19, 5);
    const week = timelineTicks({ from, to: from + 7 * 24 * H }, 'UTC', 24, 'en-US');
    const width = (tick: Tick) => 6 * Math.max(tick.label.length, tick.sub?.length ?? 0);
    const wide = fittingTicks(week, 1000, width);
    expect(wide.map((t) => t.sub)).toEqual(['Nov 29', 'Nov 30', 'Dec 1', 'Dec 2', 'Dec 3', 'Dec 4', 'Dec 5']);
    expect(wide.every((t) => t.anchor === 'center')).toBe(true);
    const edges = fittingTicks(
      [
        { at: 1, left: 0.5, label: 'Mon', major: true },
        { at: 2, left: 50, label: 'Tue', major: true },
        { at: 3, left: 99.5, label: 'Wed', major: true },
      ],
      1000,
      width,
    );
    expect(edges.map((t) => t.anchor)).toEqual(['start', 'center', 'end']);
    // 300 px: a day is 43 px, a label 36 px wide plus the gap; every other one stays.
    const narrow = fittingTicks(week, 300, width);
    expect(narrow.length).toBeLessThan(7);
    const extent = (t: (typeof narrow)[number]) => {
      const x = (t.left / 100) * 300;
      const w = width(t);

      return t.anchor === 'start' ? [x, x + w] : t.anchor === 'end' ? [x - w, x] : [x - w / 2, x + w / 2];
    };
    for (let i = 1; i < narrow.length; i++) expect(extent(narrow[i]!)[0]! - extent(narrow[i - 1]!)[1]!).toBeGreaterThanOrEqual(8);
    // Hourly ticks: a midnight is kept before the hours beside it.
    const day = timelineTicks({ from: Date.UTC(2026, 10, 28, 22), to: Date.UTC(2026, 10, 29, 22) }, 'UTC', 1, 'en-GB');
    const thin = fittingTicks(day, 200, width);
    expect(thin.some((t) => t.major)).toBe(true);
    expect(fittingTicks(day, 0, width)).toEqual([]);
  });

  it('formats a span in the given zone, naming the day once when it does not change', () => {
    const from = Date.UTC(2026, 10, 24, 7);
    expect(formatSpan({ from, to: from + 4 * H }, 'Europe/Berlin', 'en-GB')).toBe('Tue 24 Nov, 08:00 – 12:00');
    expect(formatSpan({ from, to: from + 20 * H }, 'Europe/Berlin', 'en-GB')).toBe('Tue 24 Nov, 08:00 – Wed 25 Nov, 04:00');
  });
});

describe("wall times in the screen's zone", () => {
  it('round-trips, moves a skipped time forward and takes the earlier of a repeated one', async () => {
    const { fromLocalInput, toLocalInput } = await import('./timeline');
    const at = Date.UTC(2026, 10, 24, 7, 30);
    expect(toLocalInput(at, 'Europe/Berlin')).toBe('2026-11-24T08:30');
    expect(fromLocalInput('2026-11-24T08:30', 'Europe/Berlin')).toBe(at);
    expect(fromLocalInput('2026-03-29T02:30', 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(fromLocalInput('2026-10-25T02:30', 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 0, 30));
    expect(fromLocalInput('not a time', 'Europe/Berlin')).toBeNull();
  });
});
