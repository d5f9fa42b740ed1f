import { createHash } from 'node:crypto';
import ical, { type VEvent } from 'node-ical';
import { Temporal } from 'temporal-polyfill';
import { prepareCalendarText, UID_PREFIX } from './calendar-text';
import { FormatError, shortReason } from './errors';
import { storable } from './storable';
import { decodeBody } from './text';
import { isIanaTimeZone } from './time-zones';
import { field, list } from './tree';
import type { CalendarEvent, CalendarInstant } from './types';

const DAY_MS = 86_400_000;
/** At most this many occurrences are answered, the soonest ones: a display shows what comes next. */
export const MAX_CALENDAR_OCCURRENCES = 5_000;

export type ExpandCalendarOptions = { timeZone: string; now: number; from?: number; to?: number; contentType?: string };

/** node-ical's dates: a Date with the zone it was read in, or `dateOnly` for a VALUE=DATE (a local midnight). */
type IcalDate = Date & { tz?: string; dateOnly?: boolean };

type Occurrence = {
  /** The occurrence's place in its series (original start), which its id is made of. */
  key: string;
  start: number;
  end: number;
  isAllDay: boolean;
  event: VEvent;
  series: VEvent;
};

/**
 * ICAL datasource: the events of an iCalendar text overlapping [from, to) (default [now − 1 day, now + 30 days]),
 * recurrences expanded (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides, which replace and may move an occurrence),
 * as calendar events (spec 5 §3) sorted by start. Times are written with the offset of `timeZone` at that instant;
 * whole-day events run from midnight to midnight in `timeZone`. Cancelled occurrences are kept, as CANCELLED.
 */
export function expandCalendar(body: Buffer, options: ExpandCalendarOptions): CalendarEvent[] {
  const zone = options.timeZone;
  if (!isIanaTimeZone(zone)) throw new FormatError(`"${zone.slice(0, 60)}" is not a known time zone.`);
  const from = options.from ?? options.now - DAY_MS;
  const to = options.to ?? options.now + 30 * DAY_MS;
  const text = prepareCalendarText(decodeBody(body, { contentType: options.contentType }), { fallbackZone: zone, from, to });
  let calendar: ReturnType<typeof ical.sync.parseICS>;
  try {
    calendar = ical.sync.parseICS(text);
  } catch (error) {
    throw new FormatError(`The calendar cannot be read: ${shortReason(error)}.`);
  }
  const window: Window = { zone, from, to };
  const occurrences: Occurrence[] = [];
  for (const component of Object.values(calendar)) {
    if (component?.type !== 'VEVENT' || !isDate(component.start)) continue;
    for (const occurrence of expandSeries(component, window)) {
      const overlaps = occurrence.end > occurrence.start ? occurrence.end > from : occurrence.start >= from;
      if (overlaps && occurrence.start < to) occurrences.push(occurrence);
    }
  }
  const events = occurrences
    .map((occurrence) => toCalendarEvent(occurrence, zone))
    .sort((a, b) => a.start.timeStamp - b.start.timeStamp || a.end.timeStamp - b.end.timeStamp || compare(a.id, b.id));

  return storable(events.slice(0, MAX_CALENDAR_OCCURRENCES));
}

type Window = { zone: string; from: number; to: number };

