import { dayNames, type ScheduleInterval, type ScheduleIntervals } from '@/server/playback/schedule-rules.schemas';

/*
 * The schedules calendar lays out schedule interval objects (spec 1) on screens' local wall-clock time. An
 * interval names local dates and times without a zone: each screen reads it in its own zone (docs/decisions.md
 * "Playback resolution"), so one calendar in wall-clock time is right for every screen. Positions are
 * "wall minutes": day number (days since 1970-01-01) × 1440 + minutes after midnight. Dates are counted in
 * UTC arithmetic, so neither the browser's zone nor a DST change can skip or repeat a calendar day.
 */

export const MINUTES_PER_DAY = 1440;
const MS_PER_DAY = 86_400_000;
const END_OF_DAY = '23:59';

/** A set of wall-minute ranges `[start, end)`, sorted and disjoint once normalised. */
export type WallSpan = readonly [start: number, end: number];

const pad = (n: number) => String(n).padStart(2, '0');

/** Days since 1970-01-01 of a `yyyy-MM-dd` date. */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];

  return Date.UTC(y, m - 1, d) / MS_PER_DAY;
}

/** `yyyy-MM-dd` of a day number. */
export function dateOf(day: number): string {
  const d = new Date(day * MS_PER_DAY);

  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Monday 0 … Sunday 6 (1970-01-01 was a Thursday). */
export const weekdayOf = (day: number) => (((day + 3) % 7) + 7) % 7;

/** The short weekday names, Monday first, in `locale`: "Mon" … "Sun" in English. */
export function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });

  // Day 4 (1970-01-05) was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date((4 + i) * MS_PER_DAY)));
}

const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number) as [number, number];

  return h * 60 + m;
};

export const timeOf = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

/** The `yyyy-MM-dd` and `HH:mm` of a wall minute. */
export function wallParts(wall: number): { date: string; time: string } {
  const day = Math.floor(wall / MINUTES_PER_DAY);

  return { date: dateOf(day), time: timeOf(wall - day * MINUTES_PER_DAY) };
}

export const wallMinute = (date: string, time = '00:00') => dayNumber(date) * MINUTES_PER_DAY + minutesOf(time);

/** The 7 days (Monday first) of the week holding `date`. */
export function weekOf(date: string): number[] {
  const day = dayNumber(date);
  const monday = day - weekdayOf(day);

  return Array.from({ length: 7 }, (_, i) => monday + i);
}

/** The whole weeks (Monday first) covering the month of `date`: 4 to 6 rows of 7 days. */
export function monthOf(date: string): number[] {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const first = Date.UTC(y, m - 1, 1) / MS_PER_DAY;
  const last = Date.UTC(y, m, 0) / MS_PER_DAY;
  const start = first - weekdayOf(first);
  const end = last + (6 - weekdayOf(last));

  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

function normalise(spans: readonly WallSpan[]): WallSpan[] {
  const sorted = spans.filter(([s, e]) => s < e).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = out.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }

  return out;
}

/** The parts of `spans` inside `[from, to)`, minus `holes`. */
function clip(spans: readonly WallSpan[], from: number, to: number, holes: readonly WallSpan[]): WallSpan[] {
  let parts: WallSpan[] = normalise(spans.map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as const));
  for (const [hs, he] of holes) {
    parts = parts.flatMap(([s, e]): WallSpan[] =>
      he <= s || hs >= e
        ? [[s, e]]
        : (
            [
              [s, hs],
              [he, e],
            ] as WallSpan[]
          ).filter(([a, b]) => a < b),
    );
  }

  return parts;
}

/** The continuous range of one interval: `from` at `fromTime` to `to` at `toTime` (23:59 and absent: the end of that day). */
export function intervalRange(interval: Pick<ScheduleInterval, 'from' | 'fromTime' | 'to' | 'toTime'>): WallSpan {
  const start = interval.from ? wallMinute(interval.from, interval.fromTime ?? '00:00') : Number.NEGATIVE_INFINITY;
  const end = !interval.to
    ? Number.POSITIVE_INFINITY
    : interval.toTime && interval.toTime !== END_OF_DAY
      ? wallMinute(interval.to, interval.toTime)
      : (dayNumber(interval.to) + 1) * MINUTES_PER_DAY;

  return [start, end];
}

/**
 * Where one interval holds on the days `first..last`: its daily `affectedDays` × `affectedHours` windows
 * (a window across midnight belongs to the day it starts on) inside its range, with the resolver's edge flags.
 */
