import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import {
  campaignDeviceAssignments,
  campaignDeviceGroupAssignments,
  campaignMessageGroupAssignments,
  campaigns,
} from '@/server/modules/campaigns/campaigns.table';
import { devices } from '@/server/modules/devices/devices.table';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { messageDeviceAssignments, messageDeviceGroupAssignments, messages } from '@/server/modules/messages/messages.table';
import { criteriaCondition } from '@/server/modules/quick-filters';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import type { CampaignHours, ScheduleIntervals, TagCondition, WorkingDays } from '@/server/playback/schedule-rules.schemas';
import type { CampaignRules, DeviceFacts, MessageRules, PlaybackRules } from '@/server/playback/resolver';
import type { PlaybackDevice } from './manifest.queries';
import {
  byOwner,
  campaignOwner,
  candidateContent,
  candidateFile,
  contentSource,
  fileSource,
  loadItems,
  messageOwner,
  type ContentItemRow,
  type FileItemRow,
  type OwnerRow,
} from './playback-items.queries';

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
  skipInvalidFiles: boolean;
};

/** The facts of `device` the resolver reads: its folder path, tags, teams and the device quick filters it matches. */
export async function loadDeviceFacts(db: Executor, device: PlaybackDevice): Promise<DeviceFacts> {
  return (await loadDevicesFacts(db, device.customerId, [device])).get(device.id)!;
}

/**
 * The facts of several devices of one tenant at once (the fan-out of a change to many screens): the device
 * rows carry their folders, tags and teams; the device quick filters they match are one statement however
 * many devices (two when the tenant targets by device quick filters).
 */
export async function loadDevicesFacts(
  db: Executor,
  customerId: number,
  playbackDevices: readonly PlaybackDevice[],
): Promise<Map<string, DeviceFacts>> {
  const quickFilterIds = await matchingDeviceQuickFilters(
    db,
    customerId,
    playbackDevices.map((d) => d.id),
  );

  return new Map(playbackDevices.map((device) => [device.id, deviceFacts(device, quickFilterIds.get(device.id) ?? [])]));
}

/** What the resolver knows of a device: its row and the device quick filters it matches. */
function deviceFacts(device: PlaybackDevice, quickFilterIds: readonly string[]): DeviceFacts {
  return {
    id: device.id,
    timeZone: device.timeZone,
    folderIds: device.folderIds,
    tags: device.tags,
    teamIds: device.teamIds,
    quickFilterIds,
    emergencyStatus: device.emergencyStatus,
    emergencyContent: device.emergencyContent,
    content: device.content,
  };
}

/** Per device of `deviceIds`, the device quick filters of the tenant's QUICK_FILTER campaigns and messages it matches (one statement, two with filters). */
async function matchingDeviceQuickFilters(db: Executor, customerId: number, deviceIds: readonly string[]): Promise<Map<string, string[]>> {
  const matches = new Map<string, string[]>();
  const filters = await execRows<{ id: string; criteria: unknown }>(
    db,
    sql`select distinct qf.id, qf.criteria from ${quickFilters} qf
         where qf.customer_id = ${customerId} and qf.filtered_entity_type = 'DEVICE' and qf.id in (
           select c.device_quick_filter_id from ${campaigns} c where c.customer_id = ${customerId} and c.device_selection_mode = 'QUICK_FILTER'
           union all select m.device_quick_filter_id from ${messages} m where m.customer_id = ${customerId} and m.device_selection_mode = 'QUICK_FILTER')`,
    { prepared: true },
  );
  if (filters.length === 0) return matches;
  const now = new Date();
  const checks = filters.map(
    (f) =>
      sql`select ${f.id}::text as id, ${devices.id}::text as "deviceId" from ${devices}
           where ${devices.id} = any(${uuidArrayParam(deviceIds)}) and ${devices.customerId} = ${customerId} and ${criteriaCondition('DEVICE', f.criteria, { customerId, now })}`,
  );
  for (const row of await execRows<{ id: string; deviceId: string }>(db, sql.join(checks, sql` union all `))) {
    const list = matches.get(row.deviceId) ?? [];
    list.push(row.id);
    matches.set(row.deviceId, list);
  }
  // The order the single-device read gave (filter order), so the facts do not depend on how they were read.
  const order = new Map(filters.map((f, i) => [f.id, i]));
  for (const list of matches.values()) list.sort((a, b) => order.get(a)! - order.get(b)!);

  return matches;
}

