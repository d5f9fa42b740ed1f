import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deviceContents } from '@/server/modules/content/content.table';
import { customers } from '@/server/tenant/customers.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { devicePlatforms, deviceStatuses, deviceTypes, licenseStatuses, licenseTypes } from './devices.schemas';

/*
 * Screens (spec 3 "Device", spec 4 §1–§3). A device exists from its first registration, unassigned
 * (`customer_id` null, an activation code shown on the screen), until it is deleted; a claim puts it in a
 * customer's device folder. `group_path` copies the folder's materialised path (`deviceGroupPath:{id}` is
 * one GIN-indexed predicate); folder moves rewrite it in the same transaction.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const devices = pgTable(
  'device',
  {
    id: uuid('id').primaryKey(),
    // Null while unassigned (registered, not claimed yet).
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, { onDelete: 'cascade' }),
    // No cascade: deleting a folder moves its devices (targetGroupId or the parent) first.
    deviceGroupId: uuid('device_group_id').references(() => deviceGroups.id),
    groupPath: uuid('group_path')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    name: text('name').notNull().default(''),
    comment: text('comment'),
    deviceStatus: text('device_status', { enum: deviceStatuses }).notNull().default('OFFLINE'),
    lastDeviceStatusChange: at('last_device_status_change'),
    emergencyStatus: boolean('emergency_status').notNull().default(false),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    type: text('type', { enum: deviceTypes }).notNull().default('SCREEN'),
    platform: text('platform', { enum: devicePlatforms }).notNull().default('UNKNOWN'),
    serial: text('serial'),
    hardwareKey: text('hardware_key'),
    version: text('version'),
    firmwareVersion: text('firmware_version'),
    nativeResolutionWidth: integer('native_resolution_width'),
    nativeResolutionHeight: integer('native_resolution_height'),
    localIpAddress: text('local_ip_address'),
    nativeOrientation: text('native_orientation'),
    webViewOrientation: text('web_view_orientation'),
    /** Any call of the device (written at most once a minute). */
    lastActivity: at('last_activity'),
    /** The last heartbeat or WebSocket sign of life: ONLINE until 2.5 × heartbeatSeconds after it. */
    lastSeen: at('last_seen'),
    heartbeatSeconds: integer('heartbeat_seconds').notNull().default(60),
    licenseStatus: text('license_status', { enum: licenseStatuses }).notNull().default('UN_LICENSED'),
    licenseOrderId: bigint('license_order_id', { mode: 'number' }),
    licenseType: text('license_type', { enum: licenseTypes }),
    timeZone: text('time_zone'),
    deviceInfo: jsonb('device_info').$type<unknown>(),
    contentId: uuid('content_id').references(() => deviceContents.id, { onDelete: 'set null' }),
    emergencyContentId: uuid('emergency_content_id').references(() => deviceContents.id, { onDelete: 'set null' }),
    /** What the state-setting batch commands set (volume, brightness, rotation, display, workingHours, …): the manifest's `settings`. */
    settings: jsonb('settings')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    activationCode: text('activation_code'),
    activationCodeExpiresAt: at('activation_code_expires_at'),
    /** Hashes only (spec 4 §2); the previous secret works until the new one is first used, or 24 h. */
    secretHash: text('secret_hash').notNull(),
    previousSecretHash: text('previous_secret_hash'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    /** A pre-registered device (assignToCustomer by serial) is taken over by the first player with its serial, until it has connected. */
    everConnected: boolean('ever_connected').notNull().default(false),
    /** When the newest screenshot arrived (previewPath's cache-busting). */
    previewUpdatedAt: at('preview_updated_at'),
    createdDate: at('created_date').notNull().defaultNow(),
  },
  (t) => [
    index('device_customer_group_name_idx').on(t.customerId, t.deviceGroupId, t.name),
    index('device_customer_name_idx').on(t.customerId, t.name, t.id),
    index('device_customer_status_idx').on(t.customerId, t.deviceStatus),
    // ADMIN's screens of every tenant by status ("offline across all customers"), in name order with the tie-breaker.
    index('device_status_name_idx').on(t.deviceStatus, t.name, t.id),
    index('device_group_path_gin_idx').using('gin', t.groupPath),
    index('device_tags_gin_idx').using('gin', t.tags),
    index('device_serial_idx')
      .on(t.serial)
      .where(sql`${t.serial} is not null`),
    // Unique among the codes still shown; an expired one is cleared before it is handed out again.
    uniqueIndex('device_activation_code_idx')
      .on(t.activationCode)
      .where(sql`${t.activationCode} is not null`),
    // No index holds lastSeen, lastActivity or the reported facts: the ping round rewrites them for every connected
    // screen, and unindexed they are HOT updates (no index entries; the table leaves room on each page, fillfactor
    // 80 in server/db/custom-sql/device_hot_updates.sql). The offline sweep compares each ONLINE device
    // with its own heartbeat interval, which no index can range-scan, so the index on last_seen saved it nothing.
    // A licence order's assigned devices (its assignedDeviceCount, the in-use check of its delete).
    index('device_license_order_idx')
      .on(t.licenseOrderId)
      .where(sql`${t.licenseOrderId} is not null`),
    // A customer's FREE devices (the check that they do not outnumber its free licences).
    index('device_customer_free_licence_idx')
      .on(t.customerId)
      .where(sql`${t.licenseStatus} = 'FREE'`),
  ],
);

