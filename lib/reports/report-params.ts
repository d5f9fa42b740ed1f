import { Temporal } from 'temporal-polyfill';
import type { Schemas } from '@/lib/api/types';

/*
 * The console's side of the proof-of-play reports (spec 3 "Reporting", rows of spec 4 §5): what a report
 * asks for, the query it sends, its state in the page's URL (so a report can be shared), and the periods of
 * its chart. Pure: no clock and no browser zone unless passed in.
 */

export const RESOLUTIONS = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'TOTAL'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** The groupings the console offers: the dimensions plays are counted under. */
export const GROUP_BYS = ['DEVICE', 'DEVICE_GROUP', 'CONTENT', 'MEDIA_FILE', 'ASSET', 'WIDGET', 'CAMPAIGN', 'ADVERTISER'] as const;
type GroupBy = (typeof GROUP_BYS)[number];

/** The report families of spec 3 whose "all" endpoint the console reads. */
export const SUBJECT_TYPES = ['device', 'content', 'campaign', 'file'] as const;
type SubjectType = (typeof SUBJECT_TYPES)[number];

/** Each family's own grouping, the one the "all" report is read with unless another is chosen. */
const DEFAULT_GROUP_BY: Record<SubjectType, GroupBy> = { device: 'DEVICE', content: 'CONTENT', campaign: 'CAMPAIGN', file: 'MEDIA_FILE' };

export type TopPlayedKind = 'content' | 'campaign' | 'file';

/** One entity (`id`) or all of a type. */
type ReportSubject = { type: SubjectType | 'message'; id?: string };

export type ReportRequest = {
  subject: ReportSubject;
  /** Unix ms: the window [from, to). */
  from: number;
  to: number;
  timeZone: string;
  resolution: Resolution;
  groupBy?: GroupBy;
  search?: string;
  /** Only plays on screens in this device folder or below it (the API's `deviceGroupId`). */
  folder?: string;
  /** Only plays of this advertiser's channels (the API's `advertiserId`). */
  advertiser?: string;
  /** `field,asc|desc` (timestamp, name, impressionStartCount, duration, …); the API's default is timestamp then name. */
  sort?: string;
  limit?: number;
};

/** One row of a report as the API answers it. */
export type ReportRow = Schemas['ProofOfDisplayRow'];

export function reportPath({ subject }: Pick<ReportRequest, 'subject'>): string {
  return `/api/v2/proof-of-display/${subject.type}/${subject.id ? encodeURIComponent(subject.id) : 'all'}`;
}

