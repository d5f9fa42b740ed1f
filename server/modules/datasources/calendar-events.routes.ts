import { z } from '@hono/zod-openapi';
import { identifyCaller } from '@/server/http/auth-middleware';
import { json } from '@/server/http/list-query';
import { conflictError, sharedErrors } from '@/server/http/responses';
import { defineRoute, type RouteRegistrar } from '@/server/http/route';
import {
  CalendarEventCreateQuerySchema,
  CalendarEventDatasourceQuerySchema,
  CalendarEventDurationQuerySchema,
  CalendarEventEndQuerySchema,
  CalendarEventIdParams,
  CalendarEventSchema,
  CalendarEventsQuerySchema,
  CalendarEventStartQuerySchema,
} from './calendar-events.schemas';
import * as service from './calendar-events.service';
import { writerOf } from './datasource-callers.handlers';
import { ANONYMOUS_WRITE_LIMIT } from './datasources.routes';

/* Spec 2 "Calendar events (public family)", spec 5 §3, DECISIONS §6 (the callers of public datasource writes). */
const tags = ['Calendar events'];
const BASE = '/public-api/calendars/events';

const CALLERS =
  'Callers (DECISIONS §6): a user (reads: the datasource visible to them; writes: EDITOR or higher, writable for them), a device token of the datasource’s customer, or no credentials when the datasource is `editableByDisplay` (otherwise 404, like an unknown id; writes without credentials: at most 120 a minute per client address and 600 per datasource by default, then 429 with `Retry-After`).';
const WRITES =
  'Writes need an INTERNAL LIST datasource that is `editableByDisplay` (409 `calendarEvent.error.notEditableByDisplay`, `calendarEvent.error.notList`); an ICAL datasource’s events are read only (409 `calendarEvent.error.readOnly`). The datasource’s document becomes the list of its coming events and its devices get `datasourceChanged`. Answers the event as GET shows it.';
const callerResponses = {
  401: sharedErrors[401],
  403: sharedErrors[403],
  404: sharedErrors[404],
  ...conflictError,
};
/** Every write counts against the limits of callers without credentials (datasource-write-limit.ts). */
const writeOptions = { rateLimited: ANONYMOUS_WRITE_LIMIT };
const eventResponse = (description: string) => ({ description, ...json(CalendarEventSchema) });

const listCalendarEventsRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: BASE,
    operationId: 'listCalendarEvents',
    tags,
    summary: 'The events of a calendar datasource overlapping [from, to)',
    description: `By start; CANCELLED events are left out; at most 5 000. An ICAL datasource answers from its document (the last refresh expanded [then − 1 day, then + 30 days]); an INTERNAL one editable by displays from its events. Any other datasource: 409 \`calendarEvent.error.notCalendar\`. ${CALLERS}`,
    middleware: [identifyCaller],
    request: { query: CalendarEventsQuerySchema },
    responses: { 200: { description: 'The events', ...json(z.array(CalendarEventSchema)) }, ...callerResponses },
  },
);

const createCalendarEventRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: BASE,
    operationId: 'createCalendarEvent',
    tags,
    summary: 'Create a calendar event',
    description: `A CONFIRMED event in [start, end). 409 \`calendarEvent.error.overlap\` when it overlaps an event of the datasource that is not cancelled (one ending at 10:00 does not overlap one starting at 10:00). A calendar stores at most 10 000 events (409 \`calendarEvent.error.tooManyEvents\`); events are removed 30 days after they end, cancelled ones a day after they were cancelled. ${WRITES} ${CALLERS}`,
    middleware: [identifyCaller],
    request: { query: CalendarEventCreateQuerySchema },
    responses: { 201: eventResponse('The created event'), ...callerResponses },
  },
  writeOptions,
);

const EVENT_ANSWER = 'An event of another datasource, or none: 404.';
const eventResponses = { 200: eventResponse('The event afterwards'), ...callerResponses };

const startCalendarEventRoute = defineRoute(
  { public: true },
  {
    method: 'patch',
    path: `${BASE}/{eventId}/start`,
    operationId: 'startCalendarEvent',
    tags,
    summary: 'Mark a calendar event as started',
    description: `Sets \`isStarted\` and \`startedBy\`; a suspended event is confirmed again. A cancelled one: 409 \`calendarEvent.error.cancelled\`. ${EVENT_ANSWER} ${WRITES} ${CALLERS}`,
    middleware: [identifyCaller],
    request: { params: CalendarEventIdParams, query: CalendarEventStartQuerySchema },
    responses: eventResponses,
  },
  writeOptions,
);

