import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { files, type FileRow } from './files.table';

export async function insertFileRow(tx: Executor, values: typeof files.$inferInsert): Promise<void> {
  await tx.insert(files).values(values);
}

/** The file `id` within the tenant scope. */
export async function findFileRow(db: Executor, scope: TenantScope, id: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), scopeCondition(scope, files.customerId)))
    .limit(1);

  return row;
}

export type FileChanges = Partial<Pick<FileRow, 'name' | 'validFrom' | 'validTo' | 'tags' | 'metaData' | 'muted'>>;

export async function updateFileRow(db: Executor, scope: TenantScope, id: string, values: FileChanges): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db
    .update(files)
    .set(values)
    .where(and(eq(files.id, id), scopeCondition(scope, files.customerId)));
}

/**
 * Deletes file rows and their team assignments. The statement trigger on `file` queues the blobs for
 * removal and gives the bytes back to the customer's quota in this transaction.
 */
export async function deleteFileRows(db: Executor, scope: TenantScope, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.resourceType, 'file'),
        inArray(teamAssignments.resourceId, [...ids]),
        scopeCondition(scope, teamAssignments.customerId),
      ),
    );
  await db.delete(files).where(and(inArray(files.id, [...ids]), scopeCondition(scope, files.customerId)));
}

/** Rows changed per customer by a bulk UPDATE on `file` (`set` is the SET list, `where` the whole condition). */
export async function bulkUpdateFiles(db: Executor, set: SQL, where: SQL): Promise<{ customerId: number; count: number }[]> {
  const result =
    await db.execute(sql`with changed as (update ${files} set ${set} where ${where} returning ${files.customerId} as customer_id)
    select customer_id, count(*)::int as count from changed group by customer_id`);
  const rows = (Array.isArray(result) ? result : (result as { rows: Record<string, unknown>[] }).rows) as Record<string, unknown>[];

  return rows.map((r) => ({ customerId: Number(r.customer_id), count: Number(r.count) }));
}

/** Whether any file row matches `where` (a bulk write's precondition). */
export async function anyFileMatches(db: Executor, where: SQL): Promise<boolean> {
  const [row] = await db.select({ id: files.id }).from(files).where(where).limit(1);

  return row !== undefined;
}

/**
 * Copies the team assignments of `fromFileId` onto `toFileId`. `overwrite`: the target ends with exactly
 * the source's assignments; otherwise they are added, and a team both have keeps the target's flag.
 */
export async function copyFileTeams(
  db: Executor,
  input: { fromFileId: string; toFileId: string; customerId: number; overwrite: boolean },
): Promise<void> {
  const ta = teamAssignments;
  if (input.overwrite) await db.delete(ta).where(and(eq(ta.resourceType, 'file'), eq(ta.resourceId, input.toFileId)));
  await db.execute(sql`insert into ${ta} (team_id, resource_type, resource_id, read_only, customer_id)
    select ${ta.teamId}, 'file', ${input.toFileId}, ${ta.readOnly}, ${input.customerId} from ${ta}
    where ${ta.resourceType} = 'file' and ${ta.resourceId} = ${input.fromFileId}
    on conflict do nothing`);
}
