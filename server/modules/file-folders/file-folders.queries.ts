import { customerStatisticSql } from '@/server/tenant/customer-statistics';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray } from '@/server/db/sql';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { deleteFolderSubtrees, deleteItemsBelow, itemIdsBelow, updateFolderRow } from '@/server/modules/folders';
import { fileFolderItems, fileFolderTree } from './folder-access';

/** Sets `values` on the folder `id` of `customerId` and stamps its `last_change` (every change of a file folder does). */
export async function updateFolder(
  db: Executor,
  customerId: number,
  id: string,
  values: Partial<Pick<typeof fileFolders.$inferSelect, 'name' | 'cleanupOutdatedFiles'>> = {},
): Promise<void> {
  await updateFolderRow(db, fileFolders, customerId, id, { ...values, lastChange: sql`now()` });
}

/** `id`, `quickFilterId` and `customerId` of the filtered folders among `ids`. */
export async function findFilteredFolders(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];

  return db
    .select({ id: fileFolders.id, customerId: fileFolders.customerId, quickFilterId: fileFolders.quickFilterId })
    .from(fileFolders)
    .where(and(inArray(fileFolders.id, [...ids]), eq(fileFolders.fileFolderType, 2)));
}

export async function countFilesMatching(db: Executor, customerId: number, condition: SQL): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(files)
    .where(and(eq(files.customerId, customerId), condition));

  return Number(row?.n ?? 0);
}

/**
 * The quick filter a filtered folder will follow, share-locked until the transaction ends: a delete of the
 * filter (which locks it for update and then checks for folders using it) waits, and then sees the folder.
 */
export async function findQuickFilter(db: Executor, id: string, customerId: number, visible: SQL | undefined) {
  const [row] = await db
    .select({ id: quickFilters.id, filteredEntityType: quickFilters.filteredEntityType })
    .from(quickFilters)
    .where(and(eq(quickFilters.id, id), eq(quickFilters.customerId, customerId), visible))
    .limit(1)
    .for('share', { of: quickFilters });

  return row;
}

/** The ids of every file in or below `folderIds` (only loaded when a file reference kind needs them). */
export async function fileIdsBelow(db: Executor, customerId: number, folderIds: readonly string[]): Promise<string[]> {
  const rows = await execRows(db, itemIdsBelow(fileFolderItems, customerId, folderIds));

  return rows.map((r) => String(r.id));
}

/**
 * Deletes the folders `folderIds`, every folder below them and every file in or below them, with
 * their team assignments: four statements whatever the number of files, none of which brings rows
 * back into memory. The file delete trigger queues the blobs and lowers the quota.
 */
export async function deleteSubtrees(
  db: Executor,
  customerId: number,
  folderIds: readonly string[],
): Promise<{ files: number; folders: number }> {
  const deleted = await deleteItemsBelow(db, fileFolderItems, { customerId, folderIds });
  const folders = await deleteFolderSubtrees(db, fileFolderTree, { customerId, folderIds });

  return { files: deleted, folders };
}

/** Deletes files by id with their team assignments (the trigger queues blobs and lowers the quota). */
export async function deleteFilesByIds(db: Executor, customerId: number, fileIds: readonly string[]): Promise<number> {
  if (fileIds.length === 0) return 0;
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, customerId),
        eq(teamAssignments.resourceType, 'file'),
        inArray(teamAssignments.resourceId, [...fileIds]),
      ),
    );
  const [row] = await execRows(
    db,
    sql`with d as (delete from ${files} where ${files.customerId} = ${customerId} and ${files.id} = any(${uuidArray(fileIds)}) returning 1) select count(*)::int as n from d`,
  );

  return Number(row?.n ?? 0);
}

export async function findStorage(db: Executor, customerId: number) {
  const [row] = await db
    .select({
      storageSize: customers.storageSize,
      usedStorageSize: customers.usedStorageSize,
      usedDatasourceStorageSize: sql<string>`${customerStatisticSql('currentDatasourceStorageSize', sql`${customers.id}`)}`,
    })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);

  return row;
}

/**
 * The quota and use of every customer of a scope spanning tenants (all, or a network: its condition on the
 * customer's id), summed in one statement; no quota (null) when any of them has unlimited storage.
 */
export async function sumStorage(
  db: Executor,
  scope: TenantScope,
): Promise<{ storageSize: number | null; usedStorageSize: number; usedDatasourceStorageSize: number }> {
  const [row] = await db
    .select({
      storageSize: sql<string | null>`case when count(*) = count(${customers.storageSize}) then sum(${customers.storageSize}) end`,
      usedStorageSize: sql<string>`coalesce(sum(${customers.usedStorageSize}), 0)`,
      usedDatasourceStorageSize: sql<string>`coalesce(sum(${customerStatisticSql('currentDatasourceStorageSize', sql`${customers.id}`)}), 0)`,
    })
    .from(customers)
    .where(scopeCondition(scope, customers.id));

  return {
    storageSize: row?.storageSize == null ? null : Number(row.storageSize),
    usedStorageSize: Number(row?.usedStorageSize ?? 0),
    usedDatasourceStorageSize: Number(row?.usedDatasourceStorageSize ?? 0),
  };
}

/**
 * One batch of the cleanup job: deletes up to `limit` files whose `validTo` has passed and that lie
 * directly in a folder in cleanup mode, in one statement; answers the count per customer.
 */
export async function deleteOutdatedFiles(db: Executor, limit: number): Promise<{ customerId: number; count: number }[]> {
  const rows = await execRows(
    db,
    sql`with doomed as (
        select f.id, f.customer_id from ${fileFolders} d join ${files} f on f.customer_id = d.customer_id and f.file_folder_id = d.id
        where d.cleanup_outdated_files and f.valid_to is not null and f.valid_to < now()
        limit ${limit}
      ), ta as (
        delete from ${teamAssignments} where ${teamAssignments.resourceType} = 'file' and ${teamAssignments.resourceId} in (select id::text from doomed)
      ), gone as (
        delete from ${files} where ${files.id} in (select id from doomed) returning ${files.customerId} as customer_id
      )
      select customer_id, count(*)::int as n from gone group by customer_id`,
  );

  return rows.map((r) => ({ customerId: Number(r.customer_id), count: Number(r.n) }));
}
