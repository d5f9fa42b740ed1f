import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import {
  campaignContentAssignments,
  campaignContentGroupAssignments,
  campaignDeviceAssignments,
  campaignDeviceGroupAssignments,
  campaignFileAssignments,
  campaignFileFolderAssignments,
  campaignMessageGroupAssignments,
  campaigns,
} from '@/server/modules/campaigns/campaigns.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import {
  messageContentAssignments,
  messageContentGroupAssignments,
  messageDeviceAssignments,
  messageDeviceGroupAssignments,
  messageFileAssignments,
  messageFileFolderAssignments,
  messages,
} from '@/server/modules/messages/messages.table';
import { criteriaCondition } from '@/server/modules/quick-filters/quick-filter-criteria';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import type { CampaignHours, ScheduleIntervals, TagCondition, WorkingDays } from '@/server/playback/schedule-rules.schemas';
import type { CampaignRules, CandidateContent, CandidateFile, DeviceFacts, MessageRules, PlaybackRules } from '@/server/playback/resolver';
import type { PlaybackDevice } from './manifest.queries';

/*
 * The database side of the playback resolution (spec 4 §4): the device's facts and the tenant's campaigns
 * with their candidate items, as the pure resolver (server/playback) takes them. A fixed number of
 * statements per device, whatever the number of campaigns: the campaigns that can target the device are
 * chosen in SQL (STATIC assignment, an assigned folder on its path, a matching device quick filter), then
 * their assignments and items are read set-based for all of them at once.
 */

type CampaignRow = {
  id: number;
  name: string;
  level: 'WIDGET' | 'TOP';
  type: string;
  enabled: boolean;
  weight: number | null;
  saturation: number | null;
  tags: string[];
  validFrom: string | null;
  validTo: string | null;
  duration: number | null;
  defaultDuration: number | null;
  contentShuffleMode: 'BALANCED' | 'SERIAL' | null;
  orderingMode: 'DEFAULT' | 'ALPHABET' | 'RANDOM' | null;
  affectedHours: CampaignHours | null;
  affectedDays: WorkingDays | null;
  affectedDateRanges: ScheduleIntervals | null;
  deviceTagCondition: TagCondition | null;
  contentTagCondition: TagCondition | null;
  fileTagCondition: TagCondition | null;
  playedAssetTeamIds: string[] | null;
  playMultipleItemsInSinglePlaybackSlot: boolean;
  playAllItemsInSinglePlaybackSlot: boolean;
  playbackSlotDuration: number | null;
  playbackSlotNumberOfElementsToPlay: number | null;
  deviceSelectionMode: 'STATIC' | 'DYNAMIC' | 'QUICK_FILTER';
  deviceQuickFilterId: string | null;
  contentQuickFilterId: string | null;
  fileQuickFilterId: string | null;
  deviceIds: string[];
  deviceGroupIds: string[];
  teamIds: string[];
};

type ItemRow = { ownerId: number; id: string; name: string; weight: number | null };
type FileItemRow = ItemRow & { contentType: string; durationSeconds: string | null; validFrom: number | null; validTo: number | null };
type ContentItemRow = ItemRow & { deviceContentType: 'content' | 'simpleLoop'; pageCount: number };


/** The facts of `device` the resolver reads: its folder path, tags, teams and the device quick filters it matches. */
export async function loadDeviceFacts(db: Executor, device: PlaybackDevice): Promise<DeviceFacts> {
  const [row] = await execRows<{ folderIds: string[]; tags: string[]; teamIds: string[] }>(
    db,
    sql`select ${devices.groupPath}::text[] as "folderIds", ${devices.tags} as tags,
               array(select ta.team_id::text from ${teamAssignments} ta where ta.resource_type = 'device' and ta.resource_id = ${devices.id}::text and ta.customer_id = ${devices.customerId}) as "teamIds"
          from ${devices} where ${devices.id} = ${device.id}::uuid and ${devices.customerId} = ${device.customerId}`,
  );

  return {
    id: device.id,
    timeZone: device.timeZone,
    folderIds: row?.folderIds ?? [],
    tags: row?.tags ?? [],
    teamIds: row?.teamIds ?? [],
    quickFilterIds: await matchingDeviceQuickFilters(db, device),
    emergencyStatus: device.emergencyStatus,
    emergencyContent: device.emergencyContent,
    content: device.content,
  };
}

