import { and, asc, count, eq, gt, gte, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { calendarEvents, type CalendarEventRow } from './calendar-events.table';
import { datasources, type DatasourceRow } from './datasources.table';

type CalendarEventValues = typeof calendarEvents.$inferInsert;
type DatasourceKey = Pick<DatasourceRow, 'id' | 'customerId'>;

const ofDatasource = (datasource: DatasourceKey): SQL =>
  and(eq(calendarEvents.datasourceId, datasource.id), eq(calendarEvents.customerId, datasource.customerId))!;

/** Half-open overlap with [from, to): the event starts before `to` and ends after `from`. */
const overlapping = (from: Date, to: Date): SQL => and(lt(calendarEvents.startsAt, to), gt(calendarEvents.endsAt, from))!;

/** The datasource's events that are not cancelled and overlap [from, to), by start (the index on datasource and start). */
export async function findEventsOverlapping(
  db: Executor,
  input: { datasource: DatasourceKey; from: Date; to: Date; limit: number },
): Promise<CalendarEventRow[]> {
  return db
    .select()
    .from(calendarEvents)
    .where(and(ofDatasource(input.datasource), ne(calendarEvents.status, 'CANCELLED'), overlapping(input.from, input.to)))
    .orderBy(asc(calendarEvents.startsAt), asc(calendarEvents.endsAt), asc(calendarEvents.id))
    .limit(input.limit);
}

/** A non-cancelled event of the datasource that overlaps [from, to), other than `exceptId`; the earliest one. */
export async function findFirstOverlap(
  db: Executor,
  input: { datasource: DatasourceKey; from: Date; to: Date; exceptId?: string },
): Promise<CalendarEventRow | undefined> {
  const [row] = await db
    .select()
    .from(calendarEvents)
    .where(
      and(
        ofDatasource(input.datasource),
        ne(calendarEvents.status, 'CANCELLED'),
        overlapping(input.from, input.to),
        input.exceptId === undefined ? undefined : ne(calendarEvents.id, input.exceptId),
      ),
    )
    .orderBy(asc(calendarEvents.startsAt))
    .limit(1);

  return row;
}

/** One event of the datasource (the datasource row is locked by the caller, so the event cannot change meanwhile). */
export async function findEvent(db: Executor, datasource: DatasourceKey, id: string): Promise<CalendarEventRow | undefined> {
  const [row] = await db
    .select()
    .from(calendarEvents)
    .where(and(ofDatasource(datasource), eq(calendarEvents.id, id)))
    .limit(1);

  return row;
}

export async function insertEvent(db: Executor, values: CalendarEventValues): Promise<CalendarEventRow> {
  const [row] = await db.insert(calendarEvents).values(values).returning();

  return row!;
}

export async function updateEvent(
  db: Executor,
  event: Pick<CalendarEventRow, 'id' | 'datasourceId' | 'customerId'>,
  values: Partial<CalendarEventValues>,
): Promise<CalendarEventRow> {
  const [row] = await db
    .update(calendarEvents)
    .set(values)
    .where(
      and(
        eq(calendarEvents.id, event.id),
        eq(calendarEvents.datasourceId, event.datasourceId),
        eq(calendarEvents.customerId, event.customerId),
      ),
    )
    .returning();

  return row!;
}

/** When the first non-cancelled event of the datasource that starts at or after `from` starts (the next to enter a window). */
export async function findFirstStartFrom(db: Executor, input: { datasource: DatasourceKey; from: Date }): Promise<Date | undefined> {
  const [row] = await db
    .select({ startsAt: calendarEvents.startsAt })
    .from(calendarEvents)
    .where(and(ofDatasource(input.datasource), ne(calendarEvents.status, 'CANCELLED'), gte(calendarEvents.startsAt, input.from)))
    .orderBy(asc(calendarEvents.startsAt))
    .limit(1);

  return row?.startsAt;
}

/** The events the datasource stores, of every status. */
export async function countEvents(db: Executor, datasource: DatasourceKey): Promise<number> {
  const [row] = await db.select({ n: count() }).from(calendarEvents).where(ofDatasource(datasource));

  return row?.n ?? 0;
}

/** Deletes the events no one reads any more: ended before `endedBefore`, or cancelled and unchanged since `cancelledBefore`. */
export async function deleteSpentEvents(
  db: Executor,
  input: { datasource: DatasourceKey; endedBefore: Date; cancelledBefore: Date },
): Promise<number> {
  const deleted = await db
    .delete(calendarEvents)
    .where(
      and(
        ofDatasource(input.datasource),
        or(
          lt(calendarEvents.endsAt, input.endedBefore),
          and(eq(calendarEvents.status, 'CANCELLED'), lt(calendarEvents.updated, input.cancelledBefore)),
        ),
      ),
    )
    .returning({ id: calendarEvents.id });

  return deleted.length;
}

/**
 * Claims up to `limit` datasources whose calendar document is due to be built again, for this instance: their
 * `calendar_rebuild_at` moves `leaseMs` ahead in the same statement, and `skip locked` leaves rows that a write or
 * another instance holds (as the refresh's claim; the partial index on `calendar_rebuild_at`).
 */
export async function claimDueCalendars(db: Executor, input: { now: Date; limit: number; leaseMs: number }): Promise<string[]> {
  if (input.limit <= 0) return [];
  const leaseUntil = new Date(input.now.getTime() + input.leaseMs);
  const rows = await execRows<{ id: string }>(
    db,
    sql`update ${datasources} set calendar_rebuild_at = ${leaseUntil.toISOString()}::timestamptz
         where id in (select id from ${datasources}
                       where calendar_rebuild_at is not null and calendar_rebuild_at <= ${input.now.toISOString()}::timestamptz
                       order by calendar_rebuild_at limit ${input.limit}
                       for update skip locked)
         returning id::text as id`,
  );

  return rows.map((r) => r.id);
}
