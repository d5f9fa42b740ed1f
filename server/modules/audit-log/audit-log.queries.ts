import { and, asc, desc, gte, lte, sql, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { auditLog } from './audit-log.table';

export type LogFilter = { scope: TenantScope; search?: string; from?: Date; to?: Date; order: 'ASC' | 'DESC' };
export type LogCursor = { time: Date; id: number };

const columns = {
  id: auditLog.id,
  time: auditLog.time,
  logLevel: auditLog.logLevel,
  message: auditLog.message,
  userEmail: auditLog.userEmail,
  actorKind: auditLog.actorKind,
  actorName: auditLog.actorName,
  deviceId: auditLog.deviceId,
  deviceName: auditLog.deviceName,
  contentId: auditLog.contentId,
  contentName: auditLog.contentName,
  datasourceId: auditLog.datasourceId,
  datasourceName: auditLog.datasourceName,
  customerId: auditLog.customerId,
  customerName: auditLog.customerName,
};

export type LogRow = { [K in keyof typeof columns]: (typeof auditLog.$inferSelect)[K] };

/**
 * Case-insensitive "contains" over the message, the author and every entity name. Without pg_trgm
 * (absent from PGlite) no index can serve an infix match; the scan stays inside the
 * (customer_id, time, id) index range in time order and stops at the page's LIMIT.
 */
function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;

  return sql`strpos(lower(concat_ws(' ', ${auditLog.message}, ${auditLog.userEmail}, ${auditLog.actorName}, ${auditLog.entityName}, ${auditLog.deviceName},
    ${auditLog.contentName}, ${auditLog.datasourceName}, ${auditLog.customerName})), lower(${search})) > 0`;
}

function whereOf(filter: LogFilter, cursor?: LogCursor): SQL | undefined {
  const after = cursor
    ? filter.order === 'DESC'
      ? sql`(${auditLog.time}, ${auditLog.id}) < (${cursor.time.toISOString()}::timestamptz, ${cursor.id})`
      : sql`(${auditLog.time}, ${auditLog.id}) > (${cursor.time.toISOString()}::timestamptz, ${cursor.id})`
    : undefined;

  return and(
    scopeCondition(filter.scope, auditLog.customerId),
    filter.from && gte(auditLog.time, filter.from),
    filter.to && lte(auditLog.time, filter.to),
    searchCondition(filter.search),
    after,
  );
}

function orderOf(filter: LogFilter) {
  const dir = filter.order === 'DESC' ? desc : asc;

  return [dir(auditLog.time), dir(auditLog.id)];
}

/** One page and the total, in one statement (`count(*) over ()`). */
export async function findLogPage(
  db: Executor,
  filter: LogFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: LogRow[]; total: number | undefined }> {
  const rows = await db
    .select({ ...columns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(auditLog)
    .where(whereOf(filter))
    .orderBy(...orderOf(filter))
    .limit(page.limit)
    .offset(page.offset);

  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total };
}

export async function countLog(db: Executor, filter: LogFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(auditLog)
    .where(whereOf(filter));

  return row?.n ?? 0;
}

/** The next batch after `cursor` (keyset paging: no offset cost, no open transaction between batches). */
export function findLogBatch(db: Executor, filter: LogFilter, cursor: LogCursor | undefined, limit: number): Promise<LogRow[]> {
  return db
    .select(columns)
    .from(auditLog)
    .where(whereOf(filter, cursor))
    .orderBy(...orderOf(filter))
    .limit(limit);
}
