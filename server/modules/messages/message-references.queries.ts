import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { countFileAssignments, countFolderAssignments, type FileAssignmentTables, targetedDeviceIds } from '@/server/modules/campaigns';
import { announceDeviceChange } from '@/server/modules/devices';

/* The statements behind messages' file and folder references (message-references.ts plugs them in). */

const messageFileTables: FileAssignmentTables = {
  files: 'message_file_assignment',
  folders: 'message_file_folder_assignment',
  owner: 'message_id',
};

/** Messages that assign one of `fileIds` directly: they keep the files from being deleted. */
export const countMessagesAssigningFiles = (tx: Executor, fileIds: readonly string[]) =>
  countFileAssignments(tx, fileIds, messageFileTables);

/** Messages that play a folder in the subtrees of `folderIds`. */
export const countMessagesPlayingFolders = (tx: Executor, folderIds: readonly string[]) =>
  countFolderAssignments(tx, folderIds, messageFileTables);

/**
 * `replaceFileReference`: every message assigning `fromFileId` assigns `toFileId` instead (keeping the weight;
 * where both were assigned, the old one goes); the screens of the channels playing their groups hear of it.
 */
export async function replaceFileInMessages(tx: Executor, input: { fromFileId: string; toFileId: string }): Promise<number> {
  const rows = await execRows<{ customer_id: number; campaign_id: number | null }>(
    tx,
    sql`select a.customer_id, cg.campaign_id from message_file_assignment a join message m on m.id = a.message_id
      left join campaign_message_group_assignment cg on cg.message_group_id = m.message_group_id where a.file_id = ${input.fromFileId}::uuid`,
  );
  if (rows.length === 0) return 0;
  await execRows(
    tx,
    sql`delete from message_file_assignment a where a.file_id = ${input.fromFileId}::uuid
    and exists (select 1 from message_file_assignment b where b.message_id = a.message_id and b.file_id = ${input.toFileId}::uuid)`,
  );
  const changed = await execRows(
    tx,
    sql`update message_file_assignment set file_id = ${input.toFileId}::uuid where file_id = ${input.fromFileId}::uuid returning message_id`,
  );
  for (const customerId of new Set(rows.map((r) => Number(r.customer_id)))) {
    const campaignIds = rows
      .filter((r) => Number(r.customer_id) === customerId && r.campaign_id !== null)
      .map((r) => Number(r.campaign_id));
    await announceDeviceChange(tx, {
      customerId,
      deviceIds: await targetedDeviceIds(tx, customerId, [...new Set(campaignIds)]),
      kind: 'settings',
    });
  }

  return Math.max(changed.length, new Set(rows.map((r) => r.customer_id)).size);
}
