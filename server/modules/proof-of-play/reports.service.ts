import { Temporal } from 'temporal-polyfill';
import type { ServiceContext } from '@/server/context/service-context';
import { csvLine } from '@/server/csv';
import { NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION, MAX_EPOCH_MS } from '@/server/http/wire.schemas';
import { parseSort } from '@/server/query/sort';
import { reportPeriods, reportResolutions, type ReportResolution } from './report-periods';
import {
  EVENT_ONLY_DIMENSIONS,
  findEventReport,
  findRollupReport,
  isReportableEntity,
  narrowingExists,
  type CountedDimension,
  type PlayNarrowing,
  type ReportCounts,
  type ReportOrder,
} from './reports.queries';
import {
  REPORT_CSV_COLUMNS,
  REPORT_DEFAULT_ROWS,
  REPORT_MAX_ROWS,
  reportGroupings,
  reportSortFields,
  TOP_PLAYED_DEFAULT_ROWS,
  type Report,
  type ReportGrouping,
  type ReportQuery,
  type ReportRow,
  type ReportSortField,
} from './reports.schemas';
import type { PlayDimension } from './proof-of-play.table';

/*
 * GET /api/v2/proof-of-display/... (spec 3 "Reporting", spec 4 §5): one entity's plays, all plays of a type,
 * or the top played, per period of `resolution` in `timeZone`, grouped by `groupBy`. The counting is SQL
 * (reports.queries.ts); this checks the request and shapes the rows.
 */

/** The entity types of the report paths and the dimension each counts by default. */
const reportEntityTypes = {
  device: 'DEVICE',
  content: 'CONTENT',
  campaign: 'CAMPAIGN',
  file: 'MEDIA_FILE',
  message: 'MESSAGE',
} as const satisfies Record<string, PlayDimension>;
export type ReportEntityType = keyof typeof reportEntityTypes;

/** `single`: `/{type}/{id}`; `all`: `/{type}/all`; `top`: `/{type}/dashboard/top/played`. */
export type ReportRequest = { type: ReportEntityType; kind: 'single' | 'all' | 'top'; id?: string; query: ReportQuery };

const WINDOW_MONTHS = 3;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id of the type's form (channels and sub-channels: integers; the rest: UUIDs); any other names nothing. */
const isIdOf = (type: ReportEntityType, id: string) =>
  type === 'campaign' || type === 'message' ? /^[1-9]\d{0,17}$/.test(id) : UUID.test(id);

const SORT_COLUMNS: Record<ReportSortField, ReportOrder[number]['column']> = {
  timestamp: 'period',
  name: 'name',
  duration: 'duration_ms',
  impressionStartCount: 'starts',
  impressionEndCount: 'ends',
  clickCount: 'clicks',
  viewerCount: 'viewers',
  viewerAttention: 'attention_ms',
};

const invalid = (parameter: string, message: string, key = 'request.error.invalid') => new ValidationError(key, message, { parameter });

function oneOf<T extends string>(values: readonly T[], raw: string | undefined, parameter: string): T | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = values.find((v) => v === raw.toUpperCase());
  if (!value) throw invalid(parameter, `Invalid ${parameter} '${raw}'; expected one of ${values.join(', ')}`);

  return value;
}

function epochMs(raw: string | undefined, parameter: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  // The document's range (0 to the end of year 9999, what PostgreSQL's timestamps hold), as every epoch in the API.
  if (!/^\d{1,15}$/.test(raw) || Number(raw) > MAX_EPOCH_MS)
    throw invalid(parameter, `Invalid ${parameter} '${raw}'; expected Unix epoch milliseconds from 0 to ${MAX_EPOCH_MS}`);

  return Number(raw);
}

function rowLimit(raw: string | undefined, top: boolean): number {
  if (raw === undefined || raw === '') return top ? TOP_PLAYED_DEFAULT_ROWS : REPORT_DEFAULT_ROWS;
  const limit = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= REPORT_MAX_ROWS)) throw invalid('limit', `limit must be an integer from 1 to ${REPORT_MAX_ROWS}`);

  return limit;
}

function rowOrder(sort: ReportQuery['sort'], top: boolean): ReportOrder {
  const keys = parseSort(sort).map((key) => {
    const field = reportSortFields.find((f) => key.path.length === 1 && f === key.path[0]);
    if (!field)
      throw new ValidationError(
        'sort.error.unknownField',
        `Unknown sort field '${key.path.join('.')}'; use ${reportSortFields.join(', ')}`,
        { token: key.path.join('.') },
      );

    return { column: SORT_COLUMNS[field], descending: key.direction === 'desc' };
  });
  if (keys.length > 0) return keys;

  return top ? [{ column: 'starts', descending: true }] : [];
}

/** The checked window, zone, periods and grouping of a report request. */
function reportPlan(request: ReportRequest) {
  const { query } = request;
  const top = request.kind === 'top';
  const from = epochMs(query.from, 'from');
  if (from === undefined) throw invalid('from', 'from (Unix epoch ms) is required');
  const to = epochMs(query.to, 'to') ?? Date.now();
  if (to < from) throw invalid('to', "'to' must not be before 'from'", INVALID_COMBINATION);
  const latest = Temporal.Instant.fromEpochMilliseconds(from)
    .toZonedDateTimeISO(query.timeZone)
    .add({ months: WINDOW_MONTHS }).epochMilliseconds;
  if (to > latest) throw invalid('to', `The window may span at most ${WINDOW_MONTHS} months`, 'proofOfDisplay.error.windowTooLong');
  const resolution: ReportResolution = oneOf(reportResolutions, query.resolution, 'resolution') ?? (top ? 'TOTAL' : 'DAILY');
  const groupBy: ReportGrouping = oneOf(reportGroupings, query.groupBy, 'groupBy') ?? reportEntityTypes[request.type];

  return {
    from,
    to,
    resolution,
    groupBy,
    top,
    order: rowOrder(query.sort, top),
    limit: rowLimit(query.limit, top),
    search: query.search?.trim() || undefined,
  };
}