/** The device quick filters of the tenant's QUICK_FILTER campaigns and messages that `device` matches (one statement). */
async function matchingDeviceQuickFilters(db: Executor, device: PlaybackDevice): Promise<string[]> {
  const filters = await execRows<{ id: string; criteria: unknown }>(
    db,
    sql`select distinct qf.id, qf.criteria from ${quickFilters} qf
         where qf.customer_id = ${device.customerId} and qf.filtered_entity_type = 'DEVICE' and qf.id in (
           select c.device_quick_filter_id from ${campaigns} c where c.customer_id = ${device.customerId} and c.device_selection_mode = 'QUICK_FILTER'
           union all select m.device_quick_filter_id from ${messages} m where m.customer_id = ${device.customerId} and m.device_selection_mode = 'QUICK_FILTER')`,
  );
  if (filters.length === 0) return [];
  const now = new Date();
  const checks = filters.map(
    (f) => sql`select ${f.id}::text as id where exists (select 1 from ${devices} where ${devices.id} = ${device.id}::uuid and ${devices.customerId} = ${device.customerId} and ${criteriaCondition('DEVICE', f.criteria, { customerId: device.customerId, now })})`,
  );
  const rows = await execRows<{ id: string }>(db, sql.join(checks, sql` union all `));

  return rows.map((r) => r.id);
}

/**
 * The tenant's campaigns for the resolver: with `all`, every campaign (explain answers each one); otherwise
 * only those that can target the device (the resolver then applies every rule, tag and team conditions included).
 */
export async function loadPlaybackRules(db: Executor, device: PlaybackDevice, facts: DeviceFacts, options: { all: boolean }): Promise<PlaybackRules> {
  const customerId = device.customerId;
  const candidates: SQL = options.all
    ? sql`true`
    : sql`(
        (c.device_selection_mode = 'STATIC' and exists (select 1 from ${campaignDeviceAssignments} a where a.campaign_id = c.id and a.device_id = ${device.id}::uuid))
        or (c.device_selection_mode = 'DYNAMIC' and exists (select 1 from ${campaignDeviceGroupAssignments} a where a.campaign_id = c.id and a.device_group_id = any(${uuidArrayParam(facts.folderIds)})))
        or (c.device_selection_mode = 'QUICK_FILTER' and c.device_quick_filter_id = any(${uuidArrayParam(facts.quickFilterIds)})))`;
  const rows = await execRows<CampaignRow>(
    db,
    sql`select c.id::float8 as id, c.name, c.level, c.type, c.enabled, c.weight, c.saturation, c.tags, c.valid_from::text as "validFrom", c.valid_to::text as "validTo",
               c.duration, c.default_duration as "defaultDuration", c.content_shuffle_mode as "contentShuffleMode", c.ordering_mode as "orderingMode",
               c.affected_hours as "affectedHours", c.affected_days as "affectedDays", c.affected_date_ranges as "affectedDateRanges",
               c.device_tag_condition as "deviceTagCondition", c.content_tag_condition as "contentTagCondition", c.file_tag_condition as "fileTagCondition",
               array(select jsonb_array_elements(c.played_asset_team_access_list->'teams')->>'id') as "playedAssetTeamIds",
               c.play_multiple_items_in_single_playback_slot as "playMultipleItemsInSinglePlaybackSlot", c.play_all_items_in_single_playback_slot as "playAllItemsInSinglePlaybackSlot",
               c.playback_slot_duration as "playbackSlotDuration", c.playback_slot_number_of_elements_to_play as "playbackSlotNumberOfElementsToPlay",
               c.device_selection_mode as "deviceSelectionMode", c.device_quick_filter_id::text as "deviceQuickFilterId",
               c.content_quick_filter_id::text as "contentQuickFilterId", c.file_quick_filter_id::text as "fileQuickFilterId",
               array(select a.device_id::text from ${campaignDeviceAssignments} a where a.campaign_id = c.id) as "deviceIds",
               array(select a.device_group_id::text from ${campaignDeviceGroupAssignments} a where a.campaign_id = c.id) as "deviceGroupIds",
               array(select ta.team_id::text from ${teamAssignments} ta where ta.resource_type = 'campaign' and ta.resource_id = c.id::text and ta.customer_id = c.customer_id) as "teamIds"
          from ${campaigns} c
         where c.customer_id = ${customerId} and ${candidates}
         order by c.id`,
  );
  if (rows.length === 0) return { campaigns: [] };
  const ids = rows.map((r) => Number(r.id));
  const [contentItems, fileItems, groups] = await Promise.all([
    loadItems<ContentItemRow>(db, customerId, rows, ids, contentSource, campaignOwner),
    loadItems<FileItemRow>(db, customerId, rows, ids, fileSource, campaignOwner),
    loadMessageGroups(db, customerId, ids),
  ]);

  return { campaigns: rows.map((row) => campaignRules(row, contentItems, fileItems, groups)) };
}

