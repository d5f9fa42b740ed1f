import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { at, campaign, device } from './fixtures.test-kit';
import { resolveSegments } from './resolver';
import { dailyWindows, dayStart, intervalSpans, localInstant, validitySpan } from './time-rules';

const date = (s: string) => Temporal.PlainDate.from(s);

describe('local times to instants', () => {
  it('moves a time in a spring-forward gap to the first valid instant and takes the earlier instant in a fold', () => {
    expect(localInstant(date('2026-03-29'), '02:30', 'Europe/Berlin')).toBe(at('2026-03-29T01:00:00Z')); // 03:00 CEST
    expect(localInstant(date('2026-03-29'), '03:00', 'Europe/Berlin')).toBe(at('2026-03-29T01:00:00Z'));
    expect(localInstant(date('2026-10-25'), '02:30', 'Europe/Berlin')).toBe(at('2026-10-25T00:30:00Z')); // 02:30 CEST, not CET
    expect(localInstant(date('2026-07-01'), '08:15', 'Europe/Berlin')).toBe(at('2026-07-01T06:15:00Z'));
    expect(localInstant(date('2026-07-01'), '08:15', 'Asia/Kathmandu')).toBe(at('2026-07-01T02:30:00Z'));
  });

  it('starts a day whose midnight is skipped when the gap ends', () => {
    // America/Santiago springs forward at local midnight (2026-09-06 00:00 → 01:00)
    expect(dayStart(date('2026-09-06'), 'America/Santiago')).toBe(at('2026-09-06T04:00:00Z'));
  });
});

describe('daily windows', () => {
  const zone = 'UTC';
  const days = [date('2026-06-08'), date('2026-06-09'), date('2026-06-10')]; // Mon, Tue, Wed

  it('are half-open, whole days when unbounded, and 23:59 runs to the end of the day', () => {
    expect(dailyWindows(null, null, zone, [days[0]!])).toEqual([[at('2026-06-08T00:00:00Z'), at('2026-06-09T00:00:00Z')]]);
    expect(dailyWindows(null, { allDay: false, from: '08:00', end: '23:59' }, zone, [days[0]!])).toEqual([
      [at('2026-06-08T08:00:00Z'), at('2026-06-09T00:00:00Z')],
    ]);
    expect(dailyWindows(null, { allDay: true, from: '08:00', end: '09:00' }, zone, [days[0]!])).toEqual([
      [at('2026-06-08T00:00:00Z'), at('2026-06-09T00:00:00Z')],
    ]);
  });

  it('keep a window across midnight with the day it started, and cut it at midnight without day-of-week overflow', () => {
    const tuesday = { tuesday: true };
    expect(dailyWindows(tuesday, { allDay: false, from: '22:00', end: '02:00' }, zone, days)).toEqual([
      [at('2026-06-09T22:00:00Z'), at('2026-06-10T02:00:00Z')],
    ]);
    expect(dailyWindows(tuesday, { allDay: false, from: '22:00', end: '02:00', allowDayOfWeekOverflow: false }, zone, days)).toEqual([
      [at('2026-06-09T22:00:00Z'), at('2026-06-10T00:00:00Z')],
    ]);
    expect(
      dailyWindows(
        { tuesday: true, wednesday: true },
        { allDay: false, from: '22:00', end: '02:00', allowDayOfWeekOverflow: false },
        zone,
        [days[1]!],
      ),
    ).toEqual([[at('2026-06-09T22:00:00Z'), at('2026-06-10T02:00:00Z')]]);
  });

  it('read validity dates as whole local days, both inclusive', () => {
    expect(validitySpan('2026-06-08', '2026-06-09', 'Europe/Berlin')).toEqual([at('2026-06-07T22:00:00Z'), at('2026-06-09T22:00:00Z')]);
    expect(validitySpan(null, undefined, 'UTC')).toEqual([Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]);
  });

  it('read schedule intervals from from+fromTime to to+toTime, excluded apart, no included interval meaning no restriction', () => {
    const spans = intervalSpans(
      {
        intervals: [
          { from: '2026-06-08', fromTime: '12:30', to: '2026-06-09', toTime: '06:00', isExcluded: false },
          { from: '2026-06-10', isExcluded: true },
        ],
      },
      zone,
      days,
    );
    expect(spans.included).toEqual([[at('2026-06-08T12:30:00Z'), at('2026-06-09T06:00:00Z')]]);
    expect(spans.excluded).toEqual([[at('2026-06-10T00:00:00Z'), at('2026-06-11T00:00:00Z')]]);
    expect(intervalSpans({ intervals: [{ isExcluded: true, affectedDays: { monday: true } }] }, zone, days).included).toBeNull();
  });
});

