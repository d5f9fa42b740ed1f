import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@/server/errors';
import { MAX_EPOCH_MS } from '@/server/http/wire.schemas';
import { teamAccessCondition } from '@/server/modules/teams';
import { eventOf, instantIn, storeEventsDocument, zoneOf } from './calendar-document';
import * as events from './calendar-events.queries';
import { MAX_EVENT_MS, MINUTE_MS, type CalendarEventAnswer } from './calendar-events.schemas';
import type { CalendarEventRow } from './calendar-events.table';
import { datasourceForWriter, type DatasourceWriter } from './datasource-data.service';
import { countAnonymousWrite } from './datasource-write-limit';
import * as q from './datasources.queries';
import { auditDatasource, ENTITY } from './datasources.service';
import { datasources, type DatasourceRow } from './datasources.table';
import { MAX_CALENDAR_OCCURRENCES } from './formats';

/*
 * The public calendar endpoints (spec 2 "Calendar events (public family)", spec 5 §3). An ICAL datasource's events
 * are its document (expanded by its refreshes): read only. An INTERNAL datasource open to displays keeps its events
 * in `calendar_event`; after every write its document becomes the list of its coming events, so screens get them
 * (and `datasourceChanged`) like any data change.
 */

const DAY_MS = 86_400_000;
/**
 * The events one calendar stores, of every status: a bound on what callers without credentials can leave behind.
 * Past and cancelled events do not hold their place for ever: every create first deletes the events that ended more
 * than ENDED_EVENTS_KEPT_DAYS ago and those cancelled more than CANCELLED_EVENTS_KEPT_DAYS ago.
 */
export const MAX_STORED_EVENTS = 10_000;
const ENDED_EVENTS_KEPT_DAYS = 30;
const CANCELLED_EVENTS_KEPT_DAYS = 1;

/** Who calls: a user, a device of the tenant, or nobody (DECISIONS §6, as for `set` and `merge`). */
export type CalendarCaller = DatasourceWriter;

/** Whether the events are the datasource's own rows (else its ICAL document); 409 for a datasource that holds none. */
function holdsOwnEvents(row: DatasourceRow): boolean {
  if (row.sourceType === 'EXTERNAL' && row.type === 'ICAL') return false;
  if (row.sourceType === 'INTERNAL' && row.editableByDisplay) return true;
  throw new ConflictError(
    'calendarEvent.error.notCalendar',
    `Datasource '${row.name}' holds no calendar events: events come from an ICAL datasource or an INTERNAL one that is editable by displays`,
    { id: row.id, sourceType: row.sourceType, type: row.type, editableByDisplay: row.editableByDisplay },
  );
}

/** Spec 2: "For the write operations the referenced datasource must have editableByDisplay true"; the document must be a LIST. */
function assertEventsWritable(row: DatasourceRow): void {
  if (row.sourceType === 'EXTERNAL' && row.type === 'ICAL')
    throw new ConflictError(
      'calendarEvent.error.readOnly',
      `The events of ICAL datasource '${row.name}' come from its calendar and cannot be changed here`,
      { id: row.id },
    );
  if (row.sourceType !== 'INTERNAL' || !row.editableByDisplay)
    throw new ConflictError(
      'calendarEvent.error.notEditableByDisplay',
      `Events are written only to an INTERNAL datasource that is editable by displays; '${row.name}' is not`,
      { id: row.id, sourceType: row.sourceType, editableByDisplay: row.editableByDisplay },
    );
  if (row.structureType !== 'LIST')
    throw new ConflictError(
      'calendarEvent.error.notList',
      `Datasource '${row.name}' has the structure ${row.structureType}; calendar events need a LIST datasource (its document is the list of events)`,
      { id: row.id, structureType: row.structureType, required: 'LIST' },
    );
}

/** The datasource a caller reads (unlocked): as the writers' rule, but any role that sees it; 404 like an unknown id otherwise. */
async function datasourceForReader(db: Executor, caller: CalendarCaller, id: string): Promise<DatasourceRow> {
  if (caller.kind === 'user') {
    const { ctx } = caller;
    const row = await q.findDatasource(db, ctx.scope, id);
    const visible = teamAccessCondition(ctx, ENTITY, datasources.id);
    if (!row || (visible && !(await q.isVisible(db, row.id, visible)))) throw new NotFoundError(ENTITY, id);

    return row;
  }
  const row = await q.findDatasourceById(db, id);
  if (caller.kind === 'device') {
    const customerId = caller.ctx.device.customerId;
    if (customerId == null) throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');
    if (!row || row.customerId !== customerId) throw new NotFoundError(ENTITY, id);

    return row;
  }
  // Without credentials a datasource that is not open to displays is missing, like an unknown one (no existence oracle).
  if (!row || !row.editableByDisplay) throw new NotFoundError(ENTITY, id);

  return row;
}

