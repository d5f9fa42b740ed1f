import { Temporal } from 'temporal-polyfill';

/*
 * Placing a screen's schedule segments on a time axis, in the screen's own time zone (spec 4 §4: the
 * console shows what the device plays, when it plays it there). Pure: no clock, no process time zone.
 */

export type TimeWindow = { from: number; to: number };
export type Bar<T> = { item: T; left: number; width: number };
/** An axis tick: `label` on the first line; `sub` (the date of a day's start) on a second line, so the two never share one. */
export type Tick = { at: number; left: number; label: string; sub?: string; major: boolean };

/** Each item's share of the window as percentages (clipped to it); items outside it are left out. */
export function timelineBars<T extends TimeWindow>(items: readonly T[], window: TimeWindow): Bar<T>[] {
  const span = window.to - window.from;
  if (span <= 0) return [];

  return items.flatMap((item) => {
    const from = Math.max(item.from, window.from);
    const to = Math.min(item.to, window.to);
    if (to <= from) return [];

    return [{ item, left: ((from - window.from) / span) * 100, width: ((to - from) / span) * 100 }];
  });
}

/**
 * Axis ticks at local boundaries in `timeZone`: every `everyHours` hours of the local day (hours that a
 * DST change skips are skipped; a repeated hour is marked once), major at local midnight. Hourly ticks are
 * labelled with the hour and a midnight also with its date below; daily ticks with the weekday and the
 * date below: short labels that do not run into each other ("9 PM" beside "Sun, Nov 29" did).
 */
export function timelineTicks(window: TimeWindow, timeZone: string, everyHours: number, locale?: string): Tick[] {
  const span = window.to - window.from;
  if (span <= 0 || everyHours <= 0) return [];
  const start = Temporal.Instant.fromEpochMilliseconds(window.from).toZonedDateTimeISO(timeZone);
  const ticks: Tick[] = [];
  const seen = new Set<number>();
  for (let day = start.toPlainDate(); ; day = day.add({ days: 1 })) {
    const dayStart = day.toZonedDateTime({ timeZone }).epochMilliseconds;
    if (dayStart >= window.to) break;
    for (let hour = 0; hour < 24; hour += everyHours) {
      const local = day.toPlainDateTime({ hour });
      const zoned = local.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
      // A skipped hour (spring forward) lands on another hour: leave it out.
      if (zoned.hour !== hour) continue;
      const at = zoned.epochMilliseconds;
      if (at < window.from || at >= window.to || seen.has(at)) continue;
      seen.add(at);
      const daily = everyHours >= 24;
      const label = daily
        ? formatInZone(at, timeZone, { weekday: 'short' }, locale)
        : formatInZone(at, timeZone, { hour: 'numeric' }, locale);
      const sub = daily
        ? formatInZone(at, timeZone, { day: 'numeric', month: 'short' }, locale)
        : hour === 0
          ? formatInZone(at, timeZone, { weekday: 'short', day: 'numeric' }, locale)
          : undefined;
      ticks.push({ at, left: ((at - window.from) / span) * 100, label, ...(sub ? { sub } : {}), major: hour === 0 });
    }
  }

  return ticks;
}

/** Where a tick's label sits against its tick: centred, or starting or ending there when centring would cross an edge. */
type TickAnchor = 'start' | 'center' | 'end';
export type PlacedTick = Tick & { anchor: TickAnchor };

/**
 * The ticks whose labels fit side by side on an axis `widthPx` wide, `gapPx` apart at least: midnights
 * first (left to right), then the other ticks where room is left. `labelWidth` measures a tick's label
 * (its wider line). A label that centred would cross an edge is anchored inside it instead. On a narrow
 * axis this thins the labels rather than letting them run into each other (a week at 1024 wide did).
 */
export function fittingTicks(ticks: readonly Tick[], widthPx: number, labelWidth: (tick: Tick) => number, gapPx = 8): PlacedTick[] {
  if (widthPx <= 0) return [];
  const placed = ticks.map((tick) => {
    const x = (tick.left / 100) * widthPx;
    const w = labelWidth(tick);
    const anchor: TickAnchor = x - w / 2 < 0 ? 'start' : x + w / 2 > widthPx ? 'end' : 'center';
    const start = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;

    return { tick: { ...tick, anchor }, start, end: start + w };
  });
  const kept: typeof placed = [];
  for (const candidate of [...placed.filter((p) => p.tick.major), ...placed.filter((p) => !p.tick.major)]) {
    if (kept.every((other) => candidate.end + gapPx <= other.start || other.end + gapPx <= candidate.start)) kept.push(candidate);
  }

  return kept.sort((a, b) => a.tick.at - b.tick.at).map((p) => p.tick);
}

/** `epochMs` formatted in `timeZone` (the screen's), never the browser's own zone. */
export function formatInZone(epochMs: number, timeZone: string, options: Intl.DateTimeFormatOptions, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(new Date(epochMs));
}

/** "Mon 24 Nov, 08:00 – 12:00" in `timeZone`; the day is repeated only when the end falls on another day. */
export function formatSpan(window: TimeWindow, timeZone: string, locale?: string): string {
  const day = (ms: number) => formatInZone(ms, timeZone, { weekday: 'short', day: 'numeric', month: 'short' }, locale);
  const time = (ms: number) => formatInZone(ms, timeZone, { hour: '2-digit', minute: '2-digit' }, locale);
  const sameDay = day(window.from) === day(window.to - 1);

  return sameDay
    ? `${day(window.from)}, ${time(window.from)} – ${time(window.to)}`
    : `${day(window.from)}, ${time(window.from)} – ${day(window.to)}, ${time(window.to)}`;
}

/** The `yyyy-MM-ddTHH:mm` wall time of `epochMs` in `timeZone` (for a `datetime-local` input showing the screen's time). */
export function toLocalInput(epochMs: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(epochMs)
    .toZonedDateTimeISO(timeZone)
    .toPlainDateTime()
    .toString({ smallestUnit: 'minute' });
}

/** The instant of a `yyyy-MM-ddTHH:mm` wall time in `timeZone` (a skipped time moves forward, a repeated one takes the earlier); null when unreadable. */
export function fromLocalInput(value: string, timeZone: string): number | null {
  try {
    return Temporal.PlainDateTime.from(value).toZonedDateTime(timeZone, { disambiguation: 'compatible' }).epochMilliseconds;
  } catch {
    return null;
  }
}
