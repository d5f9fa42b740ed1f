import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import { deviceContents } from '@/server/modules/content/content.table';
import { files } from '@/server/modules/files/files.table';
import { devices } from '@/server/modules/devices/devices.table';
import { criteriaCondition } from '@/server/modules/quick-filters';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import {
  campaignContentAssignments,
  campaignContentGroupAssignments,
  campaignDeviceAssignments,
  campaignDeviceGroupAssignments,
  campaignFileAssignments,
  campaignFileFolderAssignments,
  campaignMessageGroupAssignments,
  campaigns,
} from './campaigns.table';

/**
 * Which screens a campaign targets (spec 4 §4 "Eligibility", the targeting rule), in SQL:
 * - STATIC: the assigned devices;
 * - DYNAMIC: devices in an assigned folder or below it (device paths hold every ancestor, the root included,
 *   so the root folder means every screen), whose tags satisfy `deviceTagCondition` (AND: all, OR: any; no
 *   condition or no tags: any device), and, when the campaign has teams (`teamAccessList`), that belong to
 *   one of them;
 * - QUICK_FILTER: the devices matching the device quick filter's criteria (compiled by the query compiler).
 * Every branch keeps to the campaign's own tenant.
 */

export type CampaignSelection = SQL | readonly number[];

function campaignFilter(customerId: number, selection: CampaignSelection): SQL {
  const ids = Array.isArray(selection) ? bigintArrayParam(selection as readonly number[]) : undefined;

  return sql`${campaigns.customerId} = ${customerId} and ${ids ? sql`${campaigns.id} = any(${ids})` : sql`${campaigns.id} in (${selection as SQL})`}`;
}

/** True (SQL) when the device row `d` satisfies the campaign's `deviceTagCondition`. */
function tagConditionHolds(): SQL {
  const tags = sql`array(select jsonb_array_elements_text(${campaigns.deviceTagCondition}->'tags'))`;

  return sql`(${campaigns.deviceTagCondition} is null or jsonb_array_length(coalesce(${campaigns.deviceTagCondition}->'tags', '[]'::jsonb)) = 0
    or (case when ${campaigns.deviceTagCondition}->>'operator' = 'AND' then ${devices.tags} @> ${tags} else ${devices.tags} && ${tags} end))`;
}

/** True (SQL) when the campaign has no teams, or the device shares one of them. */
function teamConditionHolds(): SQL {
  return sql`(not exists (select 1 from ${teamAssignments} ct where ct.resource_type = 'campaign' and ct.resource_id = ${campaigns.id}::text)
    or exists (select 1 from ${teamAssignments} ct join ${teamAssignments} dt on dt.team_id = ct.team_id and dt.resource_type = 'device' and dt.resource_id = ${devices.id}::text
      where ct.resource_type = 'campaign' and ct.resource_id = ${campaigns.id}::text))`;
}

/**
 * The targeting query: a SQL statement of `(campaign_id bigint, device_id uuid)` rows for the campaigns of
 * `customerId` in `campaignIds` (ids, or a SQL subquery of ids). Async only because QUICK_FILTER campaigns'
 * filters are read (one statement) and compiled first; the answer is then one set-based statement for any
 * number of campaigns. Used by `playerDevices`, `affectedScreenCount` and the manifest push on changes.
 */
