import { ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { buildPage, parsePaging } from '@/server/query';
import { countLog, findLogBatch, findLogPage, type LogCursor, type LogFilter, type LogRow } from './audit-log.queries';
import type { LogEntry, LogFilterQuery, LogListQuery } from './audit-log.schemas';

const CSV_BATCH = 1000;
const CSV_COLUMNS = [
  'time', 'logLevel', 'message', 'userEmail', 'deviceId', 'deviceName', 'contentId', 'contentName',
  'datasourceId', 'datasourceName', 'customerId', 'customerName',
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
export function exportAuditLogCsv(ctx: ServiceContext, input: LogFilterQuery): ReadableStream<Uint8Array> {
  const filter = filterOf(ctx, input);
  const encoder = new TextEncoder();
  let cursor: LogCursor | undefined;
  let headerSent = false;

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${CSV_COLUMNS.join(',')}\r\n`));

        return;
      }
      const rows = await findLogBatch(ctx.db, filter, cursor, CSV_BATCH);
      if (rows.length > 0) {
        const last = rows[rows.length - 1]!;
        cursor = { time: last.time, id: last.id };
        controller.enqueue(encoder.encode(rows.map(csvLine).join('')));
      }
      if (rows.length < CSV_BATCH) controller.close();
    },
  }, { highWaterMark: 1 });
}

/** Quotes a field when it holds a comma, quote, CR or LF; quotes inside are doubled (RFC 4180). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);

  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(row: LogRow): string {
  const entry = { ...row, time: row.time.toISOString() } as Record<string, unknown>;

  return `${CSV_COLUMNS.map((c) => csvField(entry[c])).join(',')}\r\n`;
}

/** ADMIN must name the tenant (`-1` for all); everyone else reads their resolved scope. */
function filterOf(ctx: ServiceContext, input: LogFilterQuery): LogFilter {
  if (ctx.actor.role === 'ADMIN' && (input.customerId === undefined || input.customerId.trim() === '')) {
    throw new ValidationError('log.error.customerIdRequired', 'customerId is required for ADMIN (use -1 for every tenant)', { parameter: 'customerId' });
  }
  const from = input.from === undefined ? undefined : new Date(Number(input.from));
  const to = input.to === undefined ? undefined : new Date(Number(input.to));
  if (from && to && from > to) throw new ValidationError('request.error.invalid', "'from' must not be after 'to'", { parameter: 'from' });

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