/**
 * What a campaign may target among some devices: the candidates the loader reads (the resolver then decides per
 * device). Every QUICK_FILTER campaign is a candidate, so the rules need not wait for the devices' quick-filter
 * matches: the two reads run side by side.
 */
export type PlaybackTargets = { deviceIds: readonly string[]; folderIds: readonly string[] };

/** The union of the devices' targets: the campaigns that can reach any of them. */
export function targetsOf(devices: Iterable<Pick<DeviceFacts, 'id' | 'folderIds'>>): PlaybackTargets {
  const deviceIds = new Set<string>();
  const folderIds = new Set<string>();
  for (const d of devices) {
    deviceIds.add(d.id);
    for (const id of d.folderIds) folderIds.add(id);
  }

  return { deviceIds: [...deviceIds], folderIds: [...folderIds] };
}

/**
 * The tenant's campaigns for the resolver: with `all`, every campaign (explain answers each one); otherwise
 * only those that can target one of the devices of `targets` (the resolver then applies every rule per device,
 * targeting, tag and team conditions included, so reading a superset changes nothing).
 */
export async function loadPlaybackRules(db: Executor, customerId: number, targets: PlaybackTargets | 'all'): Promise<PlaybackRules> {
  const candidates: SQL =
    targets === 'all'
      ? sql`true`
      : sql`(
        -- Found through the assignment indexes (and the partial index of quick-filter targeting), not by testing every campaign of the tenant.
        c.id = any(array(
          select a.campaign_id from ${campaignDeviceAssignments} a where a.device_id = any(${uuidArrayParam(targets.deviceIds)})
          union select a.campaign_id from ${campaignDeviceGroupAssignments} a where a.device_group_id = any(${uuidArrayParam(targets.folderIds)})
          union select q.id from ${campaigns} q where q.device_quick_filter_id is not null and q.device_selection_mode = 'QUICK_FILTER' and q.customer_id = ${customerId}))
        and ((c.device_selection_mode = 'STATIC' and exists (select 1 from ${campaignDeviceAssignments} a where a.campaign_id = c.id and a.device_id = any(${uuidArrayParam(targets.deviceIds)})))
          or (c.device_selection_mode = 'DYNAMIC' and exists (select 1 from ${campaignDeviceGroupAssignments} a where a.campaign_id = c.id and a.device_group_id = any(${uuidArrayParam(targets.folderIds)})))
          or (c.device_selection_mode = 'QUICK_FILTER' and c.device_quick_filter_id is not null)))`;
  const rows = await execRows<CampaignRow>(
    db,
    sql`select c.id::float8 as id, c.name, c.level, c.type, c.enabled, c.weight, c.saturation, c.tags, c.valid_from::text as "validFrom", c.valid_to::text as "validTo",
               c.duration, c.default_duration as "defaultDuration", c.content_shuffle_mode as "contentShuffleMode", c.ordering_mode as "orderingMode",
               c.affected_hours as "affectedHours", c.affected_days as "affectedDays", c.affected_date_ranges as "affectedDateRanges",
               c.device_tag_condition as "deviceTagCondition", c.content_tag_condition as "contentTagCondition", c.file_tag_condition as "fileTagCondition",
               array(select jsonb_array_elements(c.played_asset_team_access_list->'teams')->>'id' order by 1) as "playedAssetTeamIds",
               c.play_multiple_items_in_single_playback_slot as "playMultipleItemsInSinglePlaybackSlot", c.play_all_items_in_single_playback_slot as "playAllItemsInSinglePlaybackSlot",
               c.playback_slot_duration as "playbackSlotDuration", c.playback_slot_number_of_elements_to_play as "playbackSlotNumberOfElementsToPlay",
               c.device_selection_mode as "deviceSelectionMode", c.device_quick_filter_id::text as "deviceQuickFilterId",
               c.content_quick_filter_id::text as "contentQuickFilterId", c.file_quick_filter_id::text as "fileQuickFilterId", c.skip_invalid_files as "skipInvalidFiles",
               array(select a.device_id::text from ${campaignDeviceAssignments} a where a.campaign_id = c.id order by 1) as "deviceIds",
               array(select a.device_group_id::text from ${campaignDeviceGroupAssignments} a where a.campaign_id = c.id order by 1) as "deviceGroupIds",
               array(select ta.team_id::text from ${teamAssignments} ta where ta.resource_type = 'campaign' and ta.resource_id = c.id::text and ta.customer_id = c.customer_id order by 1) as "teamIds"
          from ${campaigns} c
         where c.customer_id = ${customerId} and ${candidates}
         order by c.id`,
    { prepared: true },
  );
  if (rows.length === 0) return { campaigns: [] };
  const ids = rows.map((r) => Number(r.id));
  const [contentItems, fileItems, groups] = await Promise.all([
    loadItems<ContentItemRow>(db, customerId, rows, ids, contentSource, campaignOwner),
    loadItems<FileItemRow>(db, customerId, rows, ids, fileSource, campaignOwner),
    // Only MESSAGE_GROUP channels play groups: none among them, no statement.
    loadMessageGroups(
      db,
      customerId,
      rows.filter((r) => r.type === 'MESSAGE_GROUP').map((r) => Number(r.id)),
    ),
  ]);

  const contentsBy = byOwner(contentItems);
  const filesBy = byOwner(fileItems);

  return {
    campaigns: rows.map((row) => campaignRules(row, contentsBy.get(Number(row.id)) ?? [], filesBy.get(Number(row.id)) ?? [], groups)),
  };
}

