import { and, asc, eq, gt, lt, ne, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { calendarEvents, type CalendarEventRow } from './calendar-events.table';
import type { DatasourceRow } from './datasources.table';

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