/** Every DST change of 2026–2028 in a zone: the instant, the offsets before and after (ms), and its local date. */
function transitions(zone: string) {
  const out: { t: number; before: number; after: number; date: Temporal.PlainDate }[] = [];
  let z: Temporal.ZonedDateTime | null = Temporal.Instant.from('2026-01-01T00:00:00Z').toZonedDateTimeISO(zone);
  for (;;) {
    z = z.getTimeZoneTransition('next');
    if (!z || z.epochMilliseconds >= at('2029-01-01T00:00:00Z')) break;
    const t = z.epochMilliseconds;
    const before = Temporal.Instant.fromEpochMilliseconds(t - 1).toZonedDateTimeISO(zone);
    out.push({ t, before: before.offsetNanoseconds / 1e6, after: z.offsetNanoseconds / 1e6, date: before.toPlainDate() });
  }

  return out;
}

/** The instant of wall time `hhmm` on the change day, computed from the offsets alone (gap: the change instant; fold: the earlier offset). */
function expectedInstant(tr: ReturnType<typeof transitions>[number], hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const wall = Date.UTC(tr.date.year, tr.date.month - 1, tr.date.day, h, m);
  if (tr.after > tr.before && wall >= tr.t + tr.before && wall < tr.t + tr.after) return tr.t;

  return wall < tr.t + tr.before ? wall - tr.before : wall - tr.after;
}

describe.each(['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Pacific/Chatham'])(
  'every DST change of 2026–2028 in %s',
  (zone) => {
    const changes = transitions(zone);

    it('has two changes a year', () => {
      expect(changes).toHaveLength(6);
    });

    it.each(changes.map((c) => [new Date(c.t).toISOString(), c] as const))(
      'a daily 02:30–04:00 window on the change at %s',
      (_, change) => {
        const start = expectedInstant(change, '02:30');
        const end = expectedInstant(change, '04:00');
        expect(localInstant(change.date, '02:30', zone)).toBe(start);
        const rules = { campaigns: [campaign(1, { affectedHours: { allDay: false, from: '02:30', end: '04:00' } })] };
        const window = { from: change.t - 12 * 3_600_000, to: change.t + 12 * 3_600_000 };
        const playing = resolveSegments(rules, device({ timeZone: zone }), window).filter((s) => s.layer === 'CHANNELS');
        expect(playing.map((s) => [s.from, s.to])).toEqual([[start, end]]);
      },
    );
  },
);

describe('Berlin 2026 by hand', () => {
  it('spring: 02:30 is 03:00 CEST; fall: 02:30 is the first 02:30 (CEST)', () => {
    const window = (d: string) => ({ from: at(`${d}T00:00:00Z`) - 2 * 3_600_000, to: at(`${d}T00:00:00Z`) + 22 * 3_600_000 });
    const rules = { campaigns: [campaign(1, { affectedHours: { allDay: false, from: '02:30', end: '04:00' } })] };
    const spring = resolveSegments(rules, device(), window('2026-03-29')).filter((s) => s.layer === 'CHANNELS');
    expect(spring.map((s) => [new Date(s.from).toISOString(), new Date(s.to).toISOString()])).toEqual([
      ['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z'],
    ]);
    const fall = resolveSegments(rules, device(), window('2026-10-25')).filter((s) => s.layer === 'CHANNELS');
    expect(fall.map((s) => [new Date(s.from).toISOString(), new Date(s.to).toISOString()])).toEqual([
      ['2026-10-25T00:30:00.000Z', '2026-10-25T03:00:00.000Z'],
    ]);
  });
});
