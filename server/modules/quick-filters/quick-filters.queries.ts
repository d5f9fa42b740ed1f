import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { quickFilters, type QuickFilterRow } from './quick-filters.table';

/** The filter `id` within the scope (and `visible`, when given). */
export async function findQuickFilter(db: Executor, scope: TenantScope, id: string, visible?: SQL): Promise<QuickFilterRow | undefined> {
  const [row] = await db
    .select()
    .from(quickFilters)
    .where(and(eq(quickFilters.id, id), scopeCondition(scope, quickFilters.customerId), visible))
    .limit(1);

  return row;
}

/** The row locked until commit: deletes and updates serialise with each other. */
export async function lockQuickFilter(db: Executor, scope: TenantScope, id: string): Promise<QuickFilterRow | undefined> {
  const [row] = await db
    .select()
    .from(quickFilters)
    .where(and(eq(quickFilters.id, id), scopeCondition(scope, quickFilters.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function insertQuickFilter(db: Executor, values: typeof quickFilters.$inferInsert): Promise<QuickFilterRow> {
  const [row] = await db.insert(quickFilters).values(values).returning();

  return row!;
}

export async function updateQuickFilter(
  db: Executor,
  customerId: number,
  id: string,
  values: Partial<typeof quickFilters.$inferInsert>,
): Promise<void> {
  await db
    .update(quickFilters)
    .set(values)
    .where(and(eq(quickFilters.id, id), eq(quickFilters.customerId, customerId)));
}

export async function deleteQuickFilter(db: Executor, row: QuickFilterRow): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, row.customerId),
        eq(teamAssignments.resourceType, 'quickFilter'),
        eq(teamAssignments.resourceId, row.id),
      ),
    );
  await db.delete(quickFilters).where(eq(quickFilters.id, row.id));
}

/** The `QUICK_FILTER` resource-limit usage. */
export async function countQuickFiltersOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(quickFilters).where(eq(quickFilters.customerId, customerId));

  return row?.n ?? 0;
}

const folderTables = { FILE: fileFolders, CONTENT: contentGroups, DEVICE: deviceGroups } as const;

/** True when the folder of the filter's entity type exists in the customer. */
export async function folderExists(db: Executor, type: keyof typeof folderTables, folderId: string, customerId: number): Promise<boolean> {
  const table = folderTables[type];
  const rows = await db
    .select({ one: sql`1` })
    .from(table)
    .where(and(eq(table.id, folderId), eq(table.customerId, customerId)))
    .limit(1);

  return rows.length > 0;
}

/** Whether `usedByChannels` (an SQL boolean over the filter row) holds for the filter `id`. */
export async function isUsedByChannels(tx: Executor, id: string, usedByChannels: SQL): Promise<boolean> {
  const [row] = await tx
    .select({ used: sql<boolean>`${usedByChannels}` })
    .from(quickFilters)
    .where(eq(quickFilters.id, id));

  return row?.used === true;
}