/** One campaign's rules from its row and its own item rows. */
function campaignRules(
  row: CampaignRow,
  contentItems: readonly ContentItemRow[],
  fileItems: readonly FileItemRow[],
  groups: ReadonlyMap<number, CampaignRules['messageGroups']>,
): CampaignRules {
  const id = Number(row.id);
  const contents = contentItems.map(candidateContent);
  const filesOf = fileItems.map(candidateFile);

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
    skipInvalidFiles: row.skipInvalidFiles,
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
export async function loadMessageGroups(
  db: Executor,
  customerId: number,
  ids: readonly number[],
): Promise<Map<number, CampaignRules['messageGroups']>> {
  if (ids.length === 0) return new Map();
  const rows = await execRows<{ campaignId: number; id: number; name: string; weight: number }>(
    db,
    sql`select a.campaign_id::float8 as "campaignId", g.id::float8 as id, g.name, g.weight
          from ${campaignMessageGroupAssignments} a join ${messageGroups} g on g.id = a.message_group_id and g.customer_id = ${customerId}
         where a.campaign_id = any(${bigintArrayParam(ids)})
         order by g.weight, g.id`,
    { prepared: true },
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
               array(select a.device_id::text from ${messageDeviceAssignments} a where a.message_id = m.id order by 1) as "deviceIds",
               array(select a.device_group_id::text from ${messageDeviceGroupAssignments} a where a.message_id = m.id order by 1) as "deviceGroupIds",
               array(select jsonb_array_elements(coalesce(m.team_access_list->'teams', '[]'::jsonb))->>'id' order by 1) as "teamIds"
          from ${messages} m
         where m.customer_id = ${customerId} and m.message_group_id = any(${bigintArrayParam(groupIds)})
         order by m.id`,
    { prepared: true },
  );
  const messageIds = messageRows.map((m) => Number(m.id));
  const [contentItems, fileItems] = await Promise.all([
    loadItems<ContentItemRow>(db, customerId, messageRows, messageIds, contentSource, messageOwner),
    loadItems<FileItemRow>(db, customerId, messageRows, messageIds, fileSource, messageOwner),
  ]);
  const contentsBy = byOwner(contentItems);
  const filesBy = byOwner(fileItems);
  const messagesOf = new Map<number, MessageRules[]>();
  for (const row of messageRows) {
    const list = messagesOf.get(Number(row.messageGroupId)) ?? [];
    list.push(messageRules(row, contentsBy.get(Number(row.id)) ?? [], filesBy.get(Number(row.id)) ?? []));
    messagesOf.set(Number(row.messageGroupId), list);
  }
  for (const row of rows) {
    const list = byCampaign.get(Number(row.campaignId)) ?? [];
    list.push({ id: Number(row.id), name: row.name, weight: row.weight, messages: messagesOf.get(Number(row.id)) ?? [] });
    byCampaign.set(Number(row.campaignId), list);
  }

  return byCampaign;
}

/** One message's rules from its row and its own item rows. */
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
    contents: [...new Map(contentItems.map((i) => [i.id, candidateContent(i)] as const)).values()],
    files: fileItems.map(candidateFile),
  };
}
