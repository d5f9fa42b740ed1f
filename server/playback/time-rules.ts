import { Temporal } from 'temporal-polyfill';
import { dayNames, type ScheduleIntervals, type WorkingDays } from './schedule-rules.schemas';
import { memo } from './memo';
import { normalise, type Span } from './spans';
import type { LocalDate, PlaybackWindow } from './types';

/*
 * Local times of the time rules turned into instants (spec 4 §4, spec 1). Every zone is named: nothing reads
 * the process time zone. A local time in a spring-forward gap becomes the first valid instant after the gap
 * (Berlin 02:30 on the change day → 03:00 CEST); one in a fall-back fold takes the earlier instant.
 */

type PlainDate = Temporal.PlainDate;

const END_OF_DAY = '23:59';

/*
 * The pure conversions below are remembered by their inputs (`memo`): one resolution asks the same day starts
 * and dates of every campaign again (a zone's conversion through the Temporal polyfill dominated the resolver's
 * CPU profile).
 */
const instants = memo<number>(20_000);
const dateLists = memo<readonly PlainDate[]>(1_000);

/** Epoch ms of local `time` (`HH:mm`) on `date` in `zone`: gap → first instant after it, fold → earlier. */
export function localInstant(date: PlainDate, time: string, zone: string): number {
  return instants(`${zone}|${date.toString()}|${time}`, () => convertLocalInstant(date, time, zone));
}

function convertLocalInstant(date: PlainDate, time: string, zone: string): number {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = date.toPlainDateTime({ hour, minute });
  const earlier = wall.toZonedDateTime(zone, { disambiguation: 'earlier' });
  if (Temporal.PlainDateTime.compare(earlier.toPlainDateTime(), wall) === 0) return earlier.epochMilliseconds;
  // In a gap `earlier` lies before it (wall time shifted back by the gap); the gap ends at the next transition.
  const transition = earlier.getTimeZoneTransition('next');

  return (transition ?? wall.toZonedDateTime(zone, { disambiguation: 'later' })).epochMilliseconds;
}

/** The first instant of a local day (a day whose midnight falls in a gap starts when the gap ends). */
export const dayStart = (date: PlainDate, zone: string): number => localInstant(date, '00:00', zone);

const localDateAt = (epochMs: number, zone: string): PlainDate =>
  Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone).toPlainDate();

const dateTexts = memo<string>(20_000);

/** The local date (`yyyy-MM-dd`) of an instant in `zone`, remembered: the RANDOM seeds of every screen ask it at the same cuts. */
export const localDateTextAt = (epochMs: number, zone: string): string =>
  dateTexts(`${zone}|${epochMs}`, () => localDateAt(epochMs, zone).toString());

const parseLocalDate = (value: LocalDate): PlainDate => Temporal.PlainDate.from(value);

/** The local dates whose windows can reach into the window: one day either side (windows across midnight, zone offsets). */
export function datesAround(window: PlaybackWindow, zone: string): PlainDate[] {
  return [
    ...dateLists(`${zone}|${window.from}|${window.to}`, () => {
      const first = localDateAt(window.from, zone).subtract({ days: 1 });
      const last = localDateAt(Math.max(window.from, window.to - 1), zone).add({ days: 1 });
      const dates: PlainDate[] = [];
      for (let d = first; Temporal.PlainDate.compare(d, last) <= 0; d = d.add({ days: 1 })) dates.push(d);

      return dates;
    }),
  ];
}

/** The device-zone day starts strictly inside the window (where a day-seeded shuffle changes). */
export function dayStartsWithin(window: PlaybackWindow, zone: string): number[] {
  return datesAround(window, zone)
    .map((d) => dayStart(d, zone))
    .filter((t) => t > window.from && t < window.to);
}

const dayHolds = (days: WorkingDays | null | undefined, date: PlainDate): boolean => !days || days[dayNames[date.dayOfWeek - 1]!] === true;

export type HoursLike = { allDay?: boolean; from?: string; end?: string; allowDayOfWeekOverflow?: boolean };

const isBounded = (hours: HoursLike | null | undefined): hours is HoursLike & { from: string; end: string } =>
  !!hours && hours.allDay !== true && hours.from !== undefined && hours.end !== undefined;

/**
 * The daily windows `[from, end)` of `affectedDays` × `affectedHours` on the given local dates, one per day
 * it holds on (not merged). `end` 23:59 runs to the end of the day. `from` later than `end` spans midnight;
 * that window belongs to the day it starts on (only that day is checked against `days`), and when
 * `allowDayOfWeekOverflow` is false it stops at midnight if the next day does not hold.
 */
