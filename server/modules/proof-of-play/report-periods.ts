import { Temporal } from 'temporal-polyfill';

/*
 * The periods of a proof-of-display report (spec 4 §5), worked out in the report's time zone with Temporal:
 * HOURLY, DAILY, WEEKLY (from Monday) and MONTHLY periods start at the zone's wall-clock boundaries, across DST
 * changes; TOTAL is the whole window. Every boundary is a whole quarter hour in UTC (every zone's offset is today),
 * so a period is whole runs of the quarter-hour slots of the UTC day rollups it overlaps: `slices` lists them. The
 * local mean times of the past were not (Africa/Monrovia was -0:44:30 until 1972): such a boundary is counted from
 * the quarter hour it falls in, the finest the rollups can answer; the period keeps its true start as `timestamp`.
 */

export const reportResolutions = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'TOTAL'] as const;
export type ReportResolution = (typeof reportResolutions)[number];

export const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
export const SLOTS_PER_DAY = DAY_MS / QUARTER_MS;

type ReportPeriod = {
  /** The period's start in the zone (TOTAL: the report's `from`), epoch ms. */
  timestamp: number;
  /** That start written `yyyy-MM-dd HH:mm` in the zone. */
  readableDateTime: string;
  /** The part of the period inside the window, epoch ms: [start, end), on quarter hours. */
  start: number;
  end: number;
};

/** A run of quarter-hour slots [fromSlot, toSlot) of one UTC day that belongs to period `period`. */
export type DaySlice = { day: string; period: number; fromSlot: number; toSlot: number };

export type ReportPeriods = {
  /** The window widened to whole quarter hours: `from` down, `to` up. */
  from: number;
  to: number;
  periods: ReportPeriod[];
  slices: DaySlice[];
  /** The first and last UTC day the slices touch (`yyyy-MM-dd`). */
  firstDay: string;
  lastDay: string;
};

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const isoDay = (dayIndex: number) => new Date(dayIndex * DAY_MS).toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyy-MM-dd HH:mm` of an instant in `timeZone`. */
export function readableDateTime(epochMs: number, timeZone: string): string {
  const z = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone);

  return `${String(z.year).padStart(4, '0')}-${pad(z.month)}-${pad(z.day)} ${pad(z.hour)}:${pad(z.minute)}`;
}

/** The start of the period of `resolution` holding `z`, in its zone. */
function periodStart(z: Temporal.ZonedDateTime, resolution: Exclude<ReportResolution, 'TOTAL'>): Temporal.ZonedDateTime {
  switch (resolution) {
    case 'HOURLY':
      return z.round({ smallestUnit: 'hour', roundingMode: 'floor' });
    case 'DAILY':
      return z.startOfDay();
    case 'WEEKLY':
      return z
        .toPlainDate()
        .subtract({ days: z.dayOfWeek - 1 })
        .toZonedDateTime({ timeZone: z.timeZoneId });
    case 'MONTHLY':
      return z.toPlainDate().with({ day: 1 }).toZonedDateTime({ timeZone: z.timeZoneId });
  }
}

/** The start of the next period (wall-clock days, weeks and months; exact hours). */
function nextStart(start: Temporal.ZonedDateTime, resolution: Exclude<ReportResolution, 'TOTAL'>): Temporal.ZonedDateTime {
  const zone = start.timeZoneId;
  switch (resolution) {
    case 'HOURLY':
      return start.add({ hours: 1 }).round({ smallestUnit: 'hour', roundingMode: 'floor' });
    case 'DAILY':
      return start.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: zone });
    case 'WEEKLY':
      return start.toPlainDate().add({ days: 7 }).toZonedDateTime({ timeZone: zone });
    case 'MONTHLY':
      return start.toPlainDate().add({ months: 1 }).toZonedDateTime({ timeZone: zone });
  }
}

/** The periods of [from, to) in `timeZone` (an IANA name the caller has checked) and their day slices. */
export function reportPeriods(input: { from: number; to: number; timeZone: string; resolution: ReportResolution }): ReportPeriods {
  const from = floorTo(input.from, QUARTER_MS);
  const to = Math.max(from, Math.ceil(input.to / QUARTER_MS) * QUARTER_MS);
  const periods: ReportPeriod[] = [];
  if (input.resolution === 'TOTAL') {
    periods.push({ timestamp: input.from, readableDateTime: readableDateTime(input.from, input.timeZone), start: from, end: to });
  } else {
    let start = periodStart(Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(input.timeZone), input.resolution);
    while (start.epochMilliseconds < to) {
      const next = nextStart(start, input.resolution);
      const timestamp = start.epochMilliseconds;
      periods.push({
        timestamp,
        readableDateTime: readableDateTime(timestamp, input.timeZone),
        start: Math.max(floorTo(timestamp, QUARTER_MS), from),
        end: Math.min(floorTo(next.epochMilliseconds, QUARTER_MS), to),
      });
      start = next;
    }
  }
  const slices: DaySlice[] = [];
  periods.forEach((period, index) => {
    for (let day = Math.floor(period.start / DAY_MS); day * DAY_MS < period.end; day += 1) {
      const dayStart = day * DAY_MS;
      const fromSlot = Math.max(0, (period.start - dayStart) / QUARTER_MS);
      const toSlot = Math.min(SLOTS_PER_DAY, (period.end - dayStart) / QUARTER_MS);
      if (toSlot > fromSlot) slices.push({ day: isoDay(day), period: index, fromSlot, toSlot });
    }
  });

  return {
    from,
    to,
    periods,
    slices,
    firstDay: isoDay(Math.floor(from / DAY_MS)),
    lastDay: isoDay(Math.floor(Math.max(from, to - 1) / DAY_MS)),
  };
}