export function reportQuery(request: Omit<ReportRequest, 'subject'>) {
  return {
    from: request.from,
    to: request.to,
    timeZone: request.timeZone,
    resolution: request.resolution,
    groupBy: request.groupBy,
    search: request.search?.trim() || undefined,
    deviceGroupId: request.folder || undefined,
    advertiserId: request.advertiser || undefined,
    sort: request.sort,
    limit: request.limit,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isTimeZone(zone: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(zone);

    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The browser's own time zone (reports default to it). */
export { browserTimeZone } from '@/lib/time-zones';

/** The local date (`YYYY-MM-DD`) in `timeZone` at an instant (today's at now). */
export function dateIn(timeZone: string, at: number): string {
  return Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

/** The start of a local day in `timeZone`, in Unix ms (the first instant of the day where a DST change starts it late). */
function dayStartIn(day: string, timeZone: string): number {
  return Temporal.PlainDate.from(day).toZonedDateTime({ timeZone }).epochMilliseconds;
}

export function addDays(day: string, days: number): string {
  return Temporal.PlainDate.from(day).add({ days }).toString();
}

/** The window of whole local days `from`..`to` (both included) in `timeZone`: [start of from, start of the day after to). */
export function dayWindow(from: string, to: string, timeZone: string): { from: number; to: number } {
  return { from: dayStartIn(from, timeZone), to: dayStartIn(addDays(to, 1), timeZone) };
}

/** Whether the days span more than the 3 months a report may cover (spec 4 §5). */
export function exceedsThreeMonths(from: string, to: string): boolean {
  return Temporal.PlainDate.compare(Temporal.PlainDate.from(addDays(to, 1)), Temporal.PlainDate.from(from).add({ months: 3 })) > 0;
}

/** The report page's state, all of it in the URL query so a report link opens the same report. */
export type ReportState = {
  on: SubjectType;
  /** Local days `YYYY-MM-DD` in `tz`, both included. */
  from: string;
  to: string;
  tz: string;
  resolution: Resolution;
  groupBy: GroupBy;
  q: string;
  /** A channel: the report is of that channel's plays (`/campaign/{id}`). */
  channel: string;
  /** A screen: the report is of that screen's plays (`/device/{id}`). */
  screen: string;
  /** A device folder: only plays on its screens and those of the folders below it. */
  folder: string;
  /** An advertiser: only plays of its channels. */
  advertiser: string;
  /** The table's order, `field,asc|desc` over REPORT_SORT_FIELDS; empty for the API's (period, then name). */
  sort: string;
};

/** The row fields the report can be ordered by (the API's `sort`). */
export const REPORT_SORT_FIELDS = [
  'timestamp',
  'name',
  'impressionStartCount',
  'impressionEndCount',
  'duration',
  'clickCount',
  'viewerCount',
] as const;
const SORT = new RegExp(`^(${REPORT_SORT_FIELDS.join('|')}),(asc|desc)$`);

/** What a missing parameter means: the last 7 days in the browser's zone, daily, all screens. */
export function defaultReportState(browserZone: string, now: number): ReportState {
  const today = dateIn(browserZone, now);

  return {
    on: 'device',
    from: addDays(today, -6),
    to: today,
    tz: browserZone,
    resolution: 'DAILY',
    groupBy: 'DEVICE',
    q: '',
    channel: '',
    screen: '',
    folder: '',
    advertiser: '',
    sort: '',
  };
}

const ID = /^[A-Za-z0-9-]{1,64}$/;

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | undefined {
  return values.find((v) => v === raw);
}

export function readReportState(query: URLSearchParams, defaults: ReportState): ReportState {
  const on = oneOf(SUBJECT_TYPES, query.get('on')) ?? defaults.on;
  const tz = query.get('tz');
  const from = query.get('from');
  const to = query.get('to');

  return {
    on,
    from: from && DAY.test(from) ? from : defaults.from,
    to: to && DAY.test(to) ? to : defaults.to,
    tz: tz && isTimeZone(tz) ? tz : defaults.tz,
    resolution: oneOf(RESOLUTIONS, query.get('resolution')) ?? defaults.resolution,
    groupBy: oneOf(GROUP_BYS, query.get('groupBy')) ?? DEFAULT_GROUP_BY[on],
    q: query.get('q') ?? '',
    channel: ID.test(query.get('channel') ?? '') ? query.get('channel')! : '',
    screen: ID.test(query.get('screen') ?? '') ? query.get('screen')! : '',
    folder: ID.test(query.get('folder') ?? '') ? query.get('folder')! : '',
    advertiser: ID.test(query.get('advertiser') ?? '') ? query.get('advertiser')! : '',
    sort: SORT.test(query.get('sort') ?? '') ? query.get('sort')! : '',
  };
}

/** The query of a state: defaults left out, except with `complete` (a link to share spells the range and zone out). */
export function writeReportState(state: ReportState, defaults: ReportState, { complete = false } = {}): URLSearchParams {
  const next = new URLSearchParams();
  const put = (key: string, value: string, fallback: string) => {
    if (value && (complete || value !== fallback)) next.set(key, value);
  };
  put('on', state.on, defaults.on);
  put('from', state.from, defaults.from);
  put('to', state.to, defaults.to);
  put('tz', state.tz, defaults.tz);
  put('resolution', state.resolution, defaults.resolution);
  put('groupBy', state.groupBy, DEFAULT_GROUP_BY[state.on]);
  put('q', state.q.trim() ? state.q : '', '');
  put('channel', state.channel, '');
  put('screen', state.screen, '');
  put('folder', state.folder, '');
  put('advertiser', state.advertiser, '');
  put('sort', state.sort, '');

  return next;
}

/** The API request of a state: a chosen channel or screen narrows the report to it; a folder or advertiser narrows the plays. */
export function requestOf(state: ReportState): ReportRequest {
  const subject: ReportSubject = state.channel
    ? { type: 'campaign', id: state.channel }
    : state.screen
      ? { type: 'device', id: state.screen }
      : { type: state.on };

  return {
    subject,
    ...dayWindow(state.from, state.to, state.tz),
    timeZone: state.tz,
    resolution: state.resolution,
    groupBy: state.groupBy,
    search: state.q,
    folder: state.folder || undefined,
    advertiser: state.advertiser || undefined,
    sort: state.sort || undefined,
  };
}

/** The start of every period of `resolution` that overlaps [from, to) in `timeZone` (weeks from Monday); TOTAL is one, at `from`. */
export function periodStarts(window: { from: number; to: number }, timeZone: string, resolution: Resolution, max = 2000): number[] {
  if (resolution === 'TOTAL' || window.to <= window.from) return [window.from];
  const first = Temporal.Instant.fromEpochMilliseconds(window.from).toZonedDateTimeISO(timeZone);
  let cursor: Temporal.ZonedDateTime;
  switch (resolution) {
    case 'HOURLY':
      cursor = first.round({ smallestUnit: 'hour', roundingMode: 'floor' });
      break;
    case 'DAILY':
      cursor = first.startOfDay();
      break;
    case 'WEEKLY':
      cursor = first.startOfDay().subtract({ days: first.dayOfWeek - 1 });
      break;
    case 'MONTHLY':
      cursor = first.with({ day: 1 }).startOfDay();
      break;
  }
  const step = { HOURLY: { hours: 1 }, DAILY: { days: 1 }, WEEKLY: { weeks: 1 }, MONTHLY: { months: 1 } }[resolution];
  const starts: number[] = [];
  while (cursor.epochMilliseconds < window.to && starts.length < max) {
    starts.push(cursor.epochMilliseconds);
    cursor = cursor.add(step);
  }

  return starts;
}

/** A period's start as the axis shows it, in the report's zone. */
export function periodLabel(
  at: number,
  timeZone: string,
  resolution: Resolution,
  { hourOnly = false, locale }: { hourOnly?: boolean; locale?: string } = {},
): string {
  const options: Intl.DateTimeFormatOptions =
    resolution === 'HOURLY'
      ? hourOnly
        ? { hour: 'numeric' }
        : { hour: 'numeric', day: 'numeric', month: 'short' }
      : resolution === 'MONTHLY'
        ? { month: 'short', year: 'numeric' }
        : { weekday: resolution === 'DAILY' ? 'short' : undefined, day: 'numeric', month: 'short' };

  return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(new Date(at));
}

/** Plays started per period: the rows' `impressionStartCount` summed per timestamp, every period present (0 without plays). */
export function playsPerPeriod(rows: readonly ReportRow[], starts: readonly number[]): { at: number; plays: number }[] {
  const byStart = new Map<number, number>(starts.map((at) => [at, 0]));
  for (const row of rows) byStart.set(row.timestamp, (byStart.get(row.timestamp) ?? 0) + row.impressionStartCount);

  return [...byStart.entries()].sort(([a], [b]) => a - b).map(([at, plays]) => ({ at, plays }));
}

/** "1 h 2 min", "45 s", "0 s" for a duration in ms (hours grouped in `locale`, the browser's without it). */
export function formatPlayTime(ms: number, locale?: string): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  const hours = Math.floor(minutes / 60);

  return `${hours.toLocaleString(locale)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}