/** The occurrences of one VEVENT series around the window (the caller keeps those overlapping it). */
function expandSeries(series: VEvent, window: Window): Occurrence[] {
  const start: IcalDate = series.start;
  const isAllDay = series.datetype === 'date' || start.dateOnly === true;
  const seriesZone = zoneOf(start, window.zone);
  const lengthDays = isAllDay ? allDayLength(series) : 0;
  const seriesEnd = timeOf(series.end);
  const durationMs = !isAllDay && Number.isFinite(seriesEnd) ? Math.max(0, seriesEnd - start.getTime()) : 0;
  const slots = new Map<string, Occurrence>();
  const addSlot = (slotStart: IcalDate | Temporal.PlainDate | number, slotEnd?: number) => {
    const occurrence = isAllDay
      ? allDayOccurrence(toPlainDate(slotStart, seriesZone), lengthDays, series, series, window.zone)
      : timedOccurrence(toEpoch(slotStart, seriesZone), slotEnd, durationMs, series, series);
    if (!slots.has(occurrence.key)) slots.set(occurrence.key, occurrence);
  };
  // A series without RRULE or RDATE is one occurrence; an orphan override is known by its RECURRENCE-ID.
  const recurrenceId: IcalDate | undefined = isDate(series.recurrenceid) ? series.recurrenceid : undefined;
  addSlot(recurrenceId ?? start);
  const margin = (isAllDay ? lengthDays + 2 : 1) * DAY_MS + durationMs;
  if (series.rrule) {
    let dates: Date[];
    try {
      dates = series.rrule.between(new Date(window.from - margin), new Date(window.to + margin), true);
    } catch (error) {
      throw new FormatError(`The event "${titleOf(series).slice(0, 80)}" cannot be expanded: ${shortReason(error)}.`);
    }
    for (const date of dates) addSlot(date);
  }
  for (const rdate of readRdates(series, isAllDay, seriesZone)) addSlot(rdate.start, rdate.end);
  for (const excluded of exdatesOf(series)) {
    for (const [key, slot] of slots) if (isExcluded(slot, excluded, seriesZone)) slots.delete(key);
  }
  // An override replaces its occurrence (even one an EXDATE removed): it is the more specific statement.
  for (const override of overridesOf(series)) {
    const replaced = slotOf(override.recurrenceid, slots, isAllDay, seriesZone);
    if (replaced === undefined || !isDate(override.start)) continue;
    slots.delete(replaced);
    const overrideStart: IcalDate = override.start;
    const occurrence =
      override.datetype === 'date' || overrideStart.dateOnly
        ? allDayOccurrence(toPlainDate(overrideStart, seriesZone), allDayLength(override), override, series, window.zone)
        : timedOccurrence(overrideStart.getTime(), timeOf(override.end), durationMs, override, series);
    slots.set(replaced, { ...occurrence, key: replaced });
  }
  const isRecurring = Boolean(series.rrule) || list(field(series, 'rdate')).length > 0;

  // A single event's id is its UID alone, so that moving it keeps its id.
  return [...slots.values()].map((slot) => (isRecurring || recurrenceId ? slot : { ...slot, key: 'single' }));
}

function allDayOccurrence(date: Temporal.PlainDate, lengthDays: number, event: VEvent, series: VEvent, zone: string): Occurrence {
  return {
    key: date.toString(),
    start: date.toZonedDateTime({ timeZone: zone }).epochMilliseconds,
    end: date.add({ days: lengthDays }).toZonedDateTime({ timeZone: zone }).epochMilliseconds,
    isAllDay: true,
    event,
    series,
  };
}

function timedOccurrence(start: number, end: number | undefined, durationMs: number, event: VEvent, series: VEvent): Occurrence {
  // An override without its own end lasts as long as the series' occurrences.
  const ownEnd = end !== undefined && end > start ? end : start + durationMs;

  return { key: String(start), start, end: ownEnd, isAllDay: false, event, series };
}

/** Whole days of a VALUE=DATE event: from DURATION, else DTEND − DTSTART, at least one. */
function allDayLength(event: VEvent): number {
  const duration = /^P(?:(\d+)W)?(?:(\d+)D)?/i.exec(paramText(field(event, 'duration')) ?? '');
  const fromDuration = duration ? Number(duration[1] ?? 0) * 7 + Number(duration[2] ?? 0) : 0;
  if (fromDuration > 0) return fromDuration;
  const start: IcalDate = event.start ?? new Date(Number.NaN);
  if (!isDate(event.end) || !isDate(start)) return 1;
  const days = toPlainDate(start, 'UTC').until(toPlainDate(event.end, 'UTC'), { largestUnit: 'days' }).days;

  return Math.max(1, days);
}

