import { datasourceData, datasources } from '@/server/modules/datasources/datasources.table';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArrayParam } from '@/server/db/sql';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { campaignsPlayingQuery, campaignTargetDevicesQuery } from '@/server/modules/campaigns';
import { messageChannelsPlayingQuery } from '@/server/modules/messages';

/*
 * The reads of the manifest (spec 4 §4), each one statement and tenant-scoped in SQL: the device with what
 * its layers point at, the closure of the content it plays (a recursive CTE over `content_reference`), and
 * the files of that closure (directly referenced or in a referenced file folder).
 */

type PlaybackContentRef = { id: string; name: string; deviceContentType: 'content' | 'simpleLoop' };

/** A claimed device as the playback resolution reads it. */
export type PlaybackDevice = {
  id: string;
  customerId: number;
  timeZone: string;
  settings: Record<string, unknown>;
  emergencyStatus: boolean;
  /** The device's emergency content, else the customer's default emergency content (same tenant only). */
  emergencyContent: PlaybackContentRef | null;
  content: PlaybackContentRef | null;
  /** What targeting reads (DeviceFacts), read with the row: its folder and every ancestor, tags, teams. */
  folderIds: string[];
  tags: string[];
  teamIds: string[];
};

const ref = (alias: string) =>
  sql.raw(
    `case when ${alias}.id is null then null else json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'deviceContentType', ${alias}.device_content_type) end`,
  );

/** The claimed device matching `where` (over the device table's columns), with its playback inputs; undefined when none. */
export async function findPlaybackDevice(db: Executor, where: SQL): Promise<PlaybackDevice | undefined> {
  const [row] = await findPlaybackDevices(db, where, 1);

  return row;
}

/** The claimed devices matching `where` (a condition of a fixed shape: the statement is prepared), with their playback inputs (one statement). */
export function findPlaybackDevices(db: Executor, where: SQL, limit?: number): Promise<PlaybackDevice[]> {
  return execRows<PlaybackDevice>(
    db,
    sql`select ${devices.id} as id, ${devices.customerId}::float8 as "customerId", coalesce(${devices.timeZone}, 'UTC') as "timeZone", ${devices.settings} as settings,
               ${devices.emergencyStatus} as "emergencyStatus", coalesce(${ref('e')}, ${ref('de')}) as "emergencyContent", ${ref('c')} as content,
               ${devices.groupPath}::text[] as "folderIds", ${devices.tags} as tags,
               array(select ta.team_id::text from ${teamAssignments} ta where ta.resource_type = 'device' and ta.resource_id = ${devices.id}::text and ta.customer_id = ${devices.customerId}) as "teamIds"
          from ${devices}
          join ${customers} cu on cu.id = ${devices.customerId}
          left join ${deviceContents} c on c.id = ${devices.contentId} and c.customer_id = cu.id
          left join ${deviceContents} e on e.id = ${devices.emergencyContentId} and e.customer_id = cu.id
          left join ${deviceContents} de on de.id = cu.default_emergency_content_id::uuid and de.customer_id = cu.id
         where ${where}${limit === undefined ? sql`` : sql` limit ${limit}`}`,
    { prepared: true },
  );
}

export type ClosureContent = {
  id: string;
  name: string;
  deviceContentType: 'content' | 'simpleLoop';
  structureType: 'SLIDE' | 'COMPLEX' | null;
  version: string | null;
  /** md5 of the document's text: what the ETag hashes (the document itself only when asked for). */
  dataHash: string;
  data?: unknown;
};

export type ClosureFile = {
  id: string;
  name: string;
  contentType: string;
  size: number;
  crcCheckSum: string;
  width: number | null;
  height: number | null;
  durationSeconds: string | null;
  validFrom: number | null;
  validTo: number | null;
  /** The referenced folders the file lies in (directly): a playlist's FILE_FOLDER items play them. */
  inFolders: string[];
};

const epochMs = (column: string) => sql.raw(`floor(extract(epoch from f.${column}) * 1000)::float8`);

/** A content item of a graph, with the content items it embeds. */
export type GraphContent = ClosureContent & { embeds: string[] };

/** A file of a graph, with the content items that reference it and those that reference its folder. */
export type GraphFile = Omit<ClosureFile, 'inFolders'> & { folderId: string | null; referencedBy: string[]; folderReferencedBy: string[] };