export async function campaignTargetDevicesQuery(
  db: Executor,
  input: { customerId: number; campaignIds: CampaignSelection; now?: Date },
): Promise<SQL> {
  const { customerId } = input;
  const which = campaignFilter(customerId, input.campaignIds);
  const branches: SQL[] = [
    sql`select ${campaigns.id} as campaign_id, ${devices.id} as device_id from ${campaigns}
      join ${campaignDeviceAssignments} on ${campaignDeviceAssignments.campaignId} = ${campaigns.id}
      join ${devices} on ${devices.id} = ${campaignDeviceAssignments.deviceId} and ${devices.customerId} = ${campaigns.customerId}
      where ${which} and ${campaigns.deviceSelectionMode} = 'STATIC'`,
    // One folder at a time (`@>` of one id), so the device_group_path GIN index finds each folder's screens;
    // an overlap with the campaign's folders as a correlated array paired every campaign with every screen.
    sql`select ${campaigns.id} as campaign_id, ${devices.id} as device_id from ${campaigns}
      join ${campaignDeviceGroupAssignments} on ${campaignDeviceGroupAssignments.campaignId} = ${campaigns.id}
      join ${devices} on ${devices.customerId} = ${campaigns.customerId} and ${devices.groupPath} @> array[${campaignDeviceGroupAssignments.deviceGroupId}]
      where ${which} and ${campaigns.deviceSelectionMode} = 'DYNAMIC' and ${tagConditionHolds()} and ${teamConditionHolds()}`,
  ];
  const filters = await execRows<{ id: string; filtered_entity_type: string; criteria: unknown; customer_id: number }>(
    db,
    sql`select distinct ${quickFilters.id} as id, ${quickFilters.filteredEntityType} as filtered_entity_type, ${quickFilters.criteria} as criteria, ${quickFilters.customerId} as customer_id
      from ${campaigns} join ${quickFilters} on ${quickFilters.id} = ${campaigns.deviceQuickFilterId}
      where ${which} and ${campaigns.deviceSelectionMode} = 'QUICK_FILTER'`,
  );
  for (const filter of filters) {
    if (filter.filtered_entity_type !== 'DEVICE') continue;
    const condition = criteriaCondition('DEVICE', filter.criteria, {
      customerId: Number(filter.customer_id),
      now: input.now ?? new Date(),
    });
    branches.push(sql`select ${campaigns.id} as campaign_id, ${devices.id} as device_id from ${campaigns}
      join ${devices} on ${devices.customerId} = ${campaigns.customerId} and ${condition}
      where ${which} and ${campaigns.deviceSelectionMode} = 'QUICK_FILTER' and ${campaigns.deviceQuickFilterId} = ${filter.id}::uuid`);
  }

  return sql.join(branches, sql` union `);
}

/** `{id, name}` of the devices one campaign targets, narrowed by `visible` (the caller's team access to devices). */
export async function targetedDevices(
  db: Executor,
  input: { customerId: number; campaignId: number; visible?: SQL },
): Promise<{ id: string; name: string }[]> {
  const targets = await campaignTargetDevicesQuery(db, { customerId: input.customerId, campaignIds: [input.campaignId] });

  return db
    .select({ id: devices.id, name: devices.name })
    .from(devices)
    .where(and(eq(devices.customerId, input.customerId), sql`${devices.id} in (select t.device_id from (${targets}) t)`, input.visible))
    .orderBy(devices.name, devices.id);
}

/** How many screens each of `campaignIds` targets (absent: none); one statement. */
export async function affectedScreenCounts(db: Executor, customerId: number, campaignIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (campaignIds.length === 0) return counts;
  const targets = await campaignTargetDevicesQuery(db, { customerId, campaignIds });
  const rows = await execRows<{ campaign_id: number; n: number }>(
    db,
    sql`select t.campaign_id, count(distinct t.device_id)::int as n from (${targets}) t group by t.campaign_id`,
  );
  for (const row of rows) counts.set(Number(row.campaign_id), Number(row.n));

  return counts;
}

/** Which devices each of `campaignIds` targets, as pairs (one statement). */
export async function targetedDevicePairs(
  db: Executor,
  customerId: number,
  campaignIds: readonly number[],
): Promise<{ campaignId: number; deviceId: string }[]> {
  if (campaignIds.length === 0) return [];
  const targets = await campaignTargetDevicesQuery(db, { customerId, campaignIds });

  return execRows<{ campaignId: number; deviceId: string }>(
    db,
    sql`select t.campaign_id::float8 as "campaignId", t.device_id::text as "deviceId" from (${targets}) t order by 1, 2`,
  );
}

/** The ids of every device the campaigns target (for the manifest push before and after a change). */
export async function targetedDeviceIds(db: Executor, customerId: number, campaignIds: readonly number[]): Promise<string[]> {
  if (campaignIds.length === 0) return [];
  const targets = await campaignTargetDevicesQuery(db, { customerId, campaignIds });
  const rows = await execRows<{ device_id: string }>(db, sql`select distinct t.device_id from (${targets}) t`);

  return rows.map((r) => r.device_id);
}