function campaignRules(row: CampaignRow, contentItems: readonly ContentItemRow[], fileItems: readonly FileItemRow[], groups: ReadonlyMap<number, CampaignRules['messageGroups']>): CampaignRules {
  const id = Number(row.id);
  const contents = contentItems.filter((i) => Number(i.ownerId) === id).map(candidateContent);
  const filesOf = fileItems.filter((i) => Number(i.ownerId) === id).map(candidateFile);

  return {
    id,
    name: row.name,
    level: row.level,
    weight: row.weight ?? 0,
    saturation: row.saturation,
    tags: row.tags,
    ...sharedRules(row),
    affectedDays: row.affectedDays,
    affectedHours: row.affectedHours,
    durationS: row.duration,
    files: filesOf,
    contents,
    messageGroups: groups.get(id) ?? [],
    playMultipleItemsInSinglePlaybackSlot: row.playMultipleItemsInSinglePlaybackSlot,
    playAllItemsInSinglePlaybackSlot: row.playAllItemsInSinglePlaybackSlot,
    playbackSlotNumberOfElementsToPlay: row.playbackSlotNumberOfElementsToPlay,
    playbackSlotDuration: row.playbackSlotDuration,
  };
}

/** The time rules, targeting and play rules a campaign row and a message row carry alike. */
function sharedRules(row: CampaignRow | MessageRow) {
  return {
    enabled: row.enabled,
    validFrom: row.validFrom,
    validTo: row.validTo,
    affectedDateRanges: row.affectedDateRanges,
    deviceSelectionMode: row.deviceSelectionMode,
    deviceIds: row.deviceIds,
    deviceGroupIds: row.deviceGroupIds,
    deviceTagCondition: row.deviceTagCondition,
    teamIds: row.teamIds,
    deviceQuickFilterId: row.deviceQuickFilterId,
    orderingMode: row.orderingMode,
    contentShuffleMode: row.contentShuffleMode,
    defaultDurationS: row.defaultDuration,
  };
}

function candidateContent(row: ContentItemRow): CandidateContent {
  return { id: row.id, name: row.name, deviceContentType: row.deviceContentType, pageCount: Math.max(1, Number(row.pageCount) || 1), weight: row.weight ?? 0 };
}

function candidateFile(row: FileItemRow): CandidateFile {
  const seconds = Number(row.durationSeconds);
  const kind = row.contentType.startsWith('image/') ? 'image' : row.contentType.startsWith('video/') ? 'video' : 'other';

  return {
    id: row.id,
    name: row.name,
    kind,
    durationMs: row.durationSeconds !== null && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null,
    validFrom: row.validFrom,
    validTo: row.validTo,
    weight: row.weight ?? 0,
  };
}

/** True (SQL, over the item alias `x`) when the tag condition holds for the item's tags; no condition: true. */
function tagCondition(column: string, condition: SQL): SQL {
  return sql`(${condition} is null or jsonb_array_length(coalesce(${condition}->'tags', '[]'::jsonb)) = 0
    or (case when ${condition}->>'operator' = 'AND' then ${sql.raw(column)} @> array(select jsonb_array_elements_text(${condition}->'tags'))
             else ${sql.raw(column)} && array(select jsonb_array_elements_text(${condition}->'tags')) end))`;
}