/**
 * `roots` and every content item they embed, transitively, with the files any of it references (directly or
 * through a file folder) and the files `fileIds`, of one customer, and who references what: the manifest's
 * closure of any subset of the roots is worked out from it in memory (manifest-closure.ts). Documents come only
 * for the closure of `dataOf` (what the manifest lists), the rest carry their hash. Two statements, side by side. Contents
 * come by id, files by name then id.
 */
export type ContentGraph = { contents: ReadonlyMap<string, GraphContent>; files: ReadonlyMap<string, GraphFile> };

export async function findContentGraph(
  db: Executor,
  customerId: number,
  roots: readonly string[],
  fileIds: readonly string[],
  dataOf: readonly string[] = [],
): Promise<ContentGraph> {
  // `roots` and everything they embed; both statements start from it, so they run side by side.
  const closure = sql`closure(id) as (
                select unnest(${uuidArrayParam(roots)})
                union
                select r.target_id from ${contentReferences} r join closure on r.content_id = closure.id
                 where r.customer_id = ${customerId} and r.target_type = 'content'
              )`;
  const [contents, fileRows] = await Promise.all([
    roots.length === 0
      ? []
      : execRows<GraphContent>(
          db,
          sql`with recursive ${closure}${
            dataOf.length === 0
              ? sql``
              : sql`, shown(id) as (
                select unnest(${uuidArrayParam(dataOf)})
                union
                select r.target_id from ${contentReferences} r join shown on r.content_id = shown.id
                 where r.customer_id = ${customerId} and r.target_type = 'content'
              )`
          }
              select c.id, c.name, c.device_content_type as "deviceContentType", c.structure_type as "structureType", c.version,
                     md5(c.data::text) as "dataHash"${dataOf.length === 0 ? sql`` : sql`, case when c.id in (select id from shown) then c.data end as data`},
                     array(select r.target_id::text from ${contentReferences} r
                            where r.customer_id = ${customerId} and r.content_id = c.id and r.target_type = 'content' order by 1) as embeds
                from ${deviceContents} c join closure on closure.id = c.id
               where c.customer_id = ${customerId}
               order by c.id`,
          { prepared: true },
        ),
    roots.length === 0 && fileIds.length === 0
      ? []
      : execRows<GraphFile>(
          db,
          sql`with recursive ${closure},
              refs as (
                -- Probed by primary key (an array, not a join the planner would answer with a scan of every reference).
                select r.content_id, r.target_type, r.target_id from ${contentReferences} r
                 where r.content_id = any(array(select id from closure)) and r.customer_id = ${customerId} and r.target_type in ('file', 'fileFolder')
              ),
              by_file as (select target_id, array_agg(distinct content_id::text) as ids from refs where target_type = 'file' group by 1),
              by_folder as (select target_id, array_agg(distinct content_id::text) as ids from refs where target_type = 'fileFolder' group by 1)
              select f.id, f.name, f.content_type as "contentType", f.size::float8 as size, f.crc_check_sum as "crcCheckSum", f.width, f.height,
                     f.meta_data->>'duration' as "durationSeconds", ${epochMs('valid_from')} as "validFrom", ${epochMs('valid_to')} as "validTo",
                     f.file_folder_id::text as "folderId", coalesce(bf.ids, array[]::text[]) as "referencedBy", coalesce(bd.ids, array[]::text[]) as "folderReferencedBy"
                from ${files} f
                left join by_file bf on bf.target_id = f.id
                left join by_folder bd on bd.target_id = f.file_folder_id
               where f.customer_id = ${customerId}
                 -- One set of ids from three index-friendly branches (an OR of them would read every file of the tenant), probed
                 -- by primary key (as a semi-join the planner scanned every file of the tenant).
                 and f.id = any(array(
                   select target_id from refs where target_type = 'file'
                   union all
                   select g.id from ${files} g where g.customer_id = ${customerId} and g.file_folder_id in (select target_id from refs where target_type = 'fileFolder')
                   union all
                   select unnest(${uuidArrayParam(fileIds)})))
               order by f.name, f.id`,
          { prepared: true },
        ),
  ]);

  return { contents: new Map(contents.map((c) => [c.id, c])), files: new Map(fileRows.map((f) => [f.id, f])) };
}

