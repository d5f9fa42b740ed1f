import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { bigintArrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import {
  campaignContentAssignments,
  campaignContentGroupAssignments,
  campaignFileAssignments,
  campaignFileFolderAssignments,
  campaigns,
} from '@/server/modules/campaigns/campaigns.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { files } from '@/server/modules/files/files.table';
import {
  messageContentAssignments,
  messageContentGroupAssignments,
  messageFileAssignments,
  messageFileFolderAssignments,
  messages,
} from '@/server/modules/messages/messages.table';
import { criteriaCondition } from '@/server/modules/quick-filters';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import type { CandidateContent, CandidateFile } from '@/server/playback/resolver';

/*
 * What campaigns and messages play, read for the playback rules loader (playback-rules.queries.ts): the
 * candidate content and files of many owners at once, one statement per kind of item.
 */

type ItemRow = { ownerId: number; id: string; name: string; weight: number | null };
export type FileItemRow = ItemRow & {
  contentType: string;
  durationSeconds: string | null;
  validFrom: number | null;
  validTo: number | null;
};
export type ContentItemRow = ItemRow & { deviceContentType: 'content' | 'simpleLoop'; pageCount: number };

/** Item rows by their owner (campaign or message) in one pass: the rows arrive for every owner at once. */
export function byOwner<T extends ItemRow>(rows: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const id = Number(row.ownerId);
    const list = out.get(id);
    if (list) list.push(row);
    else out.set(id, [row]);
  }

  return out;
}

export function candidateContent(row: ContentItemRow): CandidateContent {
  return {
    id: row.id,
    name: row.name,
    deviceContentType: row.deviceContentType,
    pageCount: Math.max(1, Number(row.pageCount) || 1),
    weight: row.weight ?? 0,
  };
}