export function dailyWindows(
  days: WorkingDays | null | undefined,
  hours: HoursLike | null | undefined,
  zone: string,
  dates: readonly PlainDate[],
): Span[] {
  const windows: Span[] = [];
  for (const date of dates) {
    if (!dayHolds(days, date)) continue;
    const next = date.add({ days: 1 });
    if (!isBounded(hours)) {
      windows.push([dayStart(date, zone), dayStart(next, zone)]);
      continue;
    }
    const start = localInstant(date, hours.from, zone);
    if (hours.end === END_OF_DAY) windows.push([start, dayStart(next, zone)]);
    else if (hours.from < hours.end) windows.push([start, localInstant(date, hours.end, zone)]);
    else {
      const cut = hours.allowDayOfWeekOverflow === false && !dayHolds(days, next);
      windows.push([start, cut ? dayStart(next, zone) : localInstant(next, hours.end, zone)]);
    }
  }

  return windows.filter(([s, e]) => s < e);
}

/** `[start of validFrom, start of the day after validTo)` in `zone`; an absent bound is open. */
export function validitySpan(validFrom: LocalDate | null | undefined, validTo: LocalDate | null | undefined, zone: string): Span {
  return [
    validFrom ? dayStart(parseLocalDate(validFrom), zone) : Number.NEGATIVE_INFINITY,
    validTo ? dayStart(parseLocalDate(validTo).add({ days: 1 }), zone) : Number.POSITIVE_INFINITY,
  ];
}

export type EdgeFlags = { allowPartialStartingSegment?: boolean; allowPartialEndingSegment?: boolean };

/**
 * The daily windows without those cut by an edge of `bounds` whose flag is false: a window that starts
 * before `bounds` and ends inside it is dropped when `allowPartialStartingSegment` is false; one that starts
 * inside and ends after it when `allowPartialEndingSegment` is false. Absent flags keep every window.
 */
export function dropPartialWindows(windows: readonly Span[], bounds: Span, flags: EdgeFlags | null | undefined): Span[] {
  const [from, to] = bounds;

  return windows.filter(([s, e]) => {
    if (flags?.allowPartialStartingSegment === false && s < from && from < e) return false;
    if (flags?.allowPartialEndingSegment === false && s < to && to < e) return false;

    return true;
  });
}

/** The daily windows clipped to `bounds` (partial windows dropped as their flags say). */
function windowsWithin(windows: readonly Span[], bounds: Span, flags: EdgeFlags | null | undefined): Span[] {
  const [from, to] = bounds;

  return normalise(dropPartialWindows(windows, bounds, flags).map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as const));
}

/**
 * The included and excluded instants of `affectedDateRanges` (spec 1 "Schedule interval object") in the
 * device's zone: each interval runs from `from` at `fromTime` (default the day's start) to `to` at `toTime`
 * (default, and 23:59, the day's end), and within that holds on its daily `affectedDays` × `affectedHours`.
 * `included` is null when no interval includes (no restriction from that side).
 */
export function intervalSpans(
  ranges: ScheduleIntervals | null | undefined,
  zone: string,
  dates: readonly PlainDate[],
): { included: Span[] | null; excluded: Span[] } {
  const included: Span[] = [];
  const excluded: Span[] = [];
  let hasIncluded = false;
  for (const interval of ranges?.intervals ?? []) {
    const start = interval.from
      ? localInstant(parseLocalDate(interval.from), interval.fromTime ?? '00:00', zone)
      : Number.NEGATIVE_INFINITY;
    const toDate = interval.to ? parseLocalDate(interval.to) : undefined;
    const end = !toDate
      ? Number.POSITIVE_INFINITY
      : interval.toTime && interval.toTime !== END_OF_DAY
        ? localInstant(toDate, interval.toTime, zone)
        : dayStart(toDate.add({ days: 1 }), zone);
    const hours = { ...interval.affectedHours, allowDayOfWeekOverflow: ranges?.allowDayOfWeekOverflow };
    const windows = windowsWithin(dailyWindows(interval.affectedDays, hours, zone, dates), [start, end], ranges);
    if (interval.isExcluded) excluded.push(...windows);
    else {
      hasIncluded = true;
      included.push(...windows);
    }
  }

  return { included: hasIncluded ? normalise(included) : null, excluded: normalise(excluded) };
}