const endCalendarEventRoute = defineRoute(
  { public: true },
  {
    method: 'patch',
    path: `${BASE}/{eventId}/end`,
    operationId: 'endCalendarEvent',
    tags,
    summary: 'Set the end of a calendar event',
    description: `The event ends at \`endDate\`: after its start and at most 366 days later (400 \`calendarEvent.error.invalidEnd\`); a later end must not run into another event (409 \`calendarEvent.error.overlap\`). A cancelled one: 409 \`calendarEvent.error.cancelled\`. ${EVENT_ANSWER} ${WRITES} ${CALLERS}`,
    middleware: [identifyCaller],
    request: { params: CalendarEventIdParams, query: CalendarEventEndQuerySchema },
    responses: eventResponses,
  },
  writeOptions,
);

const cancelCalendarEventRoute = defineRoute(
  { public: true },
  {
    method: 'patch',
    path: `${BASE}/{eventId}/cancel`,
    operationId: 'cancelCalendarEvent',
    tags,
    summary: 'Cancel a calendar event',
    description: `Sets CANCELLED: the event is no longer listed and frees its time. Cancelling it again changes nothing. ${EVENT_ANSWER} ${WRITES} ${CALLERS}`,
    middleware: [identifyCaller],
    request: { params: CalendarEventIdParams, query: CalendarEventDatasourceQuerySchema },
    responses: eventResponses,
  },
  writeOptions,
);

const suspendCalendarEventRoute = defineRoute(
  { public: true },
  {
    method: 'patch',
    path: `${BASE}/{eventId}/suspend`,
    operationId: 'suspendCalendarEvent',
    tags,
    summary: 'Suspend a calendar event for some minutes',
    description: `SUSPENDED until now + \`duration\` minutes, then CONFIRMED again; it keeps its time. A cancelled one: 409 \`calendarEvent.error.cancelled\`. ${EVENT_ANSWER} ${WRITES} ${CALLERS}`,
    middleware: [identifyCaller],
    request: { params: CalendarEventIdParams, query: CalendarEventDurationQuerySchema('How long it is suspended, from now') },
    responses: eventResponses,
  },
  writeOptions,
);

const extendCalendarEventRoute = defineRoute(
  { public: true },
  {
    method: 'patch',
    path: `${BASE}/{eventId}/extend`,
    operationId: 'extendCalendarEvent',
    tags,
    summary: 'Extend a calendar event',
    description: `The end moves \`duration\` minutes later; refused with 409 \`calendarEvent.error.overlap\` when that runs into the next event, 400 \`calendarEvent.error.invalidEnd\` past 366 days. A cancelled one: 409 \`calendarEvent.error.cancelled\`. ${EVENT_ANSWER} ${WRITES} ${CALLERS}`,
    middleware: [identifyCaller],
    request: { params: CalendarEventIdParams, query: CalendarEventDurationQuerySchema('How much later it ends') },
    responses: eventResponses,
  },
  writeOptions,
);

export function registerCalendarEventRoutes(app: RouteRegistrar) {
  app.openapi(listCalendarEventsRoute, async (c) => c.json(await service.listCalendarEvents(writerOf(c), c.req.valid('query')), 200));

  app.openapi(createCalendarEventRoute, async (c) => c.json(await service.createCalendarEvent(writerOf(c), c.req.valid('query')), 201));

  app.openapi(startCalendarEventRoute, async (c) =>
    c.json(await service.startCalendarEvent(writerOf(c), { ...c.req.valid('query'), eventId: c.req.valid('param').eventId }), 200),
  );

  app.openapi(endCalendarEventRoute, async (c) =>
    c.json(await service.endCalendarEvent(writerOf(c), { ...c.req.valid('query'), eventId: c.req.valid('param').eventId }), 200),
  );

  app.openapi(cancelCalendarEventRoute, async (c) =>
    c.json(await service.cancelCalendarEvent(writerOf(c), { ...c.req.valid('query'), eventId: c.req.valid('param').eventId }), 200),
  );

  app.openapi(suspendCalendarEventRoute, async (c) =>
    c.json(await service.suspendCalendarEvent(writerOf(c), { ...c.req.valid('query'), eventId: c.req.valid('param').eventId }), 200),
  );

  app.openapi(extendCalendarEventRoute, async (c) =>
    c.json(await service.extendCalendarEvent(writerOf(c), { ...c.req.valid('query'), eventId: c.req.valid('param').eventId }), 200),
  );
}
