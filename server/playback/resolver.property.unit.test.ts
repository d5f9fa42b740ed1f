import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { campaign, content, device, file } from './fixtures.test-kit';
import { timeSets } from './eligibility';
import { explain, resolveSegments } from './resolver';
import { contains, edgesWithin } from './spans';
import type { CampaignHours, ScheduleInterval, WorkingDays } from './schedule-rules.schemas';
import type { CampaignRules, DeviceFacts, PlaybackRules, PlaybackWindow } from './types';

/*
 * Properties of the resolver over random rules, zones and windows around the DST changes of March/April 2026
 * (Berlin and New York spring forward, Sydney and Chatham fall back).
 */

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Pacific/Chatham', 'Asia/Kathmandu', 'UTC'];
const BASE = Date.parse('2026-03-20T00:00:00Z');
const HOUR = 3_600_000;
const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const pad = (n: number) => String(n).padStart(2, '0');
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 59)).map(([h, m]) => `${pad(h)}:${pad(m)}`);
const localDate = fc.integer({ min: 0, max: 24 }).map((n) => Temporal.PlainDate.from('2026-03-18').add({ days: n }).toString());
const days: fc.Arbitrary<WorkingDays> = fc
  .tuple(...DAY_NAMES.map(() => fc.boolean()))
  .map((bits) => Object.fromEntries(DAY_NAMES.map((d, i) => [d, bits[i]])) as WorkingDays);
const flags = {
  allowPartialStartingSegment: opt(fc.boolean()),
  allowPartialEndingSegment: opt(fc.boolean()),
  allowDayOfWeekOverflow: opt(fc.boolean()),
};
const hours: fc.Arbitrary<CampaignHours> = fc
  .record({ allDay: fc.constant(false), from: hhmm, end: hhmm, timeZone: opt(fc.constantFrom(...ZONES)), ...flags })
  .filter((h) => h.from !== h.end) as fc.Arbitrary<CampaignHours>;
const interval: fc.Arbitrary<ScheduleInterval> = fc
  .record({
    from: opt(localDate),
    fromTime: opt(hhmm),
    to: opt(localDate),
    toTime: opt(hhmm),
    affectedDays: opt(days),
    affectedHours: opt(fc.record({ allDay: fc.constant(false), from: hhmm, end: hhmm }).filter((h) => h.from !== h.end)),
    isExcluded: fc.boolean(),
  })
  .filter((i) => !i.from || !i.to || i.from <= i.to);

const rulesOf = (id: number) =>
  fc
    .record({
      level: fc.constantFrom<CampaignRules['level']>('WIDGET', 'WIDGET', 'WIDGET', 'TOP'),
      weight: fc.integer({ min: 0, max: 3 }),
      enabled: fc.constantFrom(true, true, true, false),
      validFrom: opt(localDate),
      validTo: opt(localDate),
      affectedDays: opt(days),
      affectedHours: opt(hours),
      affectedDateRanges: opt(fc.record({ intervals: fc.array(interval, { maxLength: 3 }), ...flags })),
      fileValidity: opt(fc.tuple(fc.integer({ min: 0, max: 20 * 24 }), fc.integer({ min: 1, max: 72 }))),
    })
    .map(({ fileValidity, level, ...r }): CampaignRules => {
      const files = [
        file(
          id,
          fileValidity ? { validFrom: BASE + fileValidity[0] * HOUR, validTo: BASE + (fileValidity[0] + fileValidity[1]) * HOUR } : {},
        ),
      ];

      return campaign(id, { ...r, level, files, contents: level === 'TOP' ? [content(id)] : [] });
    });

const rules: fc.Arbitrary<PlaybackRules> = fc
  .integer({ min: 1, max: 4 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rulesOf(i + 1))).map((campaigns) => ({ campaigns })));
const facts: fc.Arbitrary<DeviceFacts> = fc
  .record({ timeZone: fc.constantFrom(...ZONES), content: fc.boolean() })
  .map(({ timeZone, content: hasContent }) =>
    device({ timeZone, content: hasContent ? { id: content(99).id, name: 'assigned', deviceContentType: 'simpleLoop' } : null }),
  );
const windowArb: fc.Arbitrary<PlaybackWindow> = fc
  .tuple(fc.integer({ min: 0, max: 20 * 24 * 60 }), fc.integer({ min: 1, max: 3 * 24 * 60 }))
  .map(([start, length]) => ({ from: BASE + start * 60_000, to: BASE + (start + length) * 60_000 }));

/** The rules without the edge-case flags (the oracle below reads the spec's per-instant rule only). */
const withoutFlags = (r: PlaybackRules): PlaybackRules => ({
  campaigns: r.campaigns.map((c) => ({
    ...c,
    affectedHours: c.affectedHours && {
      ...c.affectedHours,
      allowPartialStartingSegment: undefined,
      allowPartialEndingSegment: undefined,
      allowDayOfWeekOverflow: undefined,
    },
    affectedDateRanges: c.affectedDateRanges && { intervals: c.affectedDateRanges.intervals },
  })),
});

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const holdsOn = (days: WorkingDays | null | undefined, d: Temporal.PlainDate) => !days || days[DAY_NAMES[d.dayOfWeek - 1]!] === true;