function intervalSpansWithin(
  interval: ScheduleInterval,
  flags: Omit<ScheduleIntervals, 'intervals'>,
  first: number,
  last: number,
): WallSpan[] {
  const [from, to] = intervalRange(interval);
  const holds = (day: number) => !interval.affectedDays || interval.affectedDays[dayNames[weekdayOf(day)]!] === true;
  const hours = interval.affectedHours;
  const bounded = hours && hours.allDay !== true && hours.from !== undefined && hours.end !== undefined;
  const windows: WallSpan[] = [];
  for (let day = first - 1; day <= last; day++) {
    if (!holds(day)) continue;
    const base = day * MINUTES_PER_DAY;
    if (!bounded) {
      windows.push([base, base + MINUTES_PER_DAY]);
      continue;
    }
    const start = base + minutesOf(hours.from!);
    const endOfDay = hours.end === END_OF_DAY;
    const endMinutes = endOfDay ? MINUTES_PER_DAY : minutesOf(hours.end!);
    if (endOfDay || hours.from! < hours.end!) windows.push([start, base + endMinutes]);
    else
      windows.push([
        start,
        flags.allowDayOfWeekOverflow === false && !holds(day + 1) ? base + MINUTES_PER_DAY : base + MINUTES_PER_DAY + endMinutes,
      ]);
  }
  const kept = windows.filter(([s, e]) => {
    if (flags.allowPartialStartingSegment === false && s < from && from < e) return false;

    return !(flags.allowPartialEndingSegment === false && s < to && to < e);
  });

  return clip(kept, from, to, []);
}

/** What the calendar needs of a schedule (a campaign with level TOP, as the version 2 list answers it). */
export type CalendarSchedule = {
  id: number;
  /** Epoch ms of 00:00 UTC of the first and last valid day (the list's encoding); absent: no limit. */
  validFrom?: number | null;
  validTo?: number | null;
  affectedDateRanges?: ScheduleIntervals | null;
  /** The campaign's own days and hours (working days and working time objects), on top of its intervals. */
  affectedDays?: Record<string, unknown> | null;
  affectedHours?: Record<string, unknown> | null;
};

/** The parts of two sets of spans that both hold. */
function intersect(a: readonly WallSpan[], b: readonly WallSpan[]): WallSpan[] {
  const [x, y] = [normalise(a), normalise(b)];
  const out: WallSpan[] = [];
  for (let i = 0, j = 0; i < x.length && j < y.length;) {
    const start = Math.max(x[i]![0], y[j]![0]);
    const end = Math.min(x[i]![1], y[j]![1]);
    if (start < end) out.push([start, end]);
    if (x[i]![1] < y[j]![1]) i++;
    else j++;
  }

  return out;
}

/**
 * Where the campaign's own `affectedDays` × `affectedHours` hold on the days `first..last` (null: no limit):
 * the same daily windows as an interval's, with the working time object's own edge flags. Hours given in a
 * `timeZone` are drawn at those wall times (the calendar has no zone; docs/decisions.md "Schedules calendar").
 */
function campaignWindows(schedule: CalendarSchedule, first: number, last: number): WallSpan[] | null {
  const days = schedule.affectedDays as ScheduleInterval['affectedDays'] | null | undefined;
  const hours = (schedule.affectedHours ?? undefined) as
    (ScheduleInterval['affectedHours'] & Omit<ScheduleIntervals, 'intervals'>) | undefined;
  const bounded = hours && hours.allDay === false && hours.from !== undefined && hours.end !== undefined;
  if (!days && !bounded) return null;
  const flags = { allowDayOfWeekOverflow: hours?.allowDayOfWeekOverflow };

  return intervalSpansWithin(
    { isExcluded: false, affectedDays: days ?? undefined, affectedHours: bounded ? hours : undefined },
    flags,
    first,
    last,
  );
}

/** One included interval's time on the calendar: which interval (to move or edit it) and where it holds. */
export type IntervalSpans = { interval: number; spans: WallSpan[] };

/**
 * Where each included interval of a schedule plays on the days `first..last`: inside the schedule's validity,
 * minus every excluded interval (an excluded one wins). A schedule with no included interval plays wherever it
 * is valid and not excluded (interval -1). The campaign's own `affectedDays`/`affectedHours` narrow every one.
 */
export function scheduleSpans(schedule: CalendarSchedule, first: number, last: number): IntervalSpans[] {
  const ranges = schedule.affectedDateRanges;
  const intervals = ranges?.intervals ?? [];
  const flags = { ...ranges, intervals: undefined };
  const validFrom = schedule.validFrom == null ? Number.NEGATIVE_INFINITY : (schedule.validFrom / MS_PER_DAY) * MINUTES_PER_DAY;
  const validTo = schedule.validTo == null ? Number.POSITIVE_INFINITY : (schedule.validTo / MS_PER_DAY + 1) * MINUTES_PER_DAY;
  const from = Math.max(first * MINUTES_PER_DAY, validFrom);
  const to = Math.min((last + 1) * MINUTES_PER_DAY, validTo);
  const excluded = normalise(intervals.filter((i) => i.isExcluded).flatMap((i) => intervalSpansWithin(i, flags, first, last)));
  const windows = campaignWindows(schedule, first, last);
  const within = (spans: WallSpan[]) => (windows ? intersect(spans, windows) : spans);
  const included = intervals.flatMap((interval, index) =>
    interval.isExcluded
      ? []
      : [{ interval: index, spans: within(clip(intervalSpansWithin(interval, flags, first, last), from, to, excluded)) }],
  );
  if (!intervals.some((i) => !i.isExcluded)) return [{ interval: -1, spans: within(clip([[from, to]], from, to, excluded)) }];

  return included.filter((i) => i.spans.length > 0);
}