/** The report: the entity checked first (another tenant's or an unknown id is a 404), then the query. */
export async function proofOfDisplayReport(ctx: ServiceContext, request: ReportRequest): Promise<Report> {
  if (ctx.scope.kind !== 'customer')
    throw invalid('customerId', 'Name the one customer whose plays are reported', 'request.error.customerIdRequired');
  const customerId = ctx.scope.customerId;
  const entity = request.id === undefined ? undefined : { dimension: reportEntityTypes[request.type], id: request.id };
  if (entity && !(isIdOf(request.type, entity.id) && (await isReportableEntity(ctx.db, ctx, entity, customerId))))
    throw new NotFoundError(request.type, request.id);
  const narrow = await checkedNarrowing(ctx, customerId, request.query);
  const plan = reportPlan(request);
  const periods = reportPeriods({ from: plan.from, to: plan.to, timeZone: request.query.timeZone, resolution: plan.resolution });
  const { groupBy } = plan;
  const filter = { customerId, search: plan.search, order: plan.order, limit: plan.limit };
  // Rollups count one dimension; a report of one entity by another dimension, or by ASSET or WIDGET, counts the raw plays.
  const counts =
    EVENT_ONLY_DIMENSIONS.includes(groupBy) || (entity && entity.dimension !== groupBy) || narrow
      ? await findEventReport(ctx.db, {
          ...filter,
          dimension: groupBy,
          entity,
          narrow,
          periodStarts: periods.periods.map((p) => p.start),
          from: periods.from,
          to: periods.to,
        })
      : await findRollupReport(ctx.db, {
          ...filter,
          dimension: groupBy as PlayDimension,
          subjectId: entity?.id,
          slices: periods.slices,
          firstDay: periods.firstDay,
          lastDay: periods.lastDay,
        });

  return {
    from: plan.from,
    to: plan.to,
    timeZone: request.query.timeZone,
    resolution: plan.resolution,
    groupBy,
    rows: counts.map((c) => toRow(c, groupBy, periods.periods[c.period]!)),
  };
}

/**
 * The query's narrowing beyond the path (extensions: `deviceGroupId`, `advertiserId`), checked like ids
 * anywhere: not a UUID, another tenant's or unknown is a 404. Undefined when the query names neither.
 */
async function checkedNarrowing(ctx: ServiceContext, customerId: number, query: ReportQuery): Promise<PlayNarrowing | undefined> {
  const deviceGroupId = query.deviceGroupId?.trim() || undefined;
  const advertiserId = query.advertiserId?.trim() || undefined;
  if (!deviceGroupId && !advertiserId) return undefined;
  if (deviceGroupId && !UUID.test(deviceGroupId)) throw new NotFoundError('deviceGroup', deviceGroupId);
  if (advertiserId && !UUID.test(advertiserId)) throw new NotFoundError('advertiser', advertiserId);
  const found = await narrowingExists(ctx.db, customerId, { deviceGroupId, advertiserId });
  if (!found.deviceGroup) throw new NotFoundError('deviceGroup', deviceGroupId!);
  if (!found.advertiser) throw new NotFoundError('advertiser', advertiserId!);

  return { deviceGroupId, advertiserId };
}

function toRow(c: ReportCounts, type: CountedDimension, period: { timestamp: number; readableDateTime: string }): ReportRow {
  const numericId = type === 'CAMPAIGN' || type === 'MESSAGE';

  return {
    timestamp: period.timestamp,
    readableDateTime: period.readableDateTime,
    groupBy: { type, id: numericId ? Number(c.subjectId) : c.subjectId, name: c.name },
    duration: c.durationMs,
    impressionStartCount: c.starts,
    impressionEndCount: c.ends,
    clickCount: c.clicks,
    viewerCount: c.viewers,
    viewerAttention: c.attentionMs,
    viewerAttentionRatio: c.durationMs > 0 ? c.attentionMs / c.durationMs : 0,
    viewerAverageAttention: c.viewers > 0 ? c.attentionMs / c.viewers : 0,
  };
}

/** The same report as CSV: a header line, one line per row (groupBy flattened), CRLF line ends. */
export async function proofOfDisplayCsv(ctx: ServiceContext, request: ReportRequest): Promise<string> {
  const report = await proofOfDisplayReport(ctx, request);

  return [
    csvLine(REPORT_CSV_COLUMNS),
    ...report.rows.map((r) =>
      csvLine([
        r.timestamp,
        r.readableDateTime,
        r.groupBy.type,
        r.groupBy.id,
        r.groupBy.name,
        r.duration,
        r.impressionStartCount,
        r.impressionEndCount,
        r.clickCount,
        r.viewerCount,
        r.viewerAttention,
        r.viewerAttentionRatio,
        r.viewerAverageAttention,
      ]),
    ),
  ].join('');
}
