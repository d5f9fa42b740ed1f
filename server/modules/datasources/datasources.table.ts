import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { customers } from '@/server/tenant/customers.table';

/** `requestSettings` of JSON and XML datasources (spec 5 §2). */
export type RequestSettings = { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; jsonPath?: string };
export type CronExpressionParameters = { cronExpression: string; timeZone: string };
export type CapParameters = { areaFilter?: string; minimumSeverity?: 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown' };
export type WebScraperParameters = { selectors: Array<{ name: string; selector: string; attribute?: string }> };

/**
 * A datasource (spec 3 "Datasource", spec 5 §2): where live data comes from and how often it is fetched. Its
 * document lives in `datasource_data` (one row, written by refreshes and the data endpoints), so lists never
 * read documents. `next_refresh_at` drives the refresh scheduler (null: nothing to fetch — internal, system or
 * deactivated); a claimed row's time is pushed forward by the lease while its refresh runs.
 */
export const datasources = pgTable(
  'datasource',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    comment: text('comment').notNull().default(''),
    sourceType: text('source_type').notNull(),
    structureType: text('structure_type').notNull(),
    type: text('type'),
    systemDatasourceType: text('system_datasource_type'),
    global: boolean('global').notNull().default(false),
    deactivated: boolean('deactivated').notNull().default(false),
    editableByDisplay: boolean('editable_by_display').notNull().default(false),
    remoteUrl: text('remote_url'),
    requestSettings: jsonb('request_settings').$type<RequestSettings>(),
    refreshFrequency: integer('refresh_frequency'),
    cronExpressionParameters: jsonb('cron_expression_parameters').$type<CronExpressionParameters>(),
    timeZone: text('time_zone'),
    dateFormat: text('date_format'),
    timeFormat: text('time_format'),
    keepLastXDays: integer('keep_last_x_days'),
    keepLastXItem: integer('keep_last_x_item'),
    // A plain foreign key: deleting a quick filter a datasource uses is refused (quick filters' in-use rule).
    quickFilterId: uuid('quick_filter_id').references(() => quickFilters.id),
    maxElementCount: integer('max_element_count'),
    fileFolderId: uuid('file_folder_id').references(() => fileFolders.id, { onDelete: 'set null' }),
    capParameters: jsonb('cap_parameters').$type<CapParameters>(),
    webScraperParameters: jsonb('web_scraper_parameters').$type<WebScraperParameters>(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    nextRefreshAt: timestamp('next_refresh_at', { withTimezone: true, precision: 3 }),
    lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true, precision: 3 }),
    lastUpdated: timestamp('last_updated', { withTimezone: true, precision: 3 }),
    errorCounter: integer('error_counter').notNull().default(0),
    lastError: text('last_error'),
    // An internal calendar's document (its coming events) changes with the clock: the next instant it must be built
    // again (a suspension ends, an event leaves or enters the window); the refresh tick rebuilds due ones.
    calendarRebuildAt: timestamp('calendar_rebuild_at', { withTimezone: true, precision: 3 }),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSavedAt: timestamp('last_saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('datasource_customer_idx').on(t.customerId, t.id),
    uniqueIndex('datasource_customer_name_key').on(t.customerId, t.name),
    index('datasource_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    // The scheduler's claim: due rows in time order, across tenants (it serves every customer).
    index('datasource_due_idx')
      .on(t.nextRefreshAt)
      .where(sql`${t.nextRefreshAt} is not null`),
    // The calendar rebuild's claim, as the refresh's: due rows in time order, across tenants.
    index('datasource_calendar_due_idx')
      .on(t.calendarRebuildAt)
      .where(sql`${t.calendarRebuildAt} is not null`),
    index('datasource_quick_filter_idx').on(t.quickFilterId),
    index('datasource_file_folder_idx').on(t.fileFolderId),
    index('datasource_tags_gin_idx').using('gin', t.tags),
  ],
);

export type DatasourceRow = typeof datasources.$inferSelect;

/** Conditional-request validators the remote offered with the document (spec 5 §2 "Refresh"). */
export type RemoteValidators = { etag?: string; lastModified?: string };

/**
 * The current document of a datasource (spec 5 §2 "Data documents"): its hash decides whether a refresh
 * changed anything, `size` (bytes of its JSON) counts in the customer's datasource storage.
 */
export const datasourceData = pgTable(
  'datasource_data',
  {
    datasourceId: uuid('datasource_id')
      .primaryKey()
      .references(() => datasources.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    document: jsonb('document').notNull(),
    hash: text('hash').notNull(),
    size: integer('size').notNull(),
    validators: jsonb('validators').$type<RemoteValidators>(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('datasource_data_customer_idx').on(t.customerId)],
);

export type DatasourceDataRow = typeof datasourceData.$inferSelect;
