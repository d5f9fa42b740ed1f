/*
 * The two daily settings of a screen that a browser honours itself (spec 3 batch commands, read from the
 * manifest's `settings`): `workingHours` (outside them the screen is black and plays nothing) and `rebootTime`
 * (the page reloads once a day at that local time). Both are read in the manifest's `timeZone` (the screen's),
 * never the browser's: local times come from Intl for that zone. Working hours and reboot times are whole
 * minutes and zone offsets too, so the state can only change on a whole minute of the clock: the schedule
 * looks once a minute, on the minute. Clock and timers injected (unit-tested).
 */

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
type Weekday = (typeof WEEKDAYS)[number];
export type WorkingHours = { mode?: 'SCREEN' | 'DEVICE'; days?: Partial<Record<Weekday, { from?: unknown; to?: unknown }>> };

const DAY_MINUTES = 1_440;
const MINUTE = 60_000;

/** A local wall-clock time: `date` counts days since 1970-01-01, `minute` of that day, `weekday` 0 = Monday. */
export type LocalTime = { date: number; minute: number; weekday: number };

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time at `instant` in `timeZone` (IANA). Throws a RangeError for an unknown zone. */
export function localTime(instant: number, timeZone: string): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const p of format.formatToParts(instant)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const date = Math.round(Date.UTC(part.year!, part.month! - 1, part.day!) / 86_400_000);

  // 1970-01-01 was a Thursday (3 with Monday 0).
  return { date, minute: (part.hour! % 24) * 60 + part.minute!, weekday: (((date + 3) % 7) + 7) % 7 };
}

/** `HH:mm` as minutes of the day, or undefined. */
export function parseHhmm(value: unknown): number | undefined {
  const m = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value) : null;

  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/** A day's window in minutes: `to` 23:59 means to the end of the day (as campaign hours, spec 4 §4). */
function window(entry: { from?: unknown; to?: unknown } | undefined): { from: number; to: number } | 'whole' | 'invalid' | undefined {
  if (!entry) return undefined;
  const from = parseHhmm(entry.from);
  const to = parseHhmm(entry.to);
  if (from === undefined || to === undefined) return 'invalid';
  if (from === to) return 'whole';

  return { from, to: to === DAY_MINUTES - 1 ? DAY_MINUTES : to };
}

/**
 * Whether the screen works at `instant`. No `workingHours`, or no day in it, is no restriction. A day listed
 * works inside `[from, to)`; a day not listed does not work; `from` later than `to` runs across midnight
 * (22:00–02:00), its part after midnight belonging to the day it started; `from` equal to `to` is the whole
 * day. A day whose times cannot be read works (a broken setting never blacks a screen out).
 */
export function isWorking(hours: WorkingHours | undefined, timeZone: string, instant: number): boolean {
  const days = hours?.days;
  if (!days || typeof days !== 'object' || WEEKDAYS.every((d) => days[d] === undefined)) return true;
  const local = localTime(instant, timeZone);
  const today = window(days[WEEKDAYS[local.weekday]!]);
  if (today === 'whole' || today === 'invalid') return true;
  if (today && (today.from < today.to ? local.minute >= today.from && local.minute < today.to : local.minute >= today.from)) return true;
  const yesterday = window(days[WEEKDAYS[(local.weekday + 6) % 7]!]);

  return typeof yesterday === 'object' && yesterday.from > yesterday.to && local.minute < yesterday.to;
}

const localMinutes = (instant: number, timeZone: string): number => {
  const l = localTime(instant, timeZone);

  return l.date * DAY_MINUTES + l.minute;
};

/**
 * When clocks went back in the three hours before `instant` (an hour, or half of one, is lived twice): the last
 * local minute shown before they did, which may be later than the local time at `instant`. Else undefined.
 */
function lastBeforeFallBack(instant: number, timeZone: string): number | undefined {
  const offset = (minute: number) => localMinutes(minute * MINUTE, timeZone) - minute;
  let hi = Math.floor(instant / MINUTE);
  let lo = hi - 180;
  const after = offset(hi);
  if (offset(lo) <= after) return undefined;
  // The last minute with the earlier (larger) offset.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offset(mid) > after) lo = mid;
    else hi = mid;
  }

  return localMinutes(lo * MINUTE, timeZone);
}

/**
 * Whether the local time `rebootTime` (HH:mm) of some day was first reached in `(previous, instant]`. Compared as
 * local date and minute, so a time skipped by a spring-forward gap is reached at the first minute after it (02:30
 * in Berlin on that day: at 03:00), and one lived twice when clocks fall back is reached once, the first time.
 */
export function rebootDue(rebootTime: unknown, timeZone: string, previous: number, instant: number): boolean {
  const at = parseHhmm(rebootTime);
  if (at === undefined || instant <= previous) return false;
  const before = localMinutes(previous, timeZone);
  const now = localMinutes(instant, timeZone);
  const dates = [Math.floor(before / DAY_MINUTES), Math.floor(now / DAY_MINUTES)];
  const passed = dates.map((date) => date * DAY_MINUTES + at).filter((r) => before < r && r <= now);
  if (passed.length === 0) return false;
  const highest = lastBeforeFallBack(previous, timeZone);

  return passed.some((r) => highest === undefined || highest < r);
}

export type PowerSettings = { workingHours?: WorkingHours; rebootTime?: unknown };

export type PowerDeps = {
  /** The server's clock (epoch ms). */
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
  /** The screen enters (true) or leaves (false) its working hours; called once at the start too. */
  working: (on: boolean) => void;
  /** The daily reboot time has come. */
  reboot: () => void;
  /** A setting could not be read (an unknown time zone): it is ignored. */
  warn?: (message: string) => void;
};

/** Looks at the working hours and the reboot time on every whole minute of the server's clock. */
export class PowerSchedule {
  private settings: PowerSettings = {};
  private timeZone = 'UTC';
  private timer: unknown;
  private last: number | undefined;
  private on: boolean | undefined;

  constructor(private readonly deps: PowerDeps) {}

  /** New settings (a new manifest): looked at at once, then on every minute. */
  update(settings: PowerSettings, timeZone: string | undefined): void {
    this.settings = settings;
    this.timeZone = timeZone || 'UTC';
    this.check(this.deps.now(), false);
  }

  stop(): void {
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    this.timer = undefined;
  }

  private check(instant: number, tick: boolean): void {
    this.stop();
    let on = true;
    let reboot = false;
    try {
      on = isWorking(this.settings.workingHours, this.timeZone, instant);
      reboot = tick && this.last !== undefined && rebootDue(this.settings.rebootTime, this.timeZone, this.last, instant);
    } catch (err) {
      this.deps.warn?.(`working hours and reboot time ignored: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.last = Math.max(instant, this.last ?? instant);
    if (on !== this.on) {
      this.on = on;
      this.deps.working(on);
    }
    if (reboot) {
      this.deps.reboot();
      return;
    }
    // The next whole minute; a timer that fires a little early is read as that minute.
    const next = Math.floor(instant / MINUTE) * MINUTE + MINUTE;
    this.timer = this.deps.setTimer(() => this.check(Math.max(this.deps.now(), next), true), next - this.deps.now());
  }
}
