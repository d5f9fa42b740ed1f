import { createHash } from 'node:crypto';
import { FormatError } from './errors';
import { isIanaTimeZone, resolveTimeZoneName } from './time-zones';

/**
 * The iCalendar text node-ical is given: only the VEVENTs' own properties we read, with every TZID resolved and
 * every floating time pinned, so that node-ical never consults the process time zone.
 *
 * - Lines are unfolded (RFC 5545 §3.1) and parsed here, quoted parameter values included.
 * - TZIDs become IANA names (Windows names through CLDR's table) or fixed offsets; an unknown TZID, and a date-time
 *   without TZID or Z, take the calendar's X-WR-TIMEZONE, else the datasource's time zone.
 * - UIDs get a prefix, so that a UID such as "__proto__" or "toString" is an ordinary key in node-ical's result
 *   object; an event without UID gets one from a hash of its start, summary and rule.
 * - Events with RECURRENCE-ID come after all series, because node-ical merges a series into an override met first.
 * - VTIMEZONE, VALARM, VTODO and unknown properties are dropped: nothing reads them, and node-ical stores any
 *   property under its own name (a property named __PROTO__ would reach an object's prototype).
 */

export const UID_PREFIX = 'ical:';

// prettier-ignore
const KEPT_PROPERTIES = new Set([
  'UID', 'DTSTART', 'DTEND', 'DURATION', 'RRULE', 'RDATE', 'EXDATE', 'RECURRENCE-ID', 'SUMMARY', 'DESCRIPTION',
  'LOCATION', 'ORGANIZER', 'ATTENDEE', 'STATUS', 'SEQUENCE', 'CREATED', 'LAST-MODIFIED', 'DTSTAMP',
]);
const DATE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'RDATE', 'EXDATE', 'RECURRENCE-ID', 'CREATED', 'LAST-MODIFIED', 'DTSTAMP']);

type ContentLine = { name: string; params: string[]; value: string };
type PhysicalLine = { text: string; number: number };

/**
 * At most this many recurring series are expanded. rrule-temporal (through @js-temporal/polyfill) costs a few
 * milliseconds per series, so a calendar of tens of thousands of rules would hold a CPU for minutes.
 */
export const MAX_RECURRING_SERIES = 1_000;
const DAY_MS = 86_400_000;
/** Longer than any event a display shows: what starts earlier than this before the window is not read. */
const LOOKBACK_MS = 400 * DAY_MS;

type PendingEvent = {
  lines: string[];
  hasUid: boolean;
  isOverride: boolean;
  identity: string[];
  start?: number;
  until?: number;
  hasRrule: boolean;
  hasRdate: boolean;
};

export function prepareCalendarText(text: string, options: { fallbackZone: string; from: number; to: number }): string {
  const lines = unfold(text);
  if (!lines.some((line) => line.text.trim().toUpperCase() === 'BEGIN:VCALENDAR')) {
    throw new FormatError('The document is not an iCalendar file: it has no BEGIN:VCALENDAR line.');
  }
  const calendarZone = calendarTimeZone(lines) ?? options.fallbackZone;
  const series: string[] = [];
  const overrides: string[] = [];
  const stack: string[] = [];
  let event: PendingEvent | undefined;
  let recurringSeries = 0;
  for (const line of lines) {
    const parsed = parseContentLine(line.text);
    if (!parsed) continue;
    if (parsed.name === 'BEGIN') {
      const component = parsed.value.trim().toUpperCase();
      stack.push(component);
      if (component === 'VEVENT' && stack.length === 2 && stack[0] === 'VCALENDAR') {
        event = { lines: ['BEGIN:VEVENT'], hasUid: false, isOverride: false, identity: [], hasRrule: false, hasRdate: false };
      }
      continue;
    }
    if (parsed.name === 'END') {
      const component = parsed.value.trim().toUpperCase();
      if (stack.at(-1) !== component) {
        throw new FormatError(
          `The calendar is malformed: END:${component.slice(0, 40)} on line ${line.number} does not close ${stack.length > 0 ? `BEGIN:${stack.at(-1)?.slice(0, 40)}` : 'anything'}.`,
        );
      }
      stack.pop();
      if (component === 'VEVENT' && event && stack.length === 1) {
        if (!event.hasUid) {
          const digest = createHash('sha256').update(event.identity.join('\n')).digest('hex').slice(0, 32);
          event.lines.push(`UID:${UID_PREFIX}generated-${digest}`);
        }
        event.lines.push('END:VEVENT');
        // Overrides are kept whatever their date: one may move an occurrence into the window.
        if (event.isOverride) overrides.push(...event.lines);
        else if (mayReachWindow(event, options)) {
          series.push(...event.lines);
          if (event.hasRrule && ++recurringSeries > MAX_RECURRING_SERIES) {
            throw new FormatError(
              `The calendar has more than ${MAX_RECURRING_SERIES} recurring events around the requested period: too many to expand.`,
            );
          }
        }
        event = undefined;
      }
      continue;
    }
    if (!event || stack.length !== 2 || !KEPT_PROPERTIES.has(parsed.name)) continue;
    let { params, value } = parsed;
    if (parsed.name === 'UID') {
      if (value.trim() === '') continue;
      value = `${UID_PREFIX}${value.trim()}`;
      event.hasUid = true;
    }
    if (DATE_PROPERTIES.has(parsed.name)) ({ params, value } = pinTimeZone(params, value, calendarZone));
    if (parsed.name === 'RECURRENCE-ID') event.isOverride = true;
    if (parsed.name === 'DTSTART') event.start = roughEpoch(parsed.value);
    if (parsed.name === 'RRULE') {
      event.hasRrule = true;
      event.until = roughEpoch(/UNTIL=([0-9TZ]+)/i.exec(parsed.value)?.[1] ?? '');
    }
    if (parsed.name === 'RDATE') event.hasRdate = true;
    if (parsed.name === 'DTSTART' || parsed.name === 'SUMMARY' || parsed.name === 'RRULE') event.identity.push(line.text);
    event.lines.push(`${parsed.name}${params.map((param) => `;${param}`).join('')}:${value}`);
  }
  if (event) throw new FormatError('The calendar ends inside an event: its END:VEVENT is missing.');

  return ['BEGIN:VCALENDAR', ...series, ...overrides, 'END:VCALENDAR'].join('\r\n');
}