const databaseOf = (caller: CalendarCaller) => (caller.kind === 'anonymous' ? caller.db : caller.ctx.db);
const requestIdOf = (caller: CalendarCaller) => (caller.kind === 'anonymous' ? caller.requestId : caller.ctx.requestId);

const isEpoch = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_EPOCH_MS;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An entry of an ICAL document (written by its refresh) as an answer; undefined for anything that is no event. */
function storedEventOf(entry: unknown, zone: string): CalendarEventAnswer | undefined {
  if (!isRecord(entry) || !isRecord(entry.start) || !isRecord(entry.end) || typeof entry.id !== 'string') return undefined;
  const start = entry.start.timeStamp;
  const end = entry.end.timeStamp;
  const status = entry.status;
  if (!isEpoch(start) || !isEpoch(end) || (status !== 'CONFIRMED' && status !== 'CANCELLED' && status !== 'SUSPENDED')) return undefined;
  const attendees = Array.isArray(entry.attendees) ? entry.attendees.filter(isRecord) : [];
  const description = textOf(entry.description);
  const organizer = textOf(entry.organizer);
  const location = textOf(entry.location);
  const startedBy = textOf(entry.startedBy);

  return {
    id: entry.id,
    status,
    ...(isEpoch(entry.created) ? { created: entry.created } : {}),
    ...(isEpoch(entry.updated) ? { updated: entry.updated } : {}),
    title: textOf(entry.title) ?? '',
    ...(description === undefined ? {} : { description }),
    ...(organizer === undefined ? {} : { organizer }),
    ...(location === undefined ? {} : { location }),
    isStarted: entry.isStarted === true,
    ...(startedBy === undefined ? {} : { startedBy }),
    start: instantIn(start, zone),
    end: instantIn(end, zone),
    attendees: attendees.flatMap((a) =>
      typeof a.name === 'string' ? [{ name: a.name, ...(typeof a.status === 'string' ? { status: a.status } : {}) }] : [],
    ),
  };
}