/** The assignment tables through which a campaign or a message (`o`) plays content and files, and its id column in them. */
export type PlayedItemTables = { ownerColumn: string; content: PgTable; contentGroups: PgTable; files: PgTable; fileFolders: PgTable };

/**
 * True (SQL, over the owner row `o`) when the owner may play any of `contentIds` or `fileIds`: assigned
 * directly, inside an assigned folder's subtree (dynamic types; the tag condition is left to the resolver), or
 * possibly matched by a quick filter of their kind (any CONTENT_QUICK_FILTER owner for content,
 * ASSET_QUICK_FILTER for files: a changed item may start or stop matching). It may name an owner too many
 * (the screen's ETag decides), never too few.
 */
export function playsAnyOf(t: PlayedItemTables, customerId: number, contentIds: readonly string[], fileIds: readonly string[]): SQL {
  const content = uuidArrayParam(contentIds);
  const file = uuidArrayParam(fileIds);
  const owner = sql.raw(`a.${t.ownerColumn} = o.id`);

  return sql`(exists (select 1 from ${t.content} a where ${owner} and a.content_id = any(${content}))
      or exists (select 1 from ${t.files} a where ${owner} and a.file_id = any(${file}))
      or exists (select 1 from ${t.contentGroups} a join ${deviceContents} x on x.customer_id = ${customerId} and x.group_path @> array[a.content_group_id]
                  where ${owner} and x.id = any(${content}))
      or exists (select 1 from ${t.fileFolders} a join ${files} x on x.customer_id = ${customerId} and x.folder_path @> array[a.file_folder_id]
                  where ${owner} and x.id = any(${file}))
      or (o.type = 'CONTENT_QUICK_FILTER' and cardinality(${content}) > 0)
      or (o.type = 'ASSET_QUICK_FILTER' and cardinality(${file}) > 0))`;
}

const campaignItemTables: PlayedItemTables = {
  ownerColumn: 'campaign_id',
  content: campaignContentAssignments,
  contentGroups: campaignContentGroupAssignments,
  files: campaignFileAssignments,
  fileFolders: campaignFileFolderAssignments,
};

/** A subquery of the ids of the campaigns of `customerId` that may play any of `contentIds` or `fileIds` themselves (`playsAnyOf`). */
export function campaignsPlayingQuery(customerId: number, contentIds: readonly string[], fileIds: readonly string[]): SQL {
  return sql`select o.id from ${campaigns} o where o.customer_id = ${customerId} and ${playsAnyOf(campaignItemTables, customerId, contentIds, fileIds)}`;
}

/** The distinct time zones of the screens each of `campaignIds` targets (a screen without one counts as UTC, as in playback); one statement. */
export async function targetedTimeZones(db: Executor, customerId: number, campaignIds: readonly number[]): Promise<Map<number, string[]>> {
  const zones = new Map<number, string[]>();
  if (campaignIds.length === 0) return zones;
  const targets = await campaignTargetDevicesQuery(db, { customerId, campaignIds });
  const rows = await execRows<{ campaign_id: number; zones: string[] }>(
    db,
    sql`select t.campaign_id, array_agg(distinct coalesce(${devices.timeZone}, 'UTC')) as zones
      from (${targets}) t join ${devices} on ${devices.id} = t.device_id and ${devices.customerId} = ${customerId} group by t.campaign_id`,
  );
  for (const row of rows) zones.set(Number(row.campaign_id), row.zones);

  return zones;
}

/** The campaigns (channels) of `customerId` that play the message group `groupId`. */
async function campaignsOfGroup(db: Executor, customerId: number, groupId: number): Promise<number[]> {
  const rows = await execRows<{ id: number }>(
    db,
    sql`select ${campaignMessageGroupAssignments.campaignId} as id from ${campaignMessageGroupAssignments}
      where ${campaignMessageGroupAssignments.customerId} = ${customerId} and ${campaignMessageGroupAssignments.messageGroupId} = ${groupId}`,
  );

  return rows.map((r) => Number(r.id));
}

/** The screens that play the message group `groupId`: those its channels target (the message groups' `messageGroupScreens`). */
export async function screensOfMessageGroup(db: Executor, customerId: number, groupId: number): Promise<string[]> {
  return targetedDeviceIds(db, customerId, await campaignsOfGroup(db, customerId, groupId));
}
