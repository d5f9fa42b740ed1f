import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray } from '@/server/db/sql';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { aliasedTable } from '@/server/query';
import { contentReferences, deviceContents } from './content.table';

/** `[{id, name, deviceContentType}]` of the content whose document references the file `fileId` (correlated). */
export function contentReferencesOfFiles(fileId: SQL): SQL {
  const { table: r, from: rFrom } = aliasedTable(contentReferences, 'fu_ref');
  const { table: c, from: cFrom } = aliasedTable(deviceContents, 'fu_content');

  return sql`(select coalesce(jsonb_agg(jsonb_build_object('id', ${c.id}, 'name', ${c.name}, 'deviceContentType', ${c.deviceContentType}) order by ${c.name}, ${c.id}), '[]'::jsonb)
    from ${rFrom} join ${cFrom} on ${c.id} = ${r.contentId} where ${r.targetType} = 'file' and ${r.targetId} = ${fileId})`;
}

/**
 * The references to `fileIds` that keep them from being deleted: all of them, except a playlist's own file
 * items when `removeFromPlaylists` (a slide's image, or a playlist that also uses the file elsewhere, still blocks).
 */
export async function countFileReferences(
  db: Executor,
  input: { fileIds: readonly string[]; removeFromPlaylists: boolean },
): Promise<number> {
  if (input.fileIds.length === 0) return 0;
  const ids = uuidArray(input.fileIds);
  const exempt = input.removeFromPlaylists
    ? sql` and not (${deviceContents.deviceContentType} = 'simpleLoop' and not exists (
        select 1 from jsonb_array_elements(case when jsonb_typeof(${deviceContents.data}->'slides') = 'array' then ${deviceContents.data}->'slides' else '[]'::jsonb end) e
        where (e->>'id')::text = ${contentReferences.targetId}::text and e->>'type' <> 'FILE'))`
    : sql``;
  const [row] = await execRows<{ n: number }>(
    db,
    sql`select count(distinct ${contentReferences.contentId})::int as n from ${contentReferences} join ${deviceContents} on ${deviceContents.id} = ${contentReferences.contentId}
      where ${contentReferences.targetType} = 'file' and ${contentReferences.targetId} = any(${ids})${exempt}`,
  );

  return Number(row?.n ?? 0);
}

/** Removes the file items of `fileIds` from every playlist that has them, and their references; one statement each. */
export async function removeFilesFromPlaylists(db: Executor, fileIds: readonly string[]): Promise<void> {
  if (fileIds.length === 0) return;
  const ids = sql`array(select x::text from unnest(${uuidArray(fileIds)}) x)`;
  await db.execute(sql`update ${deviceContents} set ${sql.identifier('data')} = jsonb_set(${deviceContents.data}, '{slides}',
      (select coalesce(jsonb_agg(e order by n), '[]'::jsonb) from jsonb_array_elements(${deviceContents.data}->'slides') with ordinality as s(e, n)
        where not (e->>'type' = 'FILE' and e->>'id' = any(${ids}))))
    where ${deviceContents.deviceContentType} = 'simpleLoop' and ${deviceContents.id} in
      (select ${contentReferences.contentId} from ${contentReferences} where ${contentReferences.targetType} = 'file' and ${contentReferences.targetId} = any(${uuidArray(fileIds)}))`);
  await db.execute(sql`delete from ${contentReferences} where ${contentReferences.targetType} = 'file' and ${contentReferences.targetId} = any(${uuidArray(fileIds)})
    and ${contentReferences.contentId} in (select ${deviceContents.id} from ${deviceContents} where ${deviceContents.deviceContentType} = 'simpleLoop')`);
}

/**
 * Points every document that references `fromFileId` at `toFileId`: ids are UUIDs, so replacing the id's text
 * in the document changes exactly the references. Answers how many items changed.
 */