/** True (SQL) when the campaign names no played-asset teams or the item belongs to one of them (messages have none). */
function playedAssetTeams(owner: ItemOwner, resourceType: string, idColumn: string): SQL {
  if (!owner.playedAssetTeams) return sql`true`;

  return sql`(c.played_asset_team_access_list is null or jsonb_array_length(coalesce(c.played_asset_team_access_list->'teams', '[]'::jsonb)) = 0
    or exists (select 1 from ${teamAssignments} ta where ta.resource_type = ${resourceType} and ta.resource_id = ${sql.raw(idColumn)}::text
                 and ta.team_id::text in (select jsonb_array_elements(c.played_asset_team_access_list->'teams')->>'id')))`;
}

const pageCountOf = sql.raw(`case when x.device_content_type = 'simpleLoop' then jsonb_array_length(coalesce(x.data->'slides', '[]'::jsonb)) else jsonb_array_length(coalesce(x.data->'pages', '[]'::jsonb)) end`);

/** Who plays items: campaigns or messages (alias `c`), the id column of their assignment tables, and those tables. */
type ItemOwner = {
  table: typeof campaigns | typeof messages;
  column: 'campaign_id' | 'message_id';
  playedAssetTeams: boolean;
  contentAssignments: typeof campaignContentAssignments | typeof messageContentAssignments;
  contentFolders: typeof campaignContentGroupAssignments | typeof messageContentGroupAssignments;
  fileAssignments: typeof campaignFileAssignments | typeof messageFileAssignments;
  fileFolders: typeof campaignFileFolderAssignments | typeof messageFileFolderAssignments;
};

const campaignOwner: ItemOwner = {
  table: campaigns,
  column: 'campaign_id',
  playedAssetTeams: true,
  contentAssignments: campaignContentAssignments,
  contentFolders: campaignContentGroupAssignments,
  fileAssignments: campaignFileAssignments,
  fileFolders: campaignFileFolderAssignments,
};

const messageOwner: ItemOwner = {
  table: messages,
  column: 'message_id',
  playedAssetTeams: false,
  contentAssignments: messageContentAssignments,
  contentFolders: messageContentGroupAssignments,
  fileAssignments: messageFileAssignments,
  fileFolders: messageFileFolderAssignments,
};

/** Where one kind of item (content or files) comes from, for `loadItems`. */
type ItemSource = {
  table: typeof deviceContents | typeof files;
  /** The item columns selected from alias `x`. */
  select: SQL;
  /** Static assignments (`a`): the owner's table and its item id column name. */
  assignments: { table: (owner: ItemOwner) => ItemOwner['contentAssignments'] | ItemOwner['fileAssignments']; itemColumn: string };
  /** Folder assignments (`g`) of the dynamic type: the owner's table, its folder column and the item's path column. */
  folders: { table: (owner: ItemOwner) => ItemOwner['contentFolders'] | ItemOwner['fileFolders']; folderColumn: string; itemPath: string; type: string; tagCondition: string };
  /** An item column of the owner row itself (a message's `contentId`), when it has one. */
  ownColumn?: string;
  teamResource: 'deviceContent' | 'file';
  quickFilter: { type: string; entity: 'CONTENT' | 'FILE'; idOf: (row: OwnerRow) => string | null };
};

/** What `loadItems` reads of a campaign or message row. */
type OwnerRow = { id: number; type: string; contentQuickFilterId: string | null; fileQuickFilterId: string | null };

/**
 * The items each campaign or message plays, of one kind: assigned (static), in an assigned folder or below
 * (the dynamic type, with its tag condition and a campaign's played-asset teams), or matching its quick
 * filter; one statement for all the owners.
 */