function isExcluded(slot: Occurrence, excluded: IcalDate, seriesZone: string): boolean {
  if (slot.isAllDay) return slot.key === toPlainDate(excluded, seriesZone).toString();
  // A DATE-valued EXDATE removes every occurrence of that day (RFC 5545 §3.8.5.1).
  if (excluded.dateOnly) return toPlainDate(slot.start, seriesZone).equals(toPlainDate(excluded, seriesZone));

  return Number(slot.key) === excluded.getTime();
}

/** The key of the occurrence a RECURRENCE-ID names (a DATE one names that day's occurrence of a timed series). */
function slotOf(recurrenceId: unknown, slots: Map<string, Occurrence>, isAllDay: boolean, seriesZone: string): string | undefined {
  if (!isDate(recurrenceId)) return undefined;
  const id: IcalDate = recurrenceId;
  if (isAllDay) return toPlainDate(id, seriesZone).toString();
  if (!id.dateOnly) return String(id.getTime());
  const day = toPlainDate(id, seriesZone);
  for (const slot of slots.values()) if (toPlainDate(slot.start, seriesZone).equals(day)) return slot.key;

  return undefined;
}

function exdatesOf(series: VEvent): IcalDate[] {
  // node-ical files each EXDATE under two keys (its day and its instant): one of each.
  return [...new Set(Object.values(series.exdate ?? {}))].filter(isDate);
}

function overridesOf(series: VEvent): VEvent[] {
  return [...new Set<unknown>(Object.values(series.recurrences ?? {}))].filter(isVEvent);
}

/** node-ical types its overrides loosely (an Omit over an index signature); they are VEVENT copies. */
function isVEvent(value: unknown): value is VEvent {
  return field(value, 'type') === 'VEVENT' && isDate(field(value, 'start'));
}

type Rdate = { start: Temporal.PlainDate | number; end?: number };

/** RDATE values: DATE, DATE-TIME (UTC, TZID or floating in the series' zone) or PERIOD (start/end, start/duration). */
function readRdates(series: VEvent, isAllDay: boolean, seriesZone: string): Rdate[] {
  const rdates: Rdate[] = [];
  for (const property of list(field(series, 'rdate'))) {
    const raw = paramText(property) ?? '';
    const tzid = paramText(field(field(property, 'params'), 'TZID'));
    const zone = tzid && isIanaTimeZone(tzid) ? tzid : seriesZone;
    for (const entry of raw.split(',')) {
      const [startText = '', endText] = entry.trim().split('/');
      const start = parseIcalDateTime(startText, zone);
      if (start === undefined) continue;
      if (isAllDay || typeof start !== 'number') {
        rdates.push({ start: typeof start === 'number' ? toPlainDate(start, zone) : start });
        continue;
      }
      const end = endText ? (parseIcalDateTime(endText, zone) ?? addIsoDuration(start, endText)) : undefined;
      rdates.push({ start, end: typeof end === 'number' ? end : undefined });
    }
  }

  return rdates;
}

function parseIcalDateTime(value: string, zone: string): Temporal.PlainDate | number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/i.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, utc] = match;
  try {
    const date = Temporal.PlainDate.from({ year: Number(year), month: Number(month), day: Number(day) }, { overflow: 'reject' });
    if (hour === undefined) return date;
    const time = { hour: Number(hour), minute: Number(minute), second: Number(second) };
    const dateTime = date.toPlainDateTime(time);

    return dateTime.toZonedDateTime(utc ? 'UTC' : zone, { disambiguation: 'compatible' }).epochMilliseconds;
  } catch {
    return undefined;
  }
}

function addIsoDuration(start: number, duration: string): number | undefined {
  try {
    return (
      start +
      Temporal.Duration.from(duration.trim()).total({
        unit: 'milliseconds',
        relativeTo: Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO('UTC'),
      })
    );
  } catch {
    return undefined;
  }
}