export async function replaceFileInContent(db: Executor, input: { fromFileId: string; toFileId: string }): Promise<number> {
  const rows = await execRows(
    db,
    sql`with changed as (
        update ${deviceContents} set ${sql.identifier('data')} = replace(${deviceContents.data}::text, ${input.fromFileId.toLowerCase()}, ${input.toFileId.toLowerCase()})::jsonb
        where ${deviceContents.id} in (select ${contentReferences.contentId} from ${contentReferences} where ${contentReferences.targetType} = 'file' and ${contentReferences.targetId} = ${input.fromFileId}::uuid)
        returning ${deviceContents.id} as id
      ), moved as (
        insert into ${contentReferences} (content_id, customer_id, target_type, target_id)
        select ${contentReferences.contentId}, ${contentReferences.customerId}, 'file', ${input.toFileId}::uuid from ${contentReferences}
        where ${contentReferences.targetType} = 'file' and ${contentReferences.targetId} = ${input.fromFileId}::uuid
        on conflict do nothing
      ), gone as (
        delete from ${contentReferences} where ${contentReferences.targetType} = 'file' and ${contentReferences.targetId} = ${input.fromFileId}::uuid
      )
      select id from changed`,
  );

  return rows.length;
}

/** The ids of the folders `folderIds` and every folder below them (a subquery). */
function subtreeIds(folderIds: readonly string[]): SQL {
  return sql`(select ${fileFolders.id} from ${fileFolders} where ${fileFolders.path} && ${uuidArray(folderIds)})`;
}

/** `[{id, name, deviceContentType}]` of the content that plays the file folder `folderId` (correlated). */
export function contentReferencesOfFolders(folderId: SQL): SQL {
  const { table: r, from: rFrom } = aliasedTable(contentReferences, 'fou_ref');
  const { table: c, from: cFrom } = aliasedTable(deviceContents, 'fou_content');

  return sql`(select coalesce(jsonb_agg(jsonb_build_object('id', ${c.id}, 'name', ${c.name}, 'deviceContentType', ${c.deviceContentType}) order by ${c.name}, ${c.id}), '[]'::jsonb)
    from ${rFrom} join ${cFrom} on ${c.id} = ${r.contentId} where ${r.targetType} = 'fileFolder' and ${r.targetId} = ${folderId})`;
}

/**
 * The content that plays a folder of the subtrees of `folderIds` (a playlist's folder item). With
 * `removeFromPlaylists` none blocks: only playlists reference folders, and their folder items are removed.
 */
export async function countFolderReferences(
  db: Executor,
  input: { folderIds: readonly string[]; removeFromPlaylists: boolean },
): Promise<number> {
  if (input.folderIds.length === 0) return 0;
  const exempt = input.removeFromPlaylists ? sql` and ${deviceContents.deviceContentType} <> 'simpleLoop'` : sql``;
  const [row] = await execRows<{ n: number }>(
    db,
    sql`select count(distinct ${contentReferences.contentId})::int as n from ${contentReferences} join ${deviceContents} on ${deviceContents.id} = ${contentReferences.contentId}
      where ${contentReferences.targetType} = 'fileFolder' and ${contentReferences.targetId} in ${subtreeIds(input.folderIds)}${exempt}`,
  );

  return Number(row?.n ?? 0);
}

/** Removes the folder items of the subtrees of `folderIds` from every playlist that has them, and their references. */
export async function removeFoldersFromPlaylists(db: Executor, folderIds: readonly string[]): Promise<void> {
  if (folderIds.length === 0) return;
  const targets = sql`select ${contentReferences.targetId} from ${contentReferences} where ${contentReferences.targetType} = 'fileFolder' and ${contentReferences.targetId} in ${subtreeIds(folderIds)}`;
  await db.execute(sql`update ${deviceContents} set ${sql.identifier('data')} = jsonb_set(${deviceContents.data}, '{slides}',
      (select coalesce(jsonb_agg(e order by n), '[]'::jsonb) from jsonb_array_elements(${deviceContents.data}->'slides') with ordinality as s(e, n)
        where not (e->>'type' = 'FILE_FOLDER' and (e->>'id')::uuid in ${subtreeIds(folderIds)})))
    where ${deviceContents.deviceContentType} = 'simpleLoop' and ${deviceContents.id} in
      (select ${contentReferences.contentId} from ${contentReferences} where ${contentReferences.targetType} = 'fileFolder' and ${contentReferences.targetId} in (${targets}))`);
  await db.execute(
    sql`delete from ${contentReferences} where ${contentReferences.targetType} = 'fileFolder' and ${contentReferences.targetId} in ${subtreeIds(folderIds)}`,
  );
}