/** Half-open overlap with [from, to); an instant event (start = end) belongs to the window it lies in. */
function overlaps(event: Pick<CalendarEventAnswer, 'start' | 'end'>, from: number, to: number): boolean {
  const start = event.start.timeStamp;
  const end = event.end.timeStamp;

  return start < to && (end > from || (end === start && start >= from));
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** GET /public-api/calendars/events: the events overlapping [from, to), CANCELLED ones left out, by start. */
export async function listCalendarEvents(
  caller: CalendarCaller,
  input: { datasourceId: string; from: number; to: number; filterOrganizerFromAttendees?: boolean },
): Promise<CalendarEventAnswer[]> {
  const db = databaseOf(caller);
  const row = await datasourceForReader(db, caller, input.datasourceId);
  const zone = zoneOf(row);
  const now = Date.now();
  let found: CalendarEventAnswer[];
  if (holdsOwnEvents(row)) {
    const rows = await events.findEventsOverlapping(db, {
      datasource: row,
      from: new Date(input.from),
      to: new Date(input.to),
      limit: MAX_CALENDAR_OCCURRENCES,
    });
    found = rows.map((r) => eventOf(r, zone, now));
  } else {
    // The document covers what the last refresh expanded ([then − 1 day, then + 30 days], spec 5 §2).
    const document = (await q.findDocument(db, row.id))?.document;
    found = (Array.isArray(document) ? document : [])
      .map((entry) => storedEventOf(entry, zone))
      .filter((e): e is CalendarEventAnswer => e !== undefined && e.status !== 'CANCELLED' && overlaps(e, input.from, input.to))
      .sort((a, b) => a.start.timeStamp - b.start.timeStamp || a.end.timeStamp - b.end.timeStamp || (a.id < b.id ? -1 : 1))
      .slice(0, MAX_CALENDAR_OCCURRENCES);
  }
  if (input.filterOrganizerFromAttendees === false) return found;

  return found.map((e) => {
    const { organizer } = e;

    return organizer ? { ...e, attendees: e.attendees.filter((a) => !sameName(a.name, organizer)) } : e;
  });
}

type EventWrite = { event: CalendarEventRow; message: string; changed: boolean };

/**
 * One write: the datasource resolved for the caller and locked (concurrent writes to one calendar serialise on its
 * row, so two overlapping creates cannot both pass the overlap check), the change, the document rebuilt, the audit
 * entry, in one transaction.
 */
async function writeEvents(
  caller: CalendarCaller,
  datasourceId: string,
  change: (tx: Executor, row: DatasourceRow, now: number) => Promise<EventWrite>,
): Promise<CalendarEventAnswer> {
  // Counted before anything is read (callers without credentials only; 429 past the limit).
  await countAnonymousWrite(caller, datasourceId);

  return withTransaction(databaseOf(caller), async (tx) => {
    const { row, actor } = await datasourceForWriter(tx, caller, datasourceId);
    assertEventsWritable(row);
    const now = Date.now();
    const { event, message, changed } = await change(tx, row, now);
    if (changed) {
      await storeEventsDocument(tx, row, now);
      const { id, title, status, startsAt: start, endsAt: end } = event;
      await auditDatasource(tx, { actor, requestId: requestIdOf(caller) }, row, 'update', message, {
        calendarEvent: { id, title, status, start, end },
      });
    }

    return eventOf(event, zoneOf(row), now);
  });
}

async function assertNoOverlap(tx: Executor, input: { row: DatasourceRow; start: number; end: number; exceptId?: string }): Promise<void> {
  const other = await events.findFirstOverlap(tx, {
    datasource: input.row,
    from: new Date(input.start),
    to: new Date(input.end),
    exceptId: input.exceptId,
  });
  if (other)
    throw new ConflictError(
      'calendarEvent.error.overlap',
      `The time overlaps the event '${other.title.slice(0, 100)}' (${other.startsAt.toISOString()} to ${other.endsAt.toISOString()})`,
      { eventId: other.id, start: other.startsAt.getTime(), end: other.endsAt.getTime() },
    );
}

/**
 * A create stores one more event: spent ones (long ended, cancelled a while ago) are deleted first, then a calendar
 * that still holds MAX_STORED_EVENTS refuses it (409). The datasource row is locked, so concurrent creates count right.
 */
async function assertRoomForEvent(tx: Executor, row: DatasourceRow, now: number): Promise<void> {
  await events.deleteSpentEvents(tx, {
    datasource: row,
    endedBefore: new Date(now - ENDED_EVENTS_KEPT_DAYS * DAY_MS),
    cancelledBefore: new Date(now - CANCELLED_EVENTS_KEPT_DAYS * DAY_MS),
  });
  const stored = await events.countEvents(tx, row);
  if (stored >= MAX_STORED_EVENTS)
    throw new ConflictError(
      'calendarEvent.error.tooManyEvents',
      `Datasource '${row.name}' holds ${stored} events, the most a calendar keeps (${MAX_STORED_EVENTS}); events are removed ${ENDED_EVENTS_KEPT_DAYS} days after they end, cancelled ones a day after they were cancelled`,
      { id: row.id, stored, limit: MAX_STORED_EVENTS },
    );
}

/** POST /public-api/calendars/events: a CONFIRMED event in [start, end); 409 when it overlaps a non-cancelled one. */
export function createCalendarEvent(
  caller: CalendarCaller,
  input: { datasourceId: string; start: number; end: number; title: string },
): Promise<CalendarEventAnswer> {
  return writeEvents(caller, input.datasourceId, async (tx, row, now) => {
    await assertRoomForEvent(tx, row, now);
    await assertNoOverlap(tx, { row, start: input.start, end: input.end });
    const event = await events.insertEvent(tx, {
      id: uuidv7(),
      datasourceId: row.id,
      customerId: row.customerId,
      status: 'CONFIRMED',
      title: input.title,
      startsAt: new Date(input.start),
      endsAt: new Date(input.end),
      created: new Date(now),
      updated: new Date(now),
    });

    return { event, message: `Calendar event '${input.title}' created in datasource '${row.name}'`, changed: true };
  });
}

/** The event of the datasource (404 otherwise); a cancelled one takes no change but the cancel itself. */
async function eventToChange(tx: Executor, row: DatasourceRow, eventId: string, options: { isCancel?: boolean } = {}) {
  const event = await events.findEvent(tx, row, eventId);
  if (!event) throw new NotFoundError('calendarEvent', eventId);
  if (event.status === 'CANCELLED' && !options.isCancel)
    throw new ConflictError('calendarEvent.error.cancelled', `The event '${event.title.slice(0, 100)}' is cancelled`, { eventId });

  return event;
}

/** A new end for `event`: after its start, at most MAX_EVENT_MS later, not into another event. */
async function checkedEnd(tx: Executor, input: { row: DatasourceRow; event: CalendarEventRow; end: number }): Promise<void> {
  const start = input.event.startsAt.getTime();
  const invalid = (message: string) => new ValidationError('calendarEvent.error.invalidEnd', message, { start, end: input.end });
  if (input.end <= start) throw invalid('The end must be after the event’s start');
  if (input.end - start > MAX_EVENT_MS) throw invalid('An event lasts at most 366 days');
  if (input.end > MAX_EPOCH_MS) throw invalid('The end lies after the last instant the service takes (year 9999)');
  await assertNoOverlap(tx, { row: input.row, start, end: input.end, exceptId: input.event.id });
}

type EventInput = { datasourceId: string; eventId: string };

/** PATCH …/{eventId}/start: `isStarted` and `startedBy`; a suspended event is confirmed again. */
export function startCalendarEvent(caller: CalendarCaller, input: EventInput & { startedBy?: string }): Promise<CalendarEventAnswer> {
  return writeEvents(caller, input.datasourceId, async (tx, row, now) => {
    const event = await eventToChange(tx, row, input.eventId);
    const startedBy = input.startedBy?.trim() || null;
    const updated = await events.updateEvent(tx, event, {
      isStarted: true,
      startedBy,
      ...(event.status === 'SUSPENDED' ? { status: 'CONFIRMED' as const, suspendedUntil: null } : {}),
      updated: new Date(now),
    });

    return { event: updated, message: `Calendar event '${event.title}' in datasource '${row.name}' started`, changed: true };
  });
}

/** PATCH …/{eventId}/end: the event ends at `endDate` (after its start; later only while no other event follows within). */
export function endCalendarEvent(caller: CalendarCaller, input: EventInput & { endDate: number }): Promise<CalendarEventAnswer> {
  return writeEvents(caller, input.datasourceId, async (tx, row, now) => {
    const event = await eventToChange(tx, row, input.eventId);
    await checkedEnd(tx, { row, event, end: input.endDate });
    const updated = await events.updateEvent(tx, event, { endsAt: new Date(input.endDate), updated: new Date(now) });

    return { event: updated, message: `Calendar event '${event.title}' in datasource '${row.name}' ends at a new time`, changed: true };
  });
}

/** PATCH …/{eventId}/cancel: CANCELLED (again: nothing changes). */
export function cancelCalendarEvent(caller: CalendarCaller, input: EventInput): Promise<CalendarEventAnswer> {
  return writeEvents(caller, input.datasourceId, async (tx, row, now) => {
    const event = await eventToChange(tx, row, input.eventId, { isCancel: true });
    if (event.status === 'CANCELLED') return { event, message: '', changed: false };
    const updated = await events.updateEvent(tx, event, { status: 'CANCELLED', suspendedUntil: null, updated: new Date(now) });

    return { event: updated, message: `Calendar event '${event.title}' in datasource '${row.name}' cancelled`, changed: true };
  });
}

/** PATCH …/{eventId}/suspend: SUSPENDED until now + `duration` minutes. */
export function suspendCalendarEvent(caller: CalendarCaller, input: EventInput & { duration: number }): Promise<CalendarEventAnswer> {
  return writeEvents(caller, input.datasourceId, async (tx, row, now) => {
    const event = await eventToChange(tx, row, input.eventId);
    const until = new Date(now + input.duration * MINUTE_MS);
    const updated = await events.updateEvent(tx, event, { status: 'SUSPENDED', suspendedUntil: until, updated: new Date(now) });

    return {
      event: updated,
      message: `Calendar event '${event.title}' in datasource '${row.name}' suspended until ${until.toISOString()}`,
      changed: true,
    };
  });
}

/** PATCH …/{eventId}/extend: the end moves `duration` minutes later, unless that runs into the next event (409). */
export function extendCalendarEvent(caller: CalendarCaller, input: EventInput & { duration: number }): Promise<CalendarEventAnswer> {
  return writeEvents(caller, input.datasourceId, async (tx, row, now) => {
    const event = await eventToChange(tx, row, input.eventId);
    const end = event.endsAt.getTime() + input.duration * MINUTE_MS;
    await checkedEnd(tx, { row, event, end });
    const updated = await events.updateEvent(tx, event, { endsAt: new Date(end), updated: new Date(now) });

    return {
      event: updated,
      message: `Calendar event '${event.title}' in datasource '${row.name}' extended by ${input.duration} minutes`,
      changed: true,
    };
  });
}