/**
 * Whether an event can have an occurrence near [from, to). Dates are read roughly (as UTC wall time, so within
 * 14 hours), hence the margins: a rule's occurrences never precede its DTSTART, and none follows its UNTIL.
 */
function mayReachWindow(event: PendingEvent, window: { from: number; to: number }): boolean {
  if (event.start === undefined) return true;
  if (event.hasRdate) return true;
  if (event.start > window.to + 2 * DAY_MS) return false;
  const last = event.hasRrule ? event.until : event.start;

  return last === undefined || last >= window.from - LOOKBACK_MS;
}

function roughEpoch(value: string): number | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?/.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  const epoch = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0));

  return Number.isFinite(epoch) ? epoch : undefined;
}

function unfold(text: string): PhysicalLine[] {
  const lines: PhysicalLine[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, index) => {
    const last = lines.at(-1);
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && last) last.text += raw.slice(1);
    else lines.push({ text: raw, number: index + 1 });
  });

  return lines;
}

/** NAME *(;PARAM=VALUE) : VALUE, where a quoted parameter value may hold ';' and ':'. */
function parseContentLine(line: string): ContentLine | undefined {
  let index = 0;
  while (index < line.length && line[index] !== ';' && line[index] !== ':') index++;
  const name = line.slice(0, index).trim().toUpperCase();
  if (!/^[A-Z0-9-]+$/.test(name)) return undefined;
  const params: string[] = [];
  while (line[index] === ';') {
    const start = ++index;
    let isQuoted = false;
    while (index < line.length && (isQuoted || (line[index] !== ';' && line[index] !== ':'))) {
      if (line[index] === '"') isQuoted = !isQuoted;
      index++;
    }
    params.push(line.slice(start, index));
  }
  if (line[index] !== ':') return undefined;

  return { name, params, value: line.slice(index + 1) };
}

function calendarTimeZone(lines: PhysicalLine[]): string | undefined {
  for (const line of lines) {
    const parsed = parseContentLine(line.text);
    if (parsed?.name !== 'X-WR-TIMEZONE') continue;
    const zone = resolveTimeZoneName(parsed.value);

    return zone && isIanaTimeZone(zone) ? zone : undefined;
  }

  return undefined;
}

/**
 * The TZID a date property is read in: its own, resolved, or the calendar's for a floating date-time. A fixed
 * offset ("+05:30") cannot be written as a TZID node-ical reads (its line grammar refuses ':' there), so such
 * values are converted to UTC instead.
 */
function pinTimeZone(params: string[], value: string, calendarZone: string): { params: string[]; value: string } {
  const tzIndex = params.findIndex((param) => /^TZID=/i.test(param));
  if (tzIndex >= 0) {
    const resolved = resolveTimeZoneName(params[tzIndex]?.slice(5) ?? '') ?? calendarZone;
    const others = params.filter((_, index) => index !== tzIndex);
    if (isIanaTimeZone(resolved)) return { params: [...others, `TZID=${resolved}`], value };

    return { params: others, value: toUtc(value, resolved) };
  }
  const isFloating = value.split(',').some((entry) => FLOATING.test(entry.split('/')[0]?.trim() ?? ''));

  return { params: isFloating ? [...params, `TZID=${calendarZone}`] : params, value };
}

const FLOATING = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/i;

/** Floating date-times of a (possibly comma-separated, possibly period) value, read at a "+hh:mm" offset, in UTC. */
function toUtc(value: string, offset: string): string {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  const minutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;

  return value.replace(/\b(\d{8}T\d{6})(?![\dZz])/g, (local) => {
    const [, year, month, day, hour, minute, second] = FLOATING.exec(local) ?? [];
    const epoch = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));

    return `${new Date(epoch - minutes * 60_000).toISOString().replace(/[-:]|\.\d{3}/g, '')}`;
  });
}