/** Daily windows read on the wall clock of `zone` at `t` (no DST change nearby), straight from the spec's words. */
function hoursHold(
  days: WorkingDays | null | undefined,
  hours: { allDay?: boolean; from?: string; end?: string } | null | undefined,
  zone: string,
  t: number,
): boolean {
  const z = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone);
  const day = z.toPlainDate();
  const m = z.hour * 60 + z.minute;
  if (!hours || hours.allDay === true || hours.from === undefined || hours.end === undefined) return holdsOn(days, day);
  const [from, end] = [minutes(hours.from), minutes(hours.end)];
  if (hours.end === '23:59') return holdsOn(days, day) && m >= from;
  if (from < end) return holdsOn(days, day) && m >= from && m < end;

  return (holdsOn(days, day) && m >= from) || (holdsOn(days, day.subtract({ days: 1 })) && m < end);
}

/** The reasons of a campaign at `t`, computed on wall clocks and strings, independently of the resolver. */
function oracleReasons(c: CampaignRules, zone: string, t: number): string[] {
  const z = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone);
  const today = z.toPlainDate().toString();
  const wall = `${today}T${pad(z.hour)}:${pad(z.minute)}`;
  const inInterval = (i: ScheduleInterval) =>
    (!i.from || wall >= `${i.from}T${i.fromTime ?? '00:00'}`) &&
    (!i.to || wall < `${i.to}T${i.toTime && i.toTime !== '23:59' ? i.toTime : '24:00'}`) &&
    hoursHold(i.affectedDays, i.affectedHours, zone, t);
  const intervals = c.affectedDateRanges?.intervals ?? [];
  const included = intervals.filter((i) => !i.isExcluded);
  const reasons: string[] = [];
  if (!c.enabled) reasons.push('DISABLED');
  if (c.validFrom && today < c.validFrom) reasons.push('NOT_VALID_YET');
  if (c.validTo && today > c.validTo) reasons.push('EXPIRED');
  if (!hoursHold(c.affectedDays, c.affectedHours, c.affectedHours?.timeZone ?? zone, t)) reasons.push('OUTSIDE_HOURS');
  if (included.length > 0 && !included.some(inInterval)) reasons.push('OUTSIDE_DATE_RANGES');
  if (intervals.some((i) => i.isExcluded && inInterval(i))) reasons.push('EXCLUDED_RANGE');
  const playable =
    c.level === 'TOP'
      ? (c.contents ?? []).length > 0
      : (c.files ?? []).some((f) => (f.validFrom ?? -Infinity) <= t && t <= (f.validTo ?? Infinity));
  if (!playable) reasons.push('NO_PLAYABLE_ITEMS');

  return reasons;
}

/** No offset change within a day and a bit of `t` in any of the zones (wall-clock reasoning holds there). */
const steady = (t: number, zones: string[]) =>
  zones.every((zone) => {
    const offset = (x: number) => Temporal.Instant.fromEpochMilliseconds(x).toZonedDateTimeISO(zone).offsetNanoseconds;

    return offset(t - 26 * HOUR) === offset(t) && offset(t + 26 * HOUR) === offset(t);
  });

const stateKey = ({ from: _f, to: _t, ...state }: { from: number; to: number }) => JSON.stringify(state);

