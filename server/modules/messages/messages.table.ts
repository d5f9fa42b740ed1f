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
import { contentShuffleModes, deviceSelectionModes, orderingModes } from '@/server/modules/campaigns/campaigns.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';

/** What a message (sub-channel) plays: the campaign types but MESSAGE_GROUP (spec 2 "Message"). */
export const messageTypes = [
  'CONTENT',
  'CONTENT_DYNAMIC',
  'ASSETS_STATIC',
  'ASSETS_DYNAMIC',
  'CONTENT_QUICK_FILTER',
  'ASSET_QUICK_FILTER',
] as const;

type TagCondition = { tags: string[]; operator: 'AND' | 'OR' };
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A sub-channel of a message group (spec 2 "Message group and message"). Deleting its group deletes it
 * (cascade). Its device targeting and what it plays are the campaigns' fields and assignment kinds
 * (campaign-assignments.ts `describeAssignments`); `teamAccessList` only narrows its DYNAMIC screens (who
 * sees and edits a message is decided by its group's teams). `contentId`: the content of a CONTENT message.
 */
export const messages = pgTable(
  'message',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    messageGroupId: bigint('message_group_id', { mode: 'number' })
      .notNull()
      .references(() => messageGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: messageTypes }).notNull(),
    version: text('version').notNull().default('2.0'),
    enabled: boolean('enabled').notNull().default(true),
    weight: integer('weight'),
    saturation: doublePrecision('saturation'),
    isPlayedElementsCappedByItemCount: boolean('is_played_elements_capped_by_item_count').notNull().default(true),
    // No action: content a sub-channel plays cannot be deleted (409 request.error.referenced).
    contentId: uuid('content_id').references(() => deviceContents.id),
    contentShuffleMode: text('content_shuffle_mode', { enum: contentShuffleModes }),
    orderingMode: text('ordering_mode', { enum: orderingModes }),
    skipDefaultPage: boolean('skip_default_page').notNull().default(false),
    defaultDuration: integer('default_duration').notNull().default(10),
    affectedDateRanges: jsonb('affected_date_ranges').$type<Record<string, unknown>>(),
    validFrom: date('valid_from', { mode: 'string' }),
    validTo: date('valid_to', { mode: 'string' }),
    deviceSelectionMode: text('device_selection_mode', { enum: deviceSelectionModes }).notNull().default('DYNAMIC'),
    deviceTagCondition: jsonb('device_tag_condition').$type<TagCondition>(),
    contentTagCondition: jsonb('content_tag_condition').$type<TagCondition>(),
    fileTagCondition: jsonb('file_tag_condition').$type<TagCondition>(),
    teamAccessList: jsonb('team_access_list').$type<{ teams: { id: string; readOnly: boolean }[] }>(),
    // No action: a quick filter a sub-channel uses cannot be deleted (quick-filter usages).
    contentQuickFilterId: uuid('content_quick_filter_id').references(() => quickFilters.id),
    fileQuickFilterId: uuid('file_quick_filter_id').references(() => quickFilters.id),
    deviceQuickFilterId: uuid('device_quick_filter_id').references(() => quickFilters.id),
    createdDate: at('created_date').notNull().defaultNow(),
    creatorEmail: text('creator_email'),
    lastSaved: at('last_saved').notNull().defaultNow(),
    lastSavedByEmail: text('last_saved_by_email'),
  },
  (t) => [
    index('message_customer_group_idx').on(t.customerId, t.messageGroupId, t.weight, t.id),
    index('message_customer_name_idx').on(t.customerId, t.name, t.id),
    index('message_group_idx').on(t.messageGroupId),
    index('message_content_idx')
      .on(t.contentId)
      .where(sql`${t.contentId} is not null`),
    index('message_content_quick_filter_idx')
      .on(t.contentQuickFilterId)
      .where(sql`${t.contentQuickFilterId} is not null`),
    index('message_file_quick_filter_idx')
      .on(t.fileQuickFilterId)
      .where(sql`${t.fileQuickFilterId} is not null`),
    index('message_device_quick_filter_idx')
      .on(t.deviceQuickFilterId)
      .where(sql`${t.deviceQuickFilterId} is not null`),
  ],
);

export type MessageRow = typeof messages.$inferSelect;

const messageId = () =>
  bigint('message_id', { mode: 'number' })
    .notNull()
    .references(() => messages.id, { onDelete: 'cascade' });
const customerId = () =>
  bigint('customer_id', { mode: 'number' })
    .notNull()
    .references(() => customers.id, { onDelete: 'cascade' });

/* What a message plays and where: the campaigns' assignment tables with a message as owner, the same foreign-key policies. */

export const messageContentAssignments = pgTable(
  'message_content_assignment',
  {
    messageId: messageId(),
    customerId: customerId(),
    contentId: uuid('content_id')
      .notNull()
      .references(() => deviceContents.id),
    weight: integer('weight'),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.contentId] }),
    index('message_content_assignment_target_idx').on(t.customerId, t.contentId),
    index('message_content_assignment_content_idx').on(t.contentId),
  ],
);

export const messageContentGroupAssignments = pgTable(
  'message_content_group_assignment',
  {
    messageId: messageId(),
    customerId: customerId(),
    contentGroupId: uuid('content_group_id')
      .notNull()
      .references(() => contentGroups.id),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.contentGroupId] }),
    index('message_content_group_assignment_target_idx').on(t.customerId, t.contentGroupId),
    index('message_content_group_assignment_group_idx').on(t.contentGroupId),
  ],
);

export const messageFileAssignments = pgTable(
  'message_file_assignment',
  {
    messageId: messageId(),
    customerId: customerId(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    weight: integer('weight'),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.fileId] }),
    index('message_file_assignment_target_idx').on(t.customerId, t.fileId),
    index('message_file_assignment_file_idx').on(t.fileId),
  ],
);

export const messageFileFolderAssignments = pgTable(
  'message_file_folder_assignment',
  {
    messageId: messageId(),
    customerId: customerId(),
    fileFolderId: uuid('file_folder_id')
      .notNull()
      .references(() => fileFolders.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.fileFolderId] }),
    index('message_file_folder_assignment_target_idx').on(t.customerId, t.fileFolderId),
    index('message_file_folder_assignment_folder_idx').on(t.fileFolderId),
  ],
);

export const messageDeviceAssignments = pgTable(
  'message_device_assignment',
  {
    messageId: messageId(),
    customerId: customerId(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.deviceId] }),
    index('message_device_assignment_target_idx').on(t.customerId, t.deviceId),
    index('message_device_assignment_device_idx').on(t.deviceId),
  ],
);

export const messageDeviceGroupAssignments = pgTable(
  'message_device_group_assignment',
  {
    messageId: messageId(),
    customerId: customerId(),
    deviceGroupId: uuid('device_group_id')
      .notNull()
      .references(() => deviceGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.deviceGroupId] }),
    index('message_device_group_assignment_target_idx').on(t.customerId, t.deviceGroupId),
    index('message_device_group_assignment_group_idx').on(t.deviceGroupId),
  ],
);

export const messageAssignmentTables = [
  messageContentAssignments,
  messageContentGroupAssignments,
  messageFileAssignments,
  messageFileFolderAssignments,
  messageDeviceAssignments,
  messageDeviceGroupAssignments,
] as const;
