import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';
import { datasources } from './datasources.table';

export const calendarEventStatuses = ['CONFIRMED', 'CANCELLED', 'SUSPENDED'] as const;
export type CalendarEventStatusValue = (typeof calendarEventStatuses)[number];
export type CalendarAttendee = { name: string; status?: string };

/**
 * The events of an INTERNAL datasource that is `editableByDisplay` (spec 5 §3), written through the public calendar
 * endpoints. The datasource's document is a projection of these rows (rebuilt after every write), so devices read
 * events like any other data. Events are half-open intervals [starts_at, ends_at).
 */
export const calendarEvents = pgTable(
  'calendar_event',
  {
    id: uuid('id').primaryKey(),
    datasourceId: uuid('datasource_id')
      .notNull()
      .references(() => datasources.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    status: text('status').$type<CalendarEventStatusValue>().notNull().default('CONFIRMED'),
    title: text('title').notNull(),
    description: text('description'),
    organizer: text('organizer'),
    location: text('location'),
    isStarted: boolean('is_started').notNull().default(false),
    startedBy: text('started_by'),
    startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, precision: 3 }).notNull(),
    // SUSPENDED lasts until then; afterwards the event reads as CONFIRMED again.
    suspendedUntil: timestamp('suspended_until', { withTimezone: true, precision: 3 }),
    attendees: jsonb('attendees').$type<CalendarAttendee[]>().notNull().default([]),
    created: timestamp('created', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // Overlap checks and window reads: one datasource's events by start.
    index('calendar_event_datasource_starts_idx').on(t.datasourceId, t.startsAt),
    index('calendar_event_customer_idx').on(t.customerId),
  ],
);

export type CalendarEventRow = typeof calendarEvents.$inferSelect;
