import { csvLine, csvStream } from '@/server/csv';
import { ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import type { ServiceContext } from '@/server/context/service-context';
import { buildPage, parsePaging } from '@/server/query';
import { countLog, findLogBatch, findLogPage, type LogCursor, type LogFilter, type LogRow } from './audit-log.queries';
import type { LogEntry, LogFilterQuery, LogListQuery } from './audit-log.schemas';

const CSV_BATCH = 1000;
const CSV_COLUMNS = [
  'time',
  'logLevel',
  'message',
  'userEmail',
  'deviceId',
  'deviceName',
  'contentId',
  'contentName',
  'datasourceId',
  'datasourceName',
  'customerId',
  'customerName',
] as const;

/** GET /api/v2/log: one page of entries, newest first unless `order=ASC`. */
export async function listAuditLog(ctx: ServiceContext, input: LogListQuery) {
  const filter = filterOf(ctx, input);
  const paging = parsePaging({ page: input.page, size: input.size });
  const { rows, total } = await findLogPage(ctx.db, filter, { offset: paging.page * paging.size, limit: paging.size });
  const totalElements = total ?? (paging.page > 0 ? await countLog(ctx.db, filter) : 0);

  return buildPage(rows.map(toEntry), paging, totalElements);
}

/**
 * GET /api/v2/log/csv: the same filter as a CSV stream (RFC 4180). Rows are read in keyset batches
 * as the client consumes them, so an export of any size holds one batch in memory.
 */
export function exportAuditLogCsv(ctx: ServiceContext, input: LogFilterQuery): Promise<ReadableStream<Uint8Array>> {
  const filter = filterOf(ctx, input);

  return csvStream(
    CSV_COLUMNS,
    CSV_BATCH,
    (after: LogRow | undefined) =>
      findLogBatch(ctx.db, filter, after ? ({ time: after.time, id: after.id } satisfies LogCursor) : undefined, CSV_BATCH),
    (row) => csvLine(CSV_COLUMNS.map((c) => (c === 'time' ? row.time.toISOString() : (row as Record<string, unknown>)[c]))),
  );
}

/** ADMIN must name the tenant (`-1` for all); everyone else reads their resolved scope. */
function filterOf(ctx: ServiceContext, input: LogFilterQuery): LogFilter {
  if (ctx.actor.role === 'ADMIN' && input.customerId === undefined) {
    throw new ValidationError('log.error.customerIdRequired', 'customerId is required for ADMIN (use -1 for every tenant)', {
      parameter: 'customerId',
    });
  }
  const from = input.from === undefined ? undefined : new Date(Number(input.from));
  const to = input.to === undefined ? undefined : new Date(Number(input.to));
  if (from && to && from > to) throw new ValidationError(INVALID_COMBINATION, "'from' must not be after 'to'", { parameter: 'from' });

  return {
    scope: ctx.scope,
    search: input.search?.trim() || undefined,
    from,
    to,
    order: input.order?.toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
  };
}

/** Entry shape of spec 3: ISO time, nulls omitted, the internal id left out. */
/** The wire entry: unset columns are left out (the row's columns are the schema's fields). */
function toEntry(row: LogRow): LogEntry {
  const { id: _id, time, ...rest } = row;
  const present = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null && value !== undefined));

  return { ...present, time: time.toISOString() } as LogEntry;
}