/** A span's part on one calendar day, in minutes after that day's midnight; `continues*`: it goes on across midnight. */
export type DayBlock = { day: number; start: number; end: number; continuesBefore: boolean; continuesAfter: boolean };

/** The parts of `spans` on each of `days`, in order. */
export function dayBlocks(spans: readonly WallSpan[], days: readonly number[]): DayBlock[] {
  return days.flatMap((day) => {
    const base = day * MINUTES_PER_DAY;

    return spans
      .filter(([s, e]) => s < base + MINUTES_PER_DAY && e > base)
      .map(([s, e]) => ({
        day,
        start: Math.max(s, base) - base,
        end: Math.min(e, base + MINUTES_PER_DAY) - base,
        continuesBefore: s < base,
        continuesAfter: e > base + MINUTES_PER_DAY,
      }));
  });
}

/** Where a block of one day sits across its day column: lanes `lane .. lane + span - 1` of `of`. */
export type LanePlace = { lane: number; span: number; of: number };

/**
 * Side-by-side lanes for one day's blocks. Blocks that overlap, directly or through others, form a group that
 * shares its lanes; a block widens over the lanes to its right that stay free while it lasts. So one brief
 * four-way overlap narrows those four blocks, not every block of the day. `minLength`: the minutes a block
 * takes on screen at least (a short block is drawn taller than its time).
 */
export function dayLanes(blocks: ReadonlyArray<{ key: string; start: number; end: number }>, minLength = 0): Map<string, LanePlace> {
  const sorted = [...blocks]
    .map((b) => ({ key: b.key, start: b.start, end: Math.max(b.end, b.start + minLength) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const places = new Map<string, LanePlace>();
  let group: Array<{ key: string; start: number; end: number; lane: number }> = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  let laneEnds: number[] = [];
  const close = () => {
    const of = Math.max(1, laneEnds.length);
    for (const b of group) {
      let span = 1;
      while (b.lane + span < of && !group.some((o) => o.lane === b.lane + span && o.start < b.end && o.end > b.start)) span++;
      places.set(b.key, { lane: b.lane, span, of });
    }
    group = [];
    laneEnds = [];
  };
  for (const b of sorted) {
    if (b.start >= groupEnd) {
      close();
      groupEnd = Number.NEGATIVE_INFINITY;
    }
    const free = laneEnds.findIndex((end) => end <= b.start);
    const lane = free === -1 ? laneEnds.length : free;
    laneEnds[lane] = b.end;
    group.push({ ...b, lane });
    groupEnd = Math.max(groupEnd, b.end);
  }
  close();

  return places;
}

/** An interval running `[start, end)` in wall minutes, as the spec's interval object (an end at midnight is 23:59 of the day before). */
export function intervalOf(start: number, end: number, base: Partial<ScheduleInterval> = {}): ScheduleInterval {
  const from = wallParts(start);
  const endsAtMidnight = end % MINUTES_PER_DAY === 0;
  const to = endsAtMidnight ? { date: dateOf(end / MINUTES_PER_DAY - 1), time: END_OF_DAY } : wallParts(end);

  return { ...base, from: from.date, fromTime: from.time, to: to.date, toTime: to.time, isExcluded: false };
}

/**
 * The interval moved by `delta` minutes: its range and, when bounded, its daily hours (the block the user
 * dragged is the daily window). An interval without both ends cannot be moved (null).
 */
export function shiftInterval(interval: ScheduleInterval, delta: number): ScheduleInterval | null {
  const [start, end] = intervalRange(interval);
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  const hours = interval.affectedHours;
  const shiftTime = (time: string | undefined) =>
    time === undefined ? undefined : timeOf((((minutesOf(time) + delta) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY);
  const bounded = hours && hours.allDay !== true && hours.from !== undefined && hours.end !== undefined && hours.end !== END_OF_DAY;
  const affectedHours =
    bounded && delta % MINUTES_PER_DAY !== 0 ? { ...hours, from: shiftTime(hours.from), end: shiftTime(hours.end) } : hours;
  const moved = intervalOf(start + delta, end + delta, { ...interval, affectedHours });

  return { ...moved, isExcluded: interval.isExcluded };
}

/** A schedule's colour: a hue spread from its id by the golden angle, so neighbours differ and a schedule keeps its colour. */
export function scheduleColour(id: number): { background: string; border: string } {
  const hue = Math.round((id * 137.508) % 360);

  return { background: `hsl(${hue} 70% 42%)`, border: `hsl(${hue} 70% 30%)` };
}

/** Minutes snapped to the grid step (15 min), within one day. */
export const snap = (minutes: number, step = 15) => Math.max(0, Math.min(MINUTES_PER_DAY, Math.round(minutes / step) * step));

/** Today's day number in the browser's zone (the calendar's "today" mark and default week). */
export const todayDay = (now = new Date()) => Math.floor((now.getTime() - now.getTimezoneOffset() * 60_000) / MS_PER_DAY);
