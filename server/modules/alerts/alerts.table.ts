import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { datasources } from '@/server/modules/datasources/datasources.table';
import { devices } from '@/server/modules/devices/devices.table';
import { notificationChannels } from '@/server/modules/notification-channels/notification-channels.table';
import type { WorkingDays } from '@/server/playback/schedule-rules.schemas';
import { customers } from '@/server/tenant/customers.table';
import type { AlertCondition, StoredWorkingTime } from './alert-rules.schemas';

/*
 * Alert rules (spec 2 "Alert rule"), the channels they notify, and alerts: one row per outage of one device or
 * datasource under one rule, open while `closed_at` is null (README.md "Decisions").
 */

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const alertRules = pgTable(
  'alert_rule',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** `@type`: DeviceOffline or DatasourceError; never changes. */
    type: text('type', { enum: ['DeviceOffline', 'DatasourceError'] }).notNull(),
    name: text('name').notNull(),
    comment: text('comment').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    condition: jsonb('condition').$type<AlertCondition>().notNull(),
    delayEvaluateAfterViolationMinutes: integer('delay_evaluate_after_violation_minutes').notNull().default(0),
    scheduledEvaluateSeconds: integer('scheduled_evaluate_seconds').notNull().default(300),
    /** Null: the rule never evaluates (spec 1 "Validation" 3). */
    workingDays: jsonb('working_days').$type<WorkingDays>(),
    workingTime: jsonb('working_time').$type<StoredWorkingTime>().notNull(),
    alertEmailTemplate: text('alert_email_template'),
    evaluateSummaryEmailTemplate: text('evaluate_summary_email_template'),
    alertSmsTemplate: text('alert_sms_template'),
    alertFixedSmsTemplate: text('alert_fixed_sms_template'),
    version: integer('version').notNull().default(0),
    evaluateCount: integer('evaluate_count').notNull().default(0),
    violationCount: integer('violation_count').notNull().default(0),
    lastEvaluationDate: at('last_evaluation_date'),
    lastViolationDate: at('last_violation_date'),
    /** When the tick evaluates the rule next; null while disabled or without working days. Pushed by a lease while claimed. */
    nextEvaluationAt: at('next_evaluation_at'),
    createdDate: at('created_date').notNull().defaultNow(),
    lastSavedAt: at('last_saved_at').notNull().defaultNow(),
  },
  (t) => [
    index('alert_rule_customer_idx').on(t.customerId, t.id),
    uniqueIndex('alert_rule_customer_name_key').on(t.customerId, t.name),
    index('alert_rule_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    // The evaluation tick's claim: due rules by time, the idle ones (null) left out of the index.
    index('alert_rule_due_idx')
      .on(t.nextEvaluationAt)
      .where(sql`${t.nextEvaluationAt} is not null`),
  ],
);

export type AlertRuleRow = typeof alertRules.$inferSelect;

/**
 * The channels a rule notifies, in the rule's order. The plain foreign key to `notification_channel` (NO ACTION)
 * is what refuses deleting a channel in use (notification-channels README, "Delete").
 */
export const alertRuleChannels = pgTable(
  'alert_rule_notification_channel',
  {
    alertRuleId: bigint('alert_rule_id', { mode: 'number' })
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    notificationChannelId: bigint('notification_channel_id', { mode: 'number' })
      .notNull()
      .references(() => notificationChannels.id),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.alertRuleId, t.notificationChannelId] }),
    // The channel's delete checks the foreign key through this index.
    index('alert_rule_notification_channel_channel_idx').on(t.notificationChannelId),
  ],
);

export const alertKinds = ['DEVICE', 'DATASOURCE'] as const;
export type AlertKind = (typeof alertKinds)[number];

/** One outage: opened when a device or datasource starts violating a rule, closed when it recovers. */
export const alerts = pgTable(
  'alert',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    alertRuleId: bigint('alert_rule_id', { mode: 'number' })
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: alertKinds }).notNull(),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    datasourceId: uuid('datasource_id').references(() => datasources.id, { onDelete: 'cascade' }),
    openedAt: at('opened_at').notNull(),
    closedAt: at('closed_at'),
    // The facts of spec 2's alert records, as they were when the alert opened.
    deviceName: text('device_name'),
    deviceLastActivity: at('device_last_activity'),
    deviceLastStatusChange: at('device_last_status_change'),
    deviceGroupId: uuid('device_group_id'),
    deviceGroupPath: uuid('device_group_path').array(),
    /** The folder names from the root down, joined by " / " (for people: messages and the console). */
    folderPath: text('folder_path'),
    datasourceName: text('datasource_name'),
    datasourceErrorCounter: integer('datasource_error_counter'),
    datasourceLastError: text('datasource_last_error'),
  },
  (t) => [
    check(
      'alert_subject_check',
      sql`(${t.kind} = 'DEVICE') = (${t.deviceId} is not null) and (${t.kind} = 'DATASOURCE') = (${t.datasourceId} is not null)`,
    ),
    // Never a second open alert for one device or datasource under one rule, whatever runs at once.
    uniqueIndex('alert_open_device_key')
      .on(t.alertRuleId, t.deviceId)
      .where(sql`${t.closedAt} is null and ${t.deviceId} is not null`),
    uniqueIndex('alert_open_datasource_key')
      .on(t.alertRuleId, t.datasourceId)
      .where(sql`${t.closedAt} is null and ${t.datasourceId} is not null`),
    // A device's open alerts (its `alerts`).
    index('alert_device_open_idx')
      .on(t.deviceId)
      .where(sql`${t.closedAt} is null`),
    // A folder's `alertCount`: the tenant's open device alerts.
    index('alert_customer_open_device_idx')
      .on(t.customerId)
      .where(sql`${t.closedAt} is null and ${t.deviceId} is not null`),
    index('alert_device_idx').on(t.deviceId),
    index('alert_datasource_idx').on(t.datasourceId),
    index('alert_rule_opened_idx').on(t.alertRuleId, t.openedAt),
    index('alert_customer_kind_opened_idx').on(t.customerId, t.kind, t.openedAt),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