async function loadItems<T>(db: Executor, customerId: number, rows: readonly OwnerRow[], ids: readonly number[], source: ItemSource, owner: ItemOwner): Promise<T[]> {
  if (ids.length === 0) return [];
  const { select, assignments, folders } = source;
  const ownerIds = bigintArrayParam(ids);
  const branches: SQL[] = [
    sql`select a.${sql.raw(owner.column)}::float8 as "ownerId", a.weight, ${select}
          from ${assignments.table(owner)} a join ${source.table} x on x.id = a.${sql.raw(assignments.itemColumn)} and x.customer_id = ${customerId}
         where a.${sql.raw(owner.column)} = any(${ownerIds})`,
    sql`select c.id::float8 as "ownerId", 0 as weight, ${select}
          from ${owner.table} c join ${source.table} x on x.customer_id = c.customer_id
           and x.${sql.raw(folders.itemPath)} && array(select g.${sql.raw(folders.folderColumn)} from ${folders.table(owner)} g where g.${sql.raw(owner.column)} = c.id)
         where c.id = any(${ownerIds}) and c.type = ${folders.type} and ${tagCondition('x.tags', sql.raw(`c.${folders.tagCondition}`))} and ${playedAssetTeams(owner, source.teamResource, 'x.id')}`,
  ];
  if (source.ownColumn && owner === messageOwner) {
    branches.push(sql`select c.id::float8 as "ownerId", 0 as weight, ${select}
          from ${owner.table} c join ${source.table} x on x.id = c.${sql.raw(source.ownColumn)} and x.customer_id = c.customer_id
         where c.id = any(${ownerIds})`);
  }
  const now = new Date();
  for (const row of rows) {
    const filterId = source.quickFilter.idOf(row);
    if (row.type !== source.quickFilter.type || !filterId) continue;
    const criteria = await quickFilterCriteria(db, customerId, filterId, source.quickFilter.entity);
    if (!criteria) continue;
    branches.push(sql`select ${Number(row.id)}::float8 as "ownerId", 0 as weight, ${select}
          from ${source.table} x where x.customer_id = ${customerId} and ${criteriaCondition(source.quickFilter.entity, criteria, { customerId, now })}`);
  }

  return execRows<T & Record<string, unknown>>(db, sql.join(branches, sql` union all `));
}

const contentSource: ItemSource = {
  table: deviceContents,
  select: sql`x.id::text as id, x.name, x.device_content_type as "deviceContentType", ${pageCountOf} as "pageCount"`,
  assignments: { table: (owner) => owner.contentAssignments, itemColumn: 'content_id' },
  folders: { table: (owner) => owner.contentFolders, folderColumn: 'content_group_id', itemPath: 'group_path', type: 'CONTENT_DYNAMIC', tagCondition: 'content_tag_condition' },
  ownColumn: 'content_id',
  teamResource: 'deviceContent',
  quickFilter: { type: 'CONTENT_QUICK_FILTER', entity: 'CONTENT', idOf: (row) => row.contentQuickFilterId },
};

const fileSource: ItemSource = {
  table: files,
  select: sql`x.id::text as id, x.name, x.content_type as "contentType", x.meta_data->>'duration' as "durationSeconds",
    floor(extract(epoch from x.valid_from) * 1000)::float8 as "validFrom", floor(extract(epoch from x.valid_to) * 1000)::float8 as "validTo"`,
  assignments: { table: (owner) => owner.fileAssignments, itemColumn: 'file_id' },
  folders: { table: (owner) => owner.fileFolders, folderColumn: 'file_folder_id', itemPath: 'folder_path', type: 'ASSETS_DYNAMIC', tagCondition: 'file_tag_condition' },
  teamResource: 'file',
  quickFilter: { type: 'ASSET_QUICK_FILTER', entity: 'FILE', idOf: (row) => row.fileQuickFilterId },
};

async function quickFilterCriteria(db: Executor, customerId: number, id: string, type: 'CONTENT' | 'FILE'): Promise<unknown> {
  const [row] = await execRows<{ criteria: unknown }>(
    db,
    sql`select criteria from ${quickFilters} where id = ${id}::uuid and customer_id = ${customerId} and filtered_entity_type = ${type}`,
  );

  return row?.criteria;
}

type MessageRow = OwnerRow & {
  messageGroupId: number;
  name: string;
  enabled: boolean;
  weight: number | null;
  saturation: number | null;
  isPlayedElementsCappedByItemCount: boolean;
  validFrom: string | null;
  validTo: string | null;
  defaultDuration: number | null;
  contentShuffleMode: 'BALANCED' | 'SERIAL' | null;
  orderingMode: 'DEFAULT' | 'ALPHABET' | 'RANDOM' | null;
  affectedDateRanges: ScheduleIntervals | null;
  deviceSelectionMode: 'STATIC' | 'DYNAMIC' | 'QUICK_FILTER';
  deviceTagCondition: TagCondition | null;
  deviceQuickFilterId: string | null;
  deviceIds: string[];
  deviceGroupIds: string[];
  teamIds: string[];
};

