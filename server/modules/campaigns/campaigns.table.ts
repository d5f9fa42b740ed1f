import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { deviceContents } from '@/server/modules/content/content.table';
import { advertisers } from '@/server/modules/advertisers/advertisers.table';
import { customers } from '@/server/tenant/customers.table';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { users } from '@/server/modules/users/users.table';

/** What a campaign is (spec 2 "Campaign"); the types the service refuses (CONTENT_BY_TAG, SIMPLE_LOOP…, DSP_*) are never stored. */
export const campaignTypes = [
  'CONTENT',
  'CONTENT_DYNAMIC',
  'ASSETS_STATIC',
  'ASSETS_DYNAMIC',
  'MESSAGE_GROUP',
  'CONTENT_QUICK_FILTER',
  'ASSET_QUICK_FILTER',
] as const;
export const campaignLevels = ['WIDGET', 'TOP'] as const;
export const deviceSelectionModes = ['STATIC', 'DYNAMIC', 'QUICK_FILTER'] as const;
export const contentShuffleModes = ['BALANCED', 'SERIAL'] as const;
export const orderingModes = ['RANDOM', 'ALPHABET', 'DEFAULT'] as const;
export const playbackSlotItemTypes = [
  'SIMPLE_LOOP',
  'SIMPLE_LOOP_SLIDE',
  'CONTENT',
  'CONTENT_PAGE',
  'MESSAGE_GROUP',
  'MESSAGE',
  'MESSAGE_ITEM',
] as const;

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A channel (`level` WIDGET) or a schedule (`level` TOP). The time rules and tag conditions are stored as
 * the validated wire documents (server/playback/schedule-rules.schemas.ts); what a campaign plays and
 * where are the assignment tables below. `validFrom`/`validTo` are local dates (read in the device's zone).
 */
export const campaigns = pgTable(
  'campaign',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    level: text('level', { enum: campaignLevels }).notNull(),
    type: text('type', { enum: campaignTypes }).notNull(),
    version: text('version').notNull().default('2.0'),
    enabled: boolean('enabled').notNull().default(true),
    weight: integer('weight'),
    saturation: doublePrecision('saturation'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    locked: boolean('locked').notNull().default(false),
    validFrom: date('valid_from', { mode: 'string' }),
    validTo: date('valid_to', { mode: 'string' }),
    duration: integer('duration'),
    defaultDuration: integer('default_duration'),
    contentShuffleMode: text('content_shuffle_mode', { enum: contentShuffleModes }),
    orderingMode: text('ordering_mode', { enum: orderingModes }),
    skipDefaultPage: boolean('skip_default_page').notNull().default(false),
    skipInvalidFiles: boolean('skip_invalid_files').notNull().default(false),
    affectedHours: jsonb('affected_hours').$type<Record<string, unknown>>(),
    affectedDays: jsonb('affected_days').$type<Record<string, unknown>>(),
    affectedDateRanges: jsonb('affected_date_ranges').$type<Record<string, unknown>>(),
    deviceTagCondition: jsonb('device_tag_condition').$type<{ tags: string[]; operator: 'AND' | 'OR' }>(),
    contentTagCondition: jsonb('content_tag_condition').$type<{ tags: string[]; operator: 'AND' | 'OR' }>(),
    fileTagCondition: jsonb('file_tag_condition').$type<{ tags: string[]; operator: 'AND' | 'OR' }>(),
    // A deleted advertiser leaves its campaigns without one (spec 2: deleting an advertiser is a plain delete).
    advertiserId: uuid('advertiser_id').references(() => advertisers.id, { onDelete: 'set null' }),
    playedAssetTeamAccessList: jsonb('played_asset_team_access_list').$type<{ teams: { id: string; readOnly: boolean }[] }>(),
    playMultipleItemsInSinglePlaybackSlot: boolean('play_multiple_items_in_single_playback_slot').notNull().default(false),
    playAllItemsInSinglePlaybackSlot: boolean('play_all_items_in_single_playback_slot').notNull().default(true),
    playbackSlotItemType: text('playback_slot_item_type', { enum: playbackSlotItemTypes }),
    playbackSlotDuration: integer('playback_slot_duration'),
    playbackSlotNumberOfElementsToPlay: integer('playback_slot_number_of_elements_to_play'),
    deviceSelectionMode: text('device_selection_mode', { enum: deviceSelectionModes }).notNull().default('DYNAMIC'),
    // No cascade: a quick filter used by a campaign cannot be deleted (spec 1 errors; quick-filter usages).
    contentQuickFilterId: uuid('content_quick_filter_id').references(() => quickFilters.id),
    fileQuickFilterId: uuid('file_quick_filter_id').references(() => quickFilters.id),
    deviceQuickFilterId: uuid('device_quick_filter_id').references(() => quickFilters.id),
    createdDate: at('created_date').notNull().defaultNow(),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    creatorEmail: text('creator_email'),
    creatorName: text('creator_name'),
    lastSaved: at('last_saved').notNull().defaultNow(),
    lastSavedById: uuid('last_saved_by_id').references(() => users.id, { onDelete: 'set null' }),
    lastSavedByEmail: text('last_saved_by_email'),
    lastSavedByName: text('last_saved_by_name'),
  },
  (t) => [
    index('campaign_customer_name_idx').on(t.customerId, t.name, t.id),
    index('campaign_customer_level_type_idx').on(t.customerId, t.level, t.type),
    index('campaign_customer_saved_idx').on(t.customerId, t.lastSaved, t.id),
    index('campaign_customer_advertiser_idx')
      .on(t.customerId, t.advertiserId)
      .where(sql`${t.advertiserId} is not null`),
    index('campaign_tags_gin_idx').using('gin', t.tags),
    // Quick-filter usages look campaigns up by the filter (usage details, the delete guard, readOnly).
    index('campaign_content_quick_filter_idx')
      .on(t.contentQuickFilterId)
      .where(sql`${t.contentQuickFilterId} is not null`),
    index('campaign_file_quick_filter_idx')
      .on(t.fileQuickFilterId)
      .where(sql`${t.fileQuickFilterId} is not null`),
    index('campaign_device_quick_filter_idx')
      .on(t.deviceQuickFilterId)
      .where(sql`${t.deviceQuickFilterId} is not null`),
  ],
);

export type CampaignRow = typeof campaigns.$inferSelect;

const campaignId = () =>
  bigint('campaign_id', { mode: 'number' })
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' });
const customerId = () =>
  bigint('customer_id', { mode: 'number' })
    .notNull()
    .references(() => customers.id, { onDelete: 'cascade' });

/*
 * Assignments: what a campaign plays (content, content folders, files, file folders, message groups) and
 * where (devices, device folders). One table per kind so each target has its real foreign key:
 * - content and content folders: no action (deleting one a campaign plays is refused, 409 `request.error.referenced`);
 * - files and file folders: cascade; a user's delete is refused first through the file reference registry
 *   (409 naming `campaign`), so only system removals (the cleanup of outdated files) drop assignments;
 * - devices and device folders: cascade (a removed screen or folder just stops being targeted);
 * - message groups: no action (a group a channel plays cannot be deleted, 409 `messageGroup.error.inUse`).
 * Each has `(customer_id, target)` and `(target)` indexes: usage details and delete guards look up by target.
 */

export const campaignContentAssignments = pgTable(
  'campaign_content_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    contentId: uuid('content_id')
      .notNull()
      .references(() => deviceContents.id),
    weight: integer('weight'),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.contentId] }),
    index('campaign_content_assignment_target_idx').on(t.customerId, t.contentId),
    index('campaign_content_assignment_content_idx').on(t.contentId),
  ],
);

