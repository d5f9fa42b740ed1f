import { and, asc, eq, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { customers } from '@/server/modules/customers/customers.table';
import { files } from '@/server/modules/files/files.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { uploadParts, uploadSessions, type UploadSessionRow } from './uploads.table';

// --- blob cleanup entries (crash safety, see storage.table.ts) -------------------------------------

/** Commits (outside any transaction) the promise to remove `keys` after `notBefore` unless a row claims them. */
export async function insertCleanupEntries(db: Executor, keys: readonly string[], notBefore: Date, reason: string): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insert(blobCleanup)
    .values(keys.map((key) => ({ key, notBefore, reason })))
    .onConflictDoUpdate({ target: blobCleanup.key, set: { notBefore, reason } });
}

export async function deleteCleanupEntries(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(blobCleanup).where(inArray(blobCleanup.key, [...keys]));
}

export async function findDueCleanupEntries(db: Executor, now: Date, limit: number) {
  return db.select().from(blobCleanup).where(lte(blobCleanup.notBefore, now)).orderBy(asc(blobCleanup.notBefore)).limit(limit);
}

/** Removes entries only if still due (a writer may have pushed one back meanwhile). */
export async function deleteDueCleanupEntries(db: Executor, keys: readonly string[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(blobCleanup).where(and(inArray(blobCleanup.key, [...keys]), lte(blobCleanup.notBefore, now)));
}

// --- storage quota ----------------------------------------------------------------------------------

export type QuotaResult = { reserved: true } | { reserved: false; used: number; limit: number };

/**
 * Reserves `bytes` of the customer's `storageSize` in one statement: the row lock serialises concurrent
 * uploads and the condition is re-checked after the wait, so the quota is never exceeded. Call it in
 * the transaction that inserts the file row (its rollback gives the bytes back).
 */
export async function reserveStorage(tx: Executor, customerId: number, bytes: number): Promise<QuotaResult> {
  const rows = await tx
    .update(customers)
    .set({ usedStorageSize: sql`${customers.usedStorageSize} + ${bytes}` })
    .where(and(eq(customers.id, customerId), or(sql`${customers.storageSize} is null`, sql`${customers.usedStorageSize} + ${bytes} <= ${customers.storageSize}`)))
    .returning({ id: customers.id });
  if (rows.length > 0) return { reserved: true };

  return { reserved: false, ...(await storageUsage(tx, customerId)) };
}

/** Whether `bytes` more would fit now (an early check; the reservation is the guarantee). */
export async function storageUsage(db: Executor, customerId: number): Promise<{ used: number; limit: number }> {
  const [row] = await db.select({ used: customers.usedStorageSize, limit: customers.storageSize }).from(customers).where(eq(customers.id, customerId));

  return { used: Number(row?.used ?? 0), limit: row?.limit === null || row?.limit === undefined ? Number.POSITIVE_INFINITY : Number(row.limit) };
}

// --- files ------------------------------------------------------------------------------------------

export async function insertFileRow(tx: Executor, values: typeof files.$inferInsert): Promise<void> {
  await tx.insert(files).values(values);
}

/** The new file gets the parent folder's team assignments (`inheritParentTeams=true`). */
export async function copyFolderTeamsToFile(tx: Executor, input: { folderId: string; fileId: string }): Promise<void> {
  await tx.execute(sql`insert into ${teamAssignments} (team_id, resource_type, resource_id, read_only, customer_id)
    select ${teamAssignments.teamId}, 'file', ${input.fileId}, ${teamAssignments.readOnly}, ${teamAssignments.customerId}
    from ${teamAssignments} where ${teamAssignments.resourceType} = 'fileFolder' and ${teamAssignments.resourceId} = ${input.folderId}
    on conflict do nothing`);
}

export async function touchThumbnail(tx: Executor, input: { fileId: string; customerId: number; at: Date }): Promise<boolean> {
  const rows = await tx
    .update(files)
    .set({ lastPreviewUploadTime: input.at })
    .where(and(eq(files.id, input.fileId), eq(files.customerId, input.customerId)))
    .returning({ id: files.id });

  return rows.length > 0;
}

export type DownloadableFile = { id: string; customerId: number; name: string; contentType: string; size: number; crcCheckSum: string; lastPreviewUploadTime: Date | null };

export async function findDownloadableFile(db: Executor, where: SQL): Promise<DownloadableFile | undefined> {
  const [row] = await db
    .select({
      id: files.id,
      customerId: files.customerId,
      name: files.name,
      contentType: files.contentType,
      size: files.size,
      crcCheckSum: files.crcCheckSum,
      lastPreviewUploadTime: files.lastPreviewUploadTime,
    })
    .from(files)
    .where(where)
    .limit(1);

  return row;
}

export async function existingFileIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: files.id }).from(files).where(inArray(files.id, [...ids]));

  return new Set(rows.map((r) => r.id));
}

// --- upload sessions --------------------------------------------------------------------------------

export async function insertSession(db: Executor, values: typeof uploadSessions.$inferInsert): Promise<UploadSessionRow> {
  const [row] = await db.insert(uploadSessions).values(values).returning();

  return row!;
}

export async function findSession(db: Executor, id: string, scope: SQL | undefined): Promise<UploadSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(uploadSessions)
    .where(and(sql`${uploadSessions.id}::text = ${id}`, scope))
    .limit(1);

  return row;
}

/** Moves a session from one state to another; false when it was not in `from` any more (a race lost). */
export async function transitionSession(db: Executor, id: string, from: UploadSessionRow['state'][], set: Partial<typeof uploadSessions.$inferInsert>): Promise<boolean> {
  const rows = await db
    .update(uploadSessions)
    .set(set)
    .where(and(eq(uploadSessions.id, id), inArray(uploadSessions.state, from)))
    .returning({ id: uploadSessions.id });

  return rows.length > 0;
}

export async function upsertPart(db: Executor, values: typeof uploadParts.$inferInsert): Promise<void> {
  await db
    .insert(uploadParts)
    .values(values)
    .onConflictDoUpdate({
      target: [uploadParts.sessionId, uploadParts.partNumber],
      set: { size: values.size, etag: values.etag, crc32: values.crc32 ?? null, uploadedAt: sql`now()` },
    });
}

export async function findPartRows(db: Executor, sessionId: string) {
  return db.select().from(uploadParts).where(eq(uploadParts.sessionId, sessionId)).orderBy(asc(uploadParts.partNumber));
}

export async function deletePartRows(db: Executor, sessionId: string): Promise<void> {
  await db.delete(uploadParts).where(eq(uploadParts.sessionId, sessionId));
}

/** Open (or stuck completing) sessions past their expiry. */
export async function findExpiredSessions(db: Executor, now: Date, limit: number): Promise<UploadSessionRow[]> {
  return db
    .select()
    .from(uploadSessions)
    .where(and(inArray(uploadSessions.state, ['OPEN', 'COMPLETING']), lt(uploadSessions.expiresAt, now)))
    .orderBy(asc(uploadSessions.expiresAt))
    .limit(limit);
}

/** Finished sessions are kept a while (a repeated complete answers the same file), then dropped. */
export async function deleteFinishedSessions(db: Executor, olderThan: Date): Promise<number> {
  const rows = await db
    .delete(uploadSessions)
    .where(and(inArray(uploadSessions.state, ['COMPLETED', 'CANCELLED']), lt(uploadSessions.expiresAt, olderThan)))
    .returning({ id: uploadSessions.id });

  return rows.length;
}
