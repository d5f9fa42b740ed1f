import { z } from '@hono/zod-openapi';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { combinationRule, epochMs, epochMsParam, integerParam, nonBlankText, uuid } from '@/server/http/wire.schemas';

/*
 * Wire shapes of calendar events (spec 2 "Calendar event", "Calendar events (public family)"; spec 5 §3). No server
 * imports beyond the wire helpers: the console imports these for its types.
 */

export const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The longest window a read answers, and the longest an event lasts. */
const MAX_CALENDAR_WINDOW_DAYS = 366;
const MAX_CALENDAR_WINDOW_MS = MAX_CALENDAR_WINDOW_DAYS * DAY_MS;
/** The longest event: as long as the longest window read. */
export const MAX_EVENT_MS = MAX_CALENDAR_WINDOW_MS;
/** `extend` and `suspend` take at most a week at once (minutes). */
const MAX_DURATION_MINUTES = 7 * 24 * 60;
const MAX_TITLE_LENGTH = 1_000;
const MAX_STARTED_BY_LENGTH = 255;

const CalendarInstantSchema = z
  .object({
    dateTime: z.string().openapi({
      description: 'ISO 8601 with the offset of the datasource’s time zone at that instant (UTC when it has none)',
      example: '2026-03-30T09:00:00+02:00',
    }),
    timeStamp: epochMs.openapi({ description: 'Unix epoch milliseconds', example: 1_774_854_000_000 }),
  })
  .openapi('CalendarInstant');

export const CalendarEventSchema = z
  .object({
    id: uuid,
    status: z.enum(['CONFIRMED', 'CANCELLED', 'SUSPENDED']).openapi({
      description: 'SUSPENDED until the suspension ends (then CONFIRMED again); CANCELLED events are never listed',
    }),
    created: epochMs.optional().openapi({ description: 'When the event was created (epoch ms), when known' }),
    updated: epochMs.optional().openapi({ description: 'When the event last changed (epoch ms), when known' }),
    title: z.string(),
    description: z.string().optional(),
    organizer: z.string().optional(),
    location: z.string().optional(),
    isStarted: z.boolean(),
    startedBy: z.string().optional(),
    start: CalendarInstantSchema,
    end: CalendarInstantSchema.openapi({ description: 'Exclusive: an event ending at 10:00 does not overlap one starting at 10:00' }),
    attendees: z.array(z.object({ name: z.string(), status: z.string().optional() }).openapi('CalendarAttendee')),
  })
  .openapi('CalendarEvent', { description: 'A calendar event (spec 5 §3)' });

export type CalendarEventAnswer = z.infer<typeof CalendarEventSchema>;

const datasourceIdParam = uuid.openapi({
  param: { name: 'datasourceId', in: 'query' },
  description: 'The datasource holding the events: an ICAL datasource (read only) or an INTERNAL one editable by displays',
});

const instantParam = (description: string) => epochMsParam.openapi({ description });
const minutesParam = (description: string) =>
  integerParam(1, MAX_DURATION_MINUTES).openapi({ description: `${description}; minutes, 1 to ${MAX_DURATION_MINUTES} (a week)` });

export const CalendarEventsQuerySchema = z
  .object({
    datasourceId: datasourceIdParam,
    from: instantParam('Start of the window (epoch ms, inclusive)'),
    to: instantParam(`End of the window (epoch ms, exclusive); after \`from\`, at most ${MAX_CALENDAR_WINDOW_DAYS} days later`),
    filterOrganizerFromAttendees: booleanQuery('Leave the organizer out of `attendees`', true),
  })
  .refine((q) => q.from < q.to, combinationRule('to must be after from', ['to']))
  .refine(
    (q) => q.to - q.from <= MAX_CALENDAR_WINDOW_MS,
    combinationRule(`A window spans at most ${MAX_CALENDAR_WINDOW_DAYS} days`, ['to']),
  );

export const CalendarEventCreateQuerySchema = z
  .object({
    datasourceId: datasourceIdParam,
    start: instantParam('When the event starts (epoch ms)'),
    end: instantParam(`When it ends (epoch ms, exclusive): after \`start\`, at most ${MAX_CALENDAR_WINDOW_DAYS} days later`),
    title: nonBlankText(MAX_TITLE_LENGTH).openapi({ description: 'The title', example: 'Team meeting' }),
  })
  .refine((q) => q.start < q.end, combinationRule('end must be after start', ['end']))
  .refine((q) => q.end - q.start <= MAX_EVENT_MS, combinationRule(`An event lasts at most ${MAX_CALENDAR_WINDOW_DAYS} days`, ['end']));

export const CalendarEventIdParams = z.object({
  eventId: uuid.openapi({ param: { name: 'eventId', in: 'path' }, description: 'An event of the datasource' }),
});

export const CalendarEventDatasourceQuerySchema = z.object({ datasourceId: datasourceIdParam });

export const CalendarEventStartQuerySchema = z.object({
  datasourceId: datasourceIdParam,
  startedBy: z
    .string()
    .max(MAX_STARTED_BY_LENGTH)
    .optional()
    .openapi({ description: 'Who started it (a name, a badge); absent or empty: nobody named', example: 'Reception' }),
});

export const CalendarEventEndQuerySchema = z.object({
  datasourceId: datasourceIdParam,
  endDate: instantParam(`The new end (epoch ms): after the start, at most ${MAX_CALENDAR_WINDOW_DAYS} days later`),
});

export const CalendarEventDurationQuerySchema = (description: string) =>
  z.object({ datasourceId: datasourceIdParam, duration: minutesParam(description) });