function toCalendarEvent(occurrence: Occurrence, zone: string): CalendarEvent {
  const { event, series } = occurrence;
  const uid = (event.uid ?? series.uid ?? '').replace(UID_PREFIX, '');
  const isCancelled = event.status === 'CANCELLED' || series.status === 'CANCELLED';

  return {
    id: occurrenceId(uid, occurrence.key),
    status: isCancelled ? 'CANCELLED' : 'CONFIRMED',
    created: timeOrUndefined(event.created ?? series.created),
    updated: timeOrUndefined(event.lastmodified ?? series.lastmodified),
    title: titleOf(event) || titleOf(series),
    description: paramText(event.description) ?? paramText(series.description),
    organizer: personOf(event.organizer ?? series.organizer),
    location: paramText(event.location) ?? paramText(series.location),
    isStarted: false,
    start: instant(occurrence.start, zone),
    end: instant(occurrence.end, zone),
    attendees: list(event.attendee ?? series.attendee)
      .map((attendee) => ({ name: personOf(attendee) ?? '', status: paramText(field(field(attendee, 'params'), 'PARTSTAT')) }))
      .filter((attendee) => attendee.name !== ''),
    uid,
    isAllDay: occurrence.isAllDay,
  };
}

/** A UUID (version 8, RFC 9562) from the UID and the occurrence's key: the same occurrence, the same id. */
export function occurrenceId(uid: string, key: string): string {
  const hex = createHash('sha256').update(`${uid}\n${key}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const digits = hex.join('');

  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
}

function instant(epoch: number, zone: string): CalendarInstant {
  const dateTime = Temporal.Instant.fromEpochMilliseconds(epoch)
    .toZonedDateTimeISO(zone)
    .toString({ timeZoneName: 'never', smallestUnit: 'second' });

  return { dateTime, timeStamp: epoch };
}

function zoneOf(date: IcalDate, fallback: string): string {
  return date.tz && isIanaTimeZone(date.tz) ? date.tz : fallback;
}

/**
 * The calendar day of a node-ical date. A VALUE=DATE is built by node-ical as a local midnight, so its local fields
 * are the day that was written whatever the process zone is; any other date is an instant, read in `zone`.
 */
function toPlainDate(value: IcalDate | Temporal.PlainDate | number, zone: string): Temporal.PlainDate {
  if (value instanceof Temporal.PlainDate) return value;
  if (typeof value !== 'number' && value.dateOnly) {
    return Temporal.PlainDate.from({ year: value.getFullYear(), month: value.getMonth() + 1, day: value.getDate() });
  }
  const epoch = typeof value === 'number' ? value : value.getTime();

  return Temporal.Instant.fromEpochMilliseconds(epoch)
    .toZonedDateTimeISO(zoneOf(toDate(value), zone))
    .toPlainDate();
}

function toEpoch(value: IcalDate | Temporal.PlainDate | number, zone: string): number {
  if (typeof value === 'number') return value;
  if (value instanceof Temporal.PlainDate) return value.toZonedDateTime({ timeZone: zone }).epochMilliseconds;

  return value.getTime();
}

function toDate(value: IcalDate | number): IcalDate {
  return typeof value === 'number' ? new Date(value) : value;
}

function isDate(value: unknown): value is IcalDate {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

function timeOf(value: unknown): number {
  return isDate(value) ? value.getTime() : Number.NaN;
}

function timeOrUndefined(value: unknown): number | undefined {
  return isDate(value) ? value.getTime() : undefined;
}

/** node-ical's text values: a string, { params, val } when the property had parameters, an array when repeated. */
function paramText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const raw = typeof first === 'object' && first !== null ? field(first, 'val') : first;
  if (typeof raw === 'string') return raw.trim() || undefined;

  return typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
}

function titleOf(event: VEvent): string {
  return paramText(event.summary) ?? '';
}

/** An organizer or attendee: its common name, else its address without "mailto:". */
function personOf(value: unknown): string | undefined {
  const name = paramText(field(field(Array.isArray(value) ? value[0] : value, 'params'), 'CN'));

  return name ?? paramText(value)?.replace(/^mailto:/i, '');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