export function candidateFile(row: FileItemRow): CandidateFile {
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

const pageCountOf = sql.raw(
  `case when x.device_content_type = 'simpleLoop' then jsonb_array_length(coalesce(x.data->'slides', '[]'::jsonb)) else jsonb_array_length(coalesce(x.data->'pages', '[]'::jsonb)) end`,
);

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

export const campaignOwner: ItemOwner = {
  table: campaigns,
  column: 'campaign_id',
  playedAssetTeams: true,
  contentAssignments: campaignContentAssignments,
  contentFolders: campaignContentGroupAssignments,
  fileAssignments: campaignFileAssignments,
  fileFolders: campaignFileFolderAssignments,
};

export const messageOwner: ItemOwner = {
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
  folders: {
    table: (owner: ItemOwner) => ItemOwner['contentFolders'] | ItemOwner['fileFolders'];
    folderColumn: string;
    itemPath: string;
    type: string;
    tagCondition: string;
  };
  /** An item column of the owner row itself (a message's `contentId`), when it has one. */
  ownColumn?: string;
  teamResource: 'deviceContent' | 'file';
  quickFilter: { type: string; entity: 'CONTENT' | 'FILE'; idOf: (row: OwnerRow) => string | null };
};

/** Whether an owner plays a quick filter's items of `source` (its branch carries the filter's criteria). */
const playsQuickFilterItems = (row: OwnerRow, source: ItemSource): boolean =>
  row.type === source.quickFilter.type && Boolean(source.quickFilter.idOf(row));

/** What `loadItems` reads of a campaign or message row. */
export type OwnerRow = { id: number; type: string; contentQuickFilterId: string | null; fileQuickFilterId: string | null };

/**
 * The items each campaign or message plays, of one kind: assigned (static), in an assigned folder or below
 * (the dynamic type, with its tag condition and a campaign's played-asset teams), or matching its quick
 * filter; one statement for all the owners.
 */
export async function loadItems<T>(
  db: Executor,
  customerId: number,
  rows: readonly OwnerRow[],
  ids: readonly number[],
  source: ItemSource,
  owner: ItemOwner,
): Promise<T[]> {
  const statement = await itemsStatement(db, customerId, rows, ids, source, owner);
  // Quick-filter branches carry their filter's criteria in the text: only a statement without them has a fixed shape.
  const prepared = !rows.some((row) => playsQuickFilterItems(row, source));

  // In a fixed order: the manifest ETag hashes the rules as read (manifest-etag.ts).
  return statement
    ? execRows<T & Record<string, unknown>>(db, sql`select * from (${statement}) items order by "ownerId", id, weight`, { prepared })
    : [];
}

/**
 * The statement `loadItems` runs (undefined: no owners), so a reader that needs less than every item row
 * (the campaigns' next airing) can aggregate over it in SQL. Reads the owners' quick filters first, in one
 * statement.
 */
export async function itemsStatement(
  db: Executor,
  customerId: number,
  rows: readonly OwnerRow[],
  ids: readonly number[],
  source: ItemSource,
  owner: ItemOwner,
): Promise<SQL | undefined> {
  if (ids.length === 0) return undefined;
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
  const filtered = rows.filter((row) => playsQuickFilterItems(row, source));
  const criteria = await quickFilterCriteria(
    db,
    customerId,
    filtered.map((row) => source.quickFilter.idOf(row)!),
    source.quickFilter.entity,
  );
  const now = new Date();
  for (const row of filtered) {
    const condition = criteria.get(source.quickFilter.idOf(row)!);
    if (!condition) continue;
    // The criteria name the table itself, not the alias `x`: they filter ids in a sub-select of their own.
    branches.push(sql`select ${Number(row.id)}::float8 as "ownerId", 0 as weight, ${select}
          from ${source.table} x where x.customer_id = ${customerId}
           and x.id in (select ${source.table.id} from ${source.table} where ${criteriaCondition(source.quickFilter.entity, condition, { customerId, now })})`);
  }

  return sql.join(branches, sql` union all `);
}

export const contentSource: ItemSource = {
  table: deviceContents,
  select: sql`x.id::text as id, x.name, x.device_content_type as "deviceContentType", ${pageCountOf} as "pageCount"`,
  assignments: { table: (owner) => owner.contentAssignments, itemColumn: 'content_id' },
  folders: {
    table: (owner) => owner.contentFolders,
    folderColumn: 'content_group_id',
    itemPath: 'group_path',
    type: 'CONTENT_DYNAMIC',
    tagCondition: 'content_tag_condition',
  },
  ownColumn: 'content_id',
  teamResource: 'deviceContent',
  quickFilter: { type: 'CONTENT_QUICK_FILTER', entity: 'CONTENT', idOf: (row) => row.contentQuickFilterId },
};

export const fileSource: ItemSource = {
  table: files,
  select: sql`x.id::text as id, x.name, x.content_type as "contentType", x.meta_data->>'duration' as "durationSeconds",
    floor(extract(epoch from x.valid_from) * 1000)::float8 as "validFrom", floor(extract(epoch from x.valid_to) * 1000)::float8 as "validTo"`,
  assignments: { table: (owner) => owner.fileAssignments, itemColumn: 'file_id' },
  folders: {
    table: (owner) => owner.fileFolders,
    folderColumn: 'file_folder_id',
    itemPath: 'folder_path',
    type: 'ASSETS_DYNAMIC',
    tagCondition: 'file_tag_condition',
  },
  teamResource: 'file',
  quickFilter: { type: 'ASSET_QUICK_FILTER', entity: 'FILE', idOf: (row) => row.fileQuickFilterId },
};

/** The criteria of the tenant's quick filters of `ids` filtering `type`, by id (one statement). */
async function quickFilterCriteria(
  db: Executor,
  customerId: number,
  ids: readonly string[],
  type: 'CONTENT' | 'FILE',
): Promise<Map<string, unknown>> {
  if (ids.length === 0) return new Map();
  const rows = await execRows<{ id: string; criteria: unknown }>(
    db,
    sql`select id::text as id, criteria from ${quickFilters} where id = any(${uuidArrayParam([...new Set(ids)])}) and customer_id = ${customerId} and filtered_entity_type = ${type}`,
  );

  return new Map(rows.filter((r) => r.criteria != null).map((r) => [r.id, r.criteria]));
}
