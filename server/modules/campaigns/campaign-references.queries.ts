import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray } from '@/server/db/sql';
import { announceDeviceChange } from '@/server/modules/devices';
import { targetedDeviceIds } from './campaign-targeting.queries';

/* The statements behind campaigns' file and folder references (campaign-references.ts plugs them in). */

/** Where an owner (campaigns, messages) assigns files and file folders: its two tables and its id column. */
export type FileAssignmentTables = { files: string; folders: string; owner: string };
const campaignFileTables: FileAssignmentTables = {
  files: 'campaign_file_assignment',
  folders: 'campaign_file_folder_assignment',
  owner: 'campaign_id',
};

/** Owners (campaigns of any level by default) that assign one of `fileIds` directly: they keep the files from being deleted. */
export async function countFileAssignments(
  tx: Executor,
  fileIds: readonly string[],
  tables: FileAssignmentTables = campaignFileTables,
): Promise<number> {
  if (fileIds.length === 0) return 0;
  const [row] = await execRows<{ n: number }>(
    tx,
    sql`select count(distinct ${sql.identifier(tables.owner)})::int as n from ${sql.identifier(tables.files)} where file_id = any(${uuidArray(fileIds)})`,
  );

  return Number(row?.n ?? 0);
}

/** Owners that play a folder in the subtrees of `folderIds` (the folders and every one below them). */
export async function countFolderAssignments(
  tx: Executor,
  folderIds: readonly string[],
  tables: FileAssignmentTables = campaignFileTables,
): Promise<number> {
  if (folderIds.length === 0) return 0;
  const [row] = await execRows<{ n: number }>(
    tx,
    sql`select count(distinct a.${sql.identifier(tables.owner)})::int as n from ${sql.identifier(tables.folders)} a join file_folder f on f.id = a.file_folder_id
      where f.path && ${uuidArray(folderIds)}`,
  );

  return Number(row?.n ?? 0);
}

/**
 * `replaceFileReference`: every campaign assigning `fromFileId` assigns `toFileId` instead (keeping the
 * weight; where both were assigned, the old one goes). Its screens hear that their manifest changed.
 */
export async function replaceFileInCampaigns(tx: Executor, input: { fromFileId: string; toFileId: string }): Promise<number> {
  const rows = await execRows<{ campaign_id: number; customer_id: number }>(
    tx,
    sql`select campaign_id, customer_id from campaign_file_assignment where file_id = ${input.fromFileId}::uuid`,
  );
  if (rows.length === 0) return 0;
  await execRows(
    tx,
    sql`delete from campaign_file_assignment a where a.file_id = ${input.fromFileId}::uuid
    and exists (select 1 from campaign_file_assignment b where b.campaign_id = a.campaign_id and b.file_id = ${input.toFileId}::uuid)`,
  );
  await execRows(tx, sql`update campaign_file_assignment set file_id = ${input.toFileId}::uuid where file_id = ${input.fromFileId}::uuid`);
  for (const customerId of new Set(rows.map((r) => Number(r.customer_id)))) {
    const ids = rows.filter((r) => Number(r.customer_id) === customerId).map((r) => Number(r.campaign_id));
    await announceDeviceChange(tx, { customerId, deviceIds: await targetedDeviceIds(tx, customerId, ids), kind: 'settings' });
  }

  return rows.length;
}