export type DeviceRow = typeof devices.$inferSelect;

/** Every change of a device's `deviceStatus` (the alert rules read these transitions). */
export const deviceStatusChanges = pgTable(
  'device_status_change',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, { onDelete: 'cascade' }),
    status: text('status', { enum: deviceStatuses }).notNull(),
    changedAt: at('changed_at').notNull().defaultNow(),
  },
  (t) => [
    index('device_status_change_device_idx').on(t.deviceId, t.changedAt),
    index('device_status_change_customer_idx').on(t.customerId, t.changedAt),
  ],
);

/**
 * One-shot commands for a device (spec 4 §3): kept until acknowledged or expired, so they survive a
 * restart and are delivered again on the next connection or heartbeat.
 */
export const deviceCommands = pgTable(
  'device_command',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    params: jsonb('params')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    issuedAt: at('issued_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    /** First sent to the device (WebSocket push or heartbeat answer); delivery repeats until acknowledged. */
    deliveredAt: at('delivered_at'),
    acknowledgedAt: at('acknowledged_at'),
    ok: boolean('ok'),
    result: jsonb('result').$type<unknown>(),
    error: text('error'),
  },
  (t) => [
    // Pending commands of a device, oldest first.
    index('device_command_pending_idx')
      .on(t.deviceId, t.issuedAt)
      .where(sql`${t.acknowledgedAt} is null`),
    index('device_command_customer_idx').on(t.customerId, t.issuedAt),
    // A device's commands by name, newest first: the newest of each name (the screen's settings: what was sent last
    // and its fate) and its history (the newest of all names, `findCommandHistory`). The one index on the device: each
    // more is one more entry for every command a batch issues and every acknowledgement.
    index('device_command_device_name_idx').on(t.deviceId, t.name, t.issuedAt),
  ],
);

/** Metric samples a device sends (spec 3 "Device metric types"), read by the graphs endpoint. */
export const deviceMetricSamples = pgTable(
  'device_metric_sample',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    sampledAt: at('sampled_at').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [
    index('device_metric_sample_idx').on(t.deviceId, t.type, t.sampledAt),
    // The retention job deletes by age; rows arrive in time order, so a BRIN index is a few pages.
    index('device_metric_sample_age_idx').using('brin', t.sampledAt),
  ],
);

/** The screenshots of a device, newest last (`previewStore`); the newest is its `previewPath`. */
export const devicePreviews = pgTable(
  'device_preview',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    takenAt: at('taken_at').notNull().defaultNow(),
    highRes: boolean('high_res').notNull().default(false),
  },
  (t) => [index('device_preview_device_idx').on(t.deviceId, t.takenAt)],
);

/**
 * Device access tokens (`client_credentials`, one hour), stored only as SHA-256 hashes like user tokens.
 * Deleting the device deletes them, so its tokens stop at once.
 */
export const deviceAccessTokens = pgTable(
  'device_access_token',
  {
    tokenHash: text('token_hash').primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('device_access_token_device_idx').on(t.deviceId), index('device_access_token_expires_idx').on(t.expiresAt)],
);

/**
 * WebSocket tickets (spec 4 §3 `wsTicket`): single use, 30 seconds, stored as hashes. In the database, not
 * in memory, so that the upgrade may reach another instance than the one that issued the ticket.
 */
export const deviceSocketTickets = pgTable(
  'device_socket_ticket',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
  },
  // By device: a new ticket drops the device's oldest (and the device's delete cascades through it).
  (t) => [index('device_socket_ticket_expires_idx').on(t.expiresAt), index('device_socket_ticket_device_idx').on(t.deviceId, t.expiresAt)],
);

/**
 * Open device WebSockets, one row per connection (the display module's session limit, issue 33): which instance
 * holds it and until when its lease runs. The instance renews its leases every ping round and deletes a row when
 * its socket closes; a crashed instance's rows stop counting when their lease runs out. A customer's connected
 * devices are its distinct `device_id`s with a running lease (`customer_id` follows the device at each renewal,
 * so a claim while connected moves the session to the new customer).
 */
export const deviceSessions = pgTable(
  'device_session',
  {
    id: uuid('id').primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, { onDelete: 'cascade' }),
    instanceId: uuid('instance_id').notNull(),
    openedAt: at('opened_at').notNull().defaultNow(),
    leaseUntil: at('lease_until').notNull(),
  },
  (t) => [
    // The count under the customer's lock, and the dashboard's.
    index('device_session_customer_idx').on(t.customerId, t.leaseUntil, t.deviceId),
    index('device_session_device_idx').on(t.deviceId),
  ],
);
