import { Temporal } from 'temporal-polyfill';
import type { WorkingDays } from '@/server/playback/schedule-rules.schemas';
import { normalise, type Span } from '@/server/playback/spans';
import { dailyWindows, type HoursLike } from '@/server/playback/time-rules';
import type { StoredWorkingTime } from './alert-rules.schemas';

/*
 * When an alert rule may evaluate (spec 1 "Working days and working time objects", spec 5 §5): on its working days,
 * within its working time, both read in `workingTime.timeZone` (UTC when an all-day rule names none). Local times
 * become instants through the playback's conversions, so DST days are right: Berlin's 2026-03-29 is 23 hours long,
 * 2026-10-25 25 hours, and 08:00–18:00 is 08:00–18:00 on the wall clock on both.
 */

export type WorkingSchedule = { workingDays: WorkingDays | null; workingTime: StoredWorkingTime };

/** How far ahead the next working window is looked for: a week has every weekday, plus a day either side. */
const LOOKAHEAD_DAYS = 9;

const zoneOf = (time: StoredWorkingTime): string => time.timeZone ?? 'UTC';

/** The rule's working window of a day: the whole day unless bounded by `from` and `end` (`end` 23:59 runs to midnight). */
function hoursOf(time: StoredWorkingTime): HoursLike {
  return time.allDay === true ? { allDay: true } : { allDay: false, from: time.from, end: time.end };
}

/** The working windows of the local days from the day before `at` to `days` days after it, merged and sorted. */
function windowsAround(schedule: WorkingSchedule, at: number, days: number): Span[] {
  if (!schedule.workingDays) return [];
  const zone = zoneOf(schedule.workingTime);
  const today = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone).toPlainDate();
  const dates = Array.from({ length: days + 2 }, (_, i) => today.add({ days: i - 1 }));

  return normalise(dailyWindows(schedule.workingDays, hoursOf(schedule.workingTime), zone, dates));
}

/** True when `at` (epoch ms) is within the rule's working days and working time. Null working days: never. */
export function isWorkingTime(schedule: WorkingSchedule, at: number): boolean {
  return windowsAround(schedule, at, 0).some(([start, end]) => start <= at && at < end);
}

/**
 * The first instant at or after `at` within working time (`at` itself when it is within), or null when no day of the
 * coming week is a working day (null working days, or all seven false).
 */
export function nextWorkingInstant(schedule: WorkingSchedule, at: number): number | null {
  const next = windowsAround(schedule, at, LOOKAHEAD_DAYS).find(([, end]) => end > at);

  return next ? Math.max(next[0], at) : null;
}