export const campaignContentGroupAssignments = pgTable(
  'campaign_content_group_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    contentGroupId: uuid('content_group_id')
      .notNull()
      .references(() => contentGroups.id),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.contentGroupId] }),
    index('campaign_content_group_assignment_target_idx').on(t.customerId, t.contentGroupId),
    index('campaign_content_group_assignment_group_idx').on(t.contentGroupId),
  ],
);

export const campaignFileAssignments = pgTable(
  'campaign_file_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    weight: integer('weight'),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.fileId] }),
    index('campaign_file_assignment_target_idx').on(t.customerId, t.fileId),
    index('campaign_file_assignment_file_idx').on(t.fileId),
  ],
);

export const campaignFileFolderAssignments = pgTable(
  'campaign_file_folder_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    fileFolderId: uuid('file_folder_id')
      .notNull()
      .references(() => fileFolders.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.fileFolderId] }),
    index('campaign_file_folder_assignment_target_idx').on(t.customerId, t.fileFolderId),
    index('campaign_file_folder_assignment_folder_idx').on(t.fileFolderId),
  ],
);

export const campaignMessageGroupAssignments = pgTable(
  'campaign_message_group_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    // No action: a message group a channel plays cannot be deleted (409 messageGroup.error.inUse).
    messageGroupId: bigint('message_group_id', { mode: 'number' })
      .notNull()
      .references(() => messageGroups.id),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.messageGroupId] }),
    index('campaign_message_group_assignment_target_idx').on(t.customerId, t.messageGroupId),
    index('campaign_message_group_assignment_group_idx').on(t.messageGroupId),
  ],
);

export const campaignDeviceAssignments = pgTable(
  'campaign_device_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.deviceId] }),
    index('campaign_device_assignment_target_idx').on(t.customerId, t.deviceId),
    index('campaign_device_assignment_device_idx').on(t.deviceId),
  ],
);

export const campaignDeviceGroupAssignments = pgTable(
  'campaign_device_group_assignment',
  {
    campaignId: campaignId(),
    customerId: customerId(),
    deviceGroupId: uuid('device_group_id')
      .notNull()
      .references(() => deviceGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.deviceGroupId] }),
    index('campaign_device_group_assignment_target_idx').on(t.customerId, t.deviceGroupId),
    index('campaign_device_group_assignment_group_idx').on(t.deviceGroupId),
  ],
);

export const campaignAssignmentTables = [
  campaignContentAssignments,
  campaignContentGroupAssignments,
  campaignFileAssignments,
  campaignFileFolderAssignments,
  campaignMessageGroupAssignments,
  campaignDeviceAssignments,
  campaignDeviceGroupAssignments,
] as const;
