import type { Logger } from 'pino';
import { Temporal } from 'temporal-polyfill';
import type { Database, Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { isIanaTimeZone } from '@/server/http/wire.schemas';
import * as events from './calendar-events.queries';
import type { CalendarEventAnswer } from './calendar-events.schemas';
import type { CalendarEventRow } from './calendar-events.table';
import { storeDocument } from './datasource-document';
import * as q from './datasources.queries';
import { MAX_DOCUMENT_BYTES } from './datasources.schemas';
import type { DatasourceRow } from './datasources.table';
import type { CalendarEvent, CalendarInstant } from './formats';

/*
 * The document of an internal calendar (spec 5 §3): a projection of its `calendar_event` rows, the coming events in
 * the shape ICAL documents have. It is built after every event write and again whenever the clock changes it (a
 * suspension runs out, an event leaves the window behind or enters it ahead): the write stores that instant on the
 * datasource (`calendar_rebuild_at`) and the refresh tick builds due documents again (rebuildDueCalendars).
 */

const DAY_MS = 86_400_000;
/** The document's window: from a day ago (what just ended) to 366 days ahead (the longest window a read takes). */
const WINDOW_BEFORE_MS = DAY_MS;
const WINDOW_AFTER_MS = 366 * DAY_MS;
/** The events the document holds: the soonest in the window, at most this many. */
const MAX_DOCUMENT_EVENTS = 500;
/** Documents one tick builds again at most (in batches of CALENDAR_CLAIM): a tick stays short; the rest wait 5 s. */
const MAX_REBUILDS_PER_TICK = 500;
const CALENDAR_CLAIM = 50;
/** How long a claimed calendar belongs to the instance building it; one lost with its instance is taken again then. */
const CALENDAR_LEASE_MS = 60_000;

/** The zone the datasource writes times in (its `timeZone`; UTC when it has none). */
export function zoneOf(row: Pick<DatasourceRow, 'timeZone'>): string {
  return row.timeZone && isIanaTimeZone(row.timeZone) ? row.timeZone : 'UTC';
}

export function instantIn(epoch: number, zone: string): CalendarInstant {
  const dateTime = Temporal.Instant.fromEpochMilliseconds(epoch).toZonedDateTimeISO(zone).toString({ timeZoneName: 'never' });

  return { dateTime, timeStamp: epoch };
}

/** A suspension that has run out reads as CONFIRMED again. */
function statusAt(row: CalendarEventRow, now: number): CalendarEventAnswer['status'] {
  if (row.status !== 'SUSPENDED') return row.status;

  return row.suspendedUntil && row.suspendedUntil.getTime() > now ? 'SUSPENDED' : 'CONFIRMED';
}

/** An event row as the API and the document show it at `now` (null attributes left out, spec 1 rule 3). */
export function eventOf(row: CalendarEventRow, zone: string, now: number): CalendarEventAnswer {
  return {
    id: row.id,
    status: statusAt(row, now),
    created: row.created.getTime(),
    updated: row.updated.getTime(),
    title: row.title,
    ...(row.description == null ? {} : { description: row.description }),
    ...(row.organizer == null ? {} : { organizer: row.organizer }),
    ...(row.location == null ? {} : { location: row.location }),
    isStarted: row.isStarted,
    ...(row.startedBy == null ? {} : { startedBy: row.startedBy }),
    start: instantIn(row.startsAt.getTime(), zone),
    end: instantIn(row.endsAt.getTime(), zone),
    attendees: row.attendees.map((a) => ({ name: a.name, ...(a.status == null ? {} : { status: a.status }) })),
  };
}

/** Whether the datasource keeps its own events (INTERNAL, open to displays, a LIST): only then is its document theirs. */
const isOwnCalendar = (row: Pick<DatasourceRow, 'sourceType' | 'editableByDisplay' | 'structureType'>): boolean =>
  row.sourceType === 'INTERNAL' && row.editableByDisplay && row.structureType === 'LIST';

type Listed = Pick<CalendarEventRow, 'status' | 'endsAt' | 'suspendedUntil'>;

/**
 * The first instant after `now` at which the document built at `now` from `listed` (the events in the window, by
 * start) is no longer what the events project: a listed event's suspension runs out, a listed event leaves the window
 * behind (a day after its end), or, while the list has room, the next event (`nextStart`, the first start at or after
 * the window's far edge) enters it. Null: nothing changes until the next write.
 */
export function nextChangeAfter(input: { now: number; listed: readonly Listed[]; hasRoom: boolean; nextStart?: number }): number | null {
  let next = Number.POSITIVE_INFINITY;
  for (const event of input.listed) {
    next = Math.min(next, event.endsAt.getTime() + WINDOW_BEFORE_MS);
    const until = event.suspendedUntil?.getTime();
    if (event.status === 'SUSPENDED' && until !== undefined && until > input.now) next = Math.min(next, until);
  }
  // The window reaches [now − 1 day, now + 366 days): an event starting at S is in it once now > S − 366 days.
  if (input.hasRoom && input.nextStart !== undefined) next = Math.min(next, input.nextStart - WINDOW_AFTER_MS + 1);

  return Number.isFinite(next) ? next : null;
}

/**
 * Builds the document of an internal calendar at `now`: its coming events (from a day ago, not cancelled, the
 * soonest 500, as many as fit 1 MiB). Stored through `storeDocument` with the row locked, so `lastUpdated` moves and
 * the devices hear of it when the list changed. Records when the clock changes it next (`calendar_rebuild_at`).
 */
export async function storeEventsDocument(tx: Executor, row: DatasourceRow, now: number): Promise<void> {
  const windowEnd = new Date(now + WINDOW_AFTER_MS);
  const rows = await events.findEventsOverlapping(tx, {
    datasource: row,
    from: new Date(now - WINDOW_BEFORE_MS),
    to: windowEnd,
    limit: MAX_DOCUMENT_EVENTS,
  });
  const zone = zoneOf(row);
  const list: CalendarEvent[] = [];
  let bytes = 2;
  for (const r of rows) {
    const event = eventOf(r, zone, now);
    bytes += Buffer.byteLength(JSON.stringify(event)) + 1;
    if (bytes > MAX_DOCUMENT_BYTES) break;
    list.push(event);
  }
  await storeDocument(tx, row, list, { now: new Date(now) });
  const hasRoom = rows.length < MAX_DOCUMENT_EVENTS;
  const nextStart = hasRoom ? (await events.findFirstStartFrom(tx, { datasource: row, from: windowEnd }))?.getTime() : undefined;
  const next = nextChangeAfter({ now, listed: rows, hasRoom, nextStart });
  await q.recordDatasourceState(tx, row.id, { calendarRebuildAt: next === null ? null : new Date(next) });
}

export type CalendarRebuildDeps = { db: Database; log: Logger; now?: () => number };

/**
 * The refresh tick's second half: builds again the calendar documents the clock has changed (`calendar_rebuild_at`
 * due). Claimed in batches with `FOR UPDATE SKIP LOCKED` and a lease, as refreshes are, so instances share the work
 * and never build one twice; each is built in its own transaction with its row locked, like an event write. A
 * datasource that no longer keeps its own events is left alone from then on. Answers how many were built.
 */
export async function rebuildDueCalendars(deps: CalendarRebuildDeps): Promise<number> {
  let built = 0;
  while (built < MAX_REBUILDS_PER_TICK) {
    const now = deps.now?.() ?? Date.now();
    const ids = await events.claimDueCalendars(deps.db, { now: new Date(now), limit: CALENDAR_CLAIM, leaseMs: CALENDAR_LEASE_MS });
    for (const id of ids) {
      try {
        await withTransaction(deps.db, async (tx) => {
          const row = await q.lockDatasourceById(tx, id);
          if (!row) return;
          if (isOwnCalendar(row)) await storeEventsDocument(tx, row, deps.now?.() ?? Date.now());
          else await q.recordDatasourceState(tx, id, { calendarRebuildAt: null });
        });
      } catch (err) {
        // Its lease keeps it from every tick for a minute; then it is tried again.
        deps.log.error({ err, datasourceId: id }, 'calendar document rebuild failed');
      }
      built += 1;
    }
    if (ids.length < CALENDAR_CLAIM) break;
  }

  return built;
}