describe('resolver properties', () => {
  it('segments cover the window without gaps or overlaps and neighbours differ', () => {
    fc.assert(
      fc.property(rules, facts, windowArb, (r, d, w) => {
        const segments = resolveSegments(r, d, w);
        expect(segments[0]!.from).toBe(w.from);
        expect(segments[segments.length - 1]!.to).toBe(w.to);
        segments.forEach((s, i) => {
          expect(s.from).toBeLessThan(s.to);
          const next = segments[i + 1];
          if (next) {
            expect(next.from).toBe(s.to);
            expect(stateKey(next)).not.toBe(stateKey(s));
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('eligible at T ⇔ T lies in a segment listing it (and explain names the segment layer)', () => {
    fc.assert(
      fc.property(rules, facts, windowArb, fc.double({ min: 0, max: 1, noNaN: true }), (r, d, w, u) => {
        const segments = resolveSegments(r, d, w);
        const probes = [...segments.flatMap((s) => [s.from, s.to - 1]), Math.min(w.to - 1, w.from + Math.floor(u * (w.to - w.from)))];
        for (const t of probes) {
          const segment = segments.find((s) => s.from <= t && t < s.to)!;
          const why = explain(r, d, t);
          expect(why.layer).toBe(segment.layer);
          for (const c of why.campaigns.filter((x) => x.level === 'WIDGET')) {
            expect(segment.channels.some((ch) => ch.campaignId === c.id)).toBe(c.eligible);
            expect(c.eligible).toBe(c.reasons.length === 0);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('explain agrees with a wall-clock oracle written from the spec, away from DST changes', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        rules.map(withoutFlags),
        facts,
        fc.integer({ min: 0, max: 20 * 24 * 60 }),
        fc.integer({ min: 0, max: 59_999 }),
        (r, d, minute, ms) => {
          const t = BASE + minute * 60_000 + ms;
          if (!steady(t, [d.timeZone, ...r.campaigns.flatMap((c) => (c.affectedHours?.timeZone ? [c.affectedHours.timeZone] : []))]))
            return;
          checked++;
          const why = explain(r, d, t);
          r.campaigns.forEach((c, i) => expect(why.campaigns[i]!.reasons).toEqual(oracleReasons(c, d.timeZone, t)));
        },
      ),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(50);
  });

  it('an excluded interval always wins', () => {
    fc.assert(
      fc.property(rules, facts, fc.integer({ min: 0, max: 20 * 24 * 60 }), (r, d, minute) => {
        const t = BASE + minute * 60_000;
        const today = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(d.timeZone).toPlainDate().toString();
        const blackout = {
          campaigns: r.campaigns.map((c) => ({
            ...c,
            affectedDateRanges: {
              ...c.affectedDateRanges,
              intervals: [...(c.affectedDateRanges?.intervals ?? []), { from: today, to: today, isExcluded: true }],
            },
          })),
        };
        for (const c of explain(blackout, d, t).campaigns) {
          expect(c.eligible).toBe(false);
          expect(c.reasons).toContain('EXCLUDED_RANGE');
        }
        const segment = resolveSegments(blackout, d, { from: t, to: t + 1 })[0]!;
        expect(segment.channels).toEqual([]);
        expect(segment.layer).not.toBe('SCHEDULE');
      }),
      { numRuns: 100 },
    );
  });

  it('a window across midnight covers both sides of midnight, on the day it started only', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 365 }),
        fc.tuple(fc.integer({ min: 18, max: 23 }), fc.constantFrom(0, 15, 30, 45)),
        // ends before 02:00: no DST gap or fold of these zones starts earlier than 01:00 (New York's fold 01:00–02:00 takes the earlier instant, as Temporal's default)
        fc.tuple(fc.integer({ min: 0, max: 1 }), fc.constantFrom(15, 30, 45)),
        (zone, n, [fh, fm], [eh, em]) => {
          const day = Temporal.PlainDate.from('2026-01-01').add({ days: n });
          const wall = (d: Temporal.PlainDate, h: number, m: number) =>
            d.toZonedDateTime({ timeZone: zone, plainTime: { hour: h, minute: m } }).epochMilliseconds;
          const rules = {
            campaigns: [
              campaign(1, {
                affectedDays: { [DAY_NAMES[day.dayOfWeek - 1]!]: true } as WorkingDays,
                affectedHours: { allDay: false, from: `${pad(fh)}:${pad(fm)}`, end: `${pad(eh)}:${pad(em)}` },
              }),
            ],
          };
          const d = device({ timeZone: zone });
          const next = day.add({ days: 1 });
          expect(explain(rules, d, wall(day, 23, 50)).campaigns[0]!.eligible).toBe(true);
          expect(explain(rules, d, wall(next, 0, 10)).campaigns[0]!.eligible).toBe(true);
          expect(explain(rules, d, wall(next, 23, 50)).campaigns[0]!.reasons).toEqual(['OUTSIDE_HOURS']);
          const segments = resolveSegments(rules, d, { from: wall(day, 12, 0), to: wall(next, 12, 0) }).filter(
            (s) => s.layer === 'CHANNELS',
          );
          expect(segments.map((s) => [s.from, s.to])).toEqual([[wall(day, fh, fm), wall(next, eh, em)]]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('time sets over a wider, day-aligned window are the same inside the narrower one (what the shared time-set cache relies on)', () => {
    fc.assert(
      fc.property(
        rulesOf(1),
        fc.constantFrom(...ZONES),
        windowArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }),
        (c, zone, w, at) => {
          const DAY = 24 * HOUR;
          const wide = { from: (Math.floor(w.from / DAY) - 1) * DAY, to: (Math.ceil(w.to / DAY) + 1) * DAY };
          const narrow = timeSets(c, zone, w);
          const wider = timeSets(c, zone, wide);
          const instants = [w.from, w.to - 1, ...at.map((x) => Math.floor(w.from + x * (w.to - w.from - 1)))];
          for (const t of instants) {
            expect(contains(wider.time, t), `time at ${t}`).toBe(contains(narrow.time, t));
            expect(contains(wider.hours, t), `hours at ${t}`).toBe(contains(narrow.hours, t));
            expect(contains(wider.excluded, t), `excluded at ${t}`).toBe(contains(narrow.excluded, t));
            expect(wider.included === null ? true : contains(wider.included, t)).toBe(
              narrow.included === null ? true : contains(narrow.included, t),
            );
          }
          expect(edgesWithin(wider.time, w.from, w.to)).toEqual(edgesWithin(narrow.time, w.from, w.to));
        },
      ),
      { numRuns: 300 },
    );
  });
});