/**
 * The claimed devices whose manifest may show any of `contentIds` or `fileIds`: those whose assigned or
 * emergency content (or, in emergency without their own, the customer's default emergency content) embeds them,
 * transitively, and those targeted by a channel or schedule that may play them or content embedding them, itself
 * or through a sub-channel (`campaignsPlayingQuery`, `messageChannelsPlayingQuery`). A file counts when a content item references it or a file folder holding it. With
 * `emergencyDefault`, every screen in emergency that falls back to the customer's default. Two statements
 * (three with device quick filters), whatever the number of devices.
 */
export async function findDevicesShowing(
  db: Executor,
  input: { customerId: number; contentIds?: readonly string[]; fileIds?: readonly string[]; emergencyDefault?: boolean },
): Promise<string[]> {
  const { customerId } = input;
  const contentIds = input.contentIds ?? [];
  const fileIds = input.fileIds ?? [];
  const emergencyDefault = input.emergencyDefault === true;
  if (contentIds.length === 0 && fileIds.length === 0 && !emergencyDefault) return [];
  // The changed content and every content item that embeds it or the changed files, transitively.
  const embedding = await execRows<{ id: string }>(
    db,
    sql`with recursive users_of(id) as (
          select unnest(${uuidArrayParam(contentIds)})
          union
          select r.content_id from ${contentReferences} r
           where r.customer_id = ${customerId}
             and ((r.target_type = 'file' and r.target_id = any(${uuidArrayParam(fileIds)}))
               or (r.target_type = 'fileFolder' and r.target_id in (select file_folder_id from ${files} where customer_id = ${customerId} and id = any(${uuidArrayParam(fileIds)}))))
          union
          select r.content_id from ${contentReferences} r join users_of u on r.target_id = u.id
           where r.customer_id = ${customerId} and r.target_type = 'content'
        )
        select id::text as id from users_of`,
  );
  const usersOf = uuidArrayParam(embedding.map((r) => r.id));
  const playing = embedding.map((r) => r.id);
  const channels = sql`${campaignsPlayingQuery(customerId, playing, fileIds)} union ${messageChannelsPlayingQuery(customerId, playing, fileIds)}`;
  const channelTargets = await campaignTargetDevicesQuery(db, { customerId, campaignIds: channels });
  const rows = await execRows<{ id: string }>(
    db,
    sql`select d.id from ${devices} d
          join ${customers} cu on cu.id = d.customer_id
         where d.customer_id = ${customerId}
           and (d.content_id = any(${usersOf}) or d.emergency_content_id = any(${usersOf})
             or (d.emergency_status and d.emergency_content_id is null
                 and (${emergencyDefault} or cu.default_emergency_content_id::uuid = any(${usersOf}))))
        union
        select t.device_id from (${channelTargets}) t
        order by 1`,
  );

  return rows.map((r) => r.id);
}

/** The content items that use the datasource directly (a slide's datasource widget). */
export async function findContentUsingDatasource(db: Executor, input: { customerId: number; datasourceId: string }): Promise<string[]> {
  const rows = await execRows<{ id: string }>(
    db,
    sql`select content_id::text as id from ${contentReferences}
         where customer_id = ${input.customerId} and target_type = 'datasource' and target_id = ${input.datasourceId}::uuid`,
  );

  return rows.map((r) => r.id);
}

/** The datasources the manifest's content items use (spec 5 §2: the manifest lists them; devices read their data). */
export async function findManifestDatasources(
  db: Executor,
  customerId: number,
  contentIds: readonly string[],
): Promise<Array<{ id: string; name: string; structureType: string; hash: string | null }>> {
  if (contentIds.length === 0) return [];

  return execRows(
    db,
    sql`select d.id::text as id, d.name, d.structure_type as "structureType",
               case when d.source_type <> 'SYSTEM' then coalesce(dd.hash, 'empty') end as hash
          from ${datasources} d left join ${datasourceData} dd on dd.datasource_id = d.id
         where d.customer_id = ${customerId}
           and d.id in (select r.target_id from ${contentReferences} r
                         where r.customer_id = ${customerId} and r.target_type = 'datasource' and r.content_id = any(${uuidArrayParam(contentIds)}))
         order by d.id`,
  );
}