/**
 * The message groups each MESSAGE_GROUP campaign plays, with their messages (targeting, time rules) and each
 * message's candidate items: a fixed number of statements (groups, messages, content items, file items, plus
 * one per quick filter a message plays), whatever the number of messages.
 */
async function loadMessageGroups(db: Executor, customerId: number, ids: readonly number[]): Promise<Map<number, CampaignRules['messageGroups']>> {
  const rows = await execRows<{ campaignId: number; id: number; name: string; weight: number }>(
    db,
    sql`select a.campaign_id::float8 as "campaignId", g.id::float8 as id, g.name, g.weight
          from ${campaignMessageGroupAssignments} a join ${messageGroups} g on g.id = a.message_group_id and g.customer_id = ${customerId}
         where a.campaign_id = any(${bigintArrayParam(ids)})
         order by g.weight, g.id`,
  );
  const byCampaign = new Map<number, NonNullable<CampaignRules['messageGroups']>[number][]>();
  if (rows.length === 0) return byCampaign;
  const groupIds = [...new Set(rows.map((r) => Number(r.id)))];
  const messageRows = await execRows<MessageRow>(
    db,
    sql`select m.id::float8 as id, m.message_group_id::float8 as "messageGroupId", m.name, m.type, m.enabled, m.weight, m.saturation,
               m.is_played_elements_capped_by_item_count as "isPlayedElementsCappedByItemCount", m.valid_from::text as "validFrom", m.valid_to::text as "validTo",
               m.default_duration as "defaultDuration", m.content_shuffle_mode as "contentShuffleMode", m.ordering_mode as "orderingMode",
               m.affected_date_ranges as "affectedDateRanges", m.device_selection_mode as "deviceSelectionMode", m.device_tag_condition as "deviceTagCondition",
               m.device_quick_filter_id::text as "deviceQuickFilterId", m.content_quick_filter_id::text as "contentQuickFilterId", m.file_quick_filter_id::text as "fileQuickFilterId",
               array(select a.device_id::text from ${messageDeviceAssignments} a where a.message_id = m.id) as "deviceIds",
               array(select a.device_group_id::text from ${messageDeviceGroupAssignments} a where a.message_id = m.id) as "deviceGroupIds",
               array(select jsonb_array_elements(coalesce(m.team_access_list->'teams', '[]'::jsonb))->>'id') as "teamIds"
          from ${messages} m
         where m.customer_id = ${customerId} and m.message_group_id = any(${bigintArrayParam(groupIds)})
         order by m.id`,
  );
  const messageIds = messageRows.map((m) => Number(m.id));
  const [contentItems, fileItems] = await Promise.all([
    loadItems<ContentItemRow>(db, customerId, messageRows, messageIds, contentSource, messageOwner),
    loadItems<FileItemRow>(db, customerId, messageRows, messageIds, fileSource, messageOwner),
  ]);
  const messagesOf = new Map<number, MessageRules[]>();
  for (const row of messageRows) {
    const list = messagesOf.get(Number(row.messageGroupId)) ?? [];
    list.push(messageRules(row, contentItems, fileItems));
    messagesOf.set(Number(row.messageGroupId), list);
  }
  for (const row of rows) {
    const list = byCampaign.get(Number(row.campaignId)) ?? [];
    list.push({ id: Number(row.id), name: row.name, weight: row.weight, messages: messagesOf.get(Number(row.id)) ?? [] });
    byCampaign.set(Number(row.campaignId), list);
  }

  return byCampaign;
}

function messageRules(row: MessageRow, contentItems: readonly ContentItemRow[], fileItems: readonly FileItemRow[]): MessageRules {
  const id = Number(row.id);

  return {
    id,
    name: row.name,
    weight: row.weight ?? 0,
    ...sharedRules(row),
    saturation: row.saturation,
    isPlayedElementsCappedByItemCount: row.isPlayedElementsCappedByItemCount,
    // A content item named both as `contentId` and in `contentAssignment` plays once.
    contents: [...new Map(contentItems.filter((i) => Number(i.ownerId) === id).map((i) => [i.id, candidateContent(i)] as const)).values()],
    files: fileItems.filter((i) => Number(i.ownerId) === id).map(candidateFile),
  };
}
