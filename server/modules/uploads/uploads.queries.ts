import { and, asc, eq, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { COMPLETION_LEASE_MS } from './uploads.rules';
import { uploadParts, uploadSessions, type UploadSessionRow } from './uploads.table';

// --- storage quota ----------------------------------------------------------------------------------

export type QuotaResult = { reserved: true } | { reserved: false; used: number; limit: number };

/** Open (and completing) upload sessions hold their declared size against the quota until they end. */
const holdsReservation = sql`${uploadSessions.state} in ('OPEN', 'COMPLETING')`;

async function reservedBySessions(db: Executor, customerId: number, exceptSessionId: string | undefined): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${uploadSessions.size}), 0)` })
    .from(uploadSessions)
    .where(
      and(
        eq(uploadSessions.customerId, customerId),
        holdsReservation,
        exceptSessionId ? ne(uploadSessions.id, exceptSessionId) : undefined,
      ),
    );

  return Number(row?.bytes ?? 0);
}

/**
 * What counts against the customer's `storageSize`: its files' bytes (`used_storage_size`) plus the
 * declared sizes of its open upload sessions (but `exceptSessionId`'s, which is turning into a file).
 * `lock` takes the customer row's lock first, which serialises every quota decision of the customer, so
 * the sessions counted in the next statement include every one committed before (READ COMMITTED).
 */
async function quotaUsage(
  db: Executor,
  customerId: number,
  options: { lock: boolean; exceptSessionId?: string },
): Promise<{ files: number; used: number; limit: number }> {
  const query = db
    .select({ used: customers.usedStorageSize, limit: customers.storageSize })
    .from(customers)
    .where(eq(customers.id, customerId));
  const [row] = options.lock ? await query.for('update') : await query;
  const limit = row?.limit === null || row?.limit === undefined ? Number.POSITIVE_INFINITY : Number(row.limit);
  const files = Number(row?.used ?? 0);
  if (limit === Number.POSITIVE_INFINITY) return { files, used: files, limit };

  return { files, used: files + (await reservedBySessions(db, customerId, options.exceptSessionId)), limit };
}

/**
 * Adds a new file's `bytes` to the customer's `used_storage_size` if they fit beside the files and the
 * open upload sessions (`sessionId`: the session this file completes, whose reservation it takes over).
 * Call it in the transaction that inserts the file row (its rollback gives the bytes back).
 */
export async function reserveStorage(tx: Executor, customerId: number, bytes: number, sessionId?: string): Promise<QuotaResult> {
  const usage = await quotaUsage(tx, customerId, { lock: true, exceptSessionId: sessionId });
  if (usage.used + bytes > usage.limit) return { reserved: false, used: usage.used, limit: usage.limit };
  await tx
    .update(customers)
    .set({ usedStorageSize: sql`${customers.usedStorageSize} + ${bytes}` })
    .where(eq(customers.id, customerId));

  return { reserved: true };
}

/**
 * Whether an upload session of `bytes` fits. With `lock` (inside the transaction that inserts the
 * session row) the answer holds until that transaction ends: the row itself is the reservation.
 */
export async function sessionFits(db: Executor, customerId: number, bytes: number, lock: boolean): Promise<QuotaResult> {
  const usage = await quotaUsage(db, customerId, { lock });

  return usage.used + bytes > usage.limit ? { reserved: false, used: usage.used, limit: usage.limit } : { reserved: true };
}

/** Files and reservations against the limit, without locking (an early check; the reservation is the guarantee). */
export async function storageUsage(db: Executor, customerId: number, exceptSessionId?: string): Promise<{ used: number; limit: number }> {
  const { used, limit } = await quotaUsage(db, customerId, { lock: false, exceptSessionId });

  return { used, limit };
}

// --- files ------------------------------------------------------------------------------------------

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

export type DownloadableFile = {
  id: string;
  customerId: number;
  name: string;
  contentType: string;
  size: number;
  crcCheckSum: string;
  lastPreviewUploadTime: Date | null;
};

const downloadableColumns = {
  id: files.id,
  customerId: files.customerId,
  name: files.name,
  contentType: files.contentType,
  size: files.size,
  crcCheckSum: files.crcCheckSum,
  lastPreviewUploadTime: files.lastPreviewUploadTime,
};

/**
 * For a URL signed for a device (the manifest's): whether the device still exists in `customerId` and its
 * customer is restricted, with the file `fileId` of that customer (undefined: no such file). Undefined when
 * the device is gone. One statement of primary-key probes, like the file's own look-up.
 */
export async function findDownloadableFileForDevice(
  db: Executor,
  input: { customerId: number; fileId: string; deviceId: string },
): Promise<{ customerRestricted: boolean; file: DownloadableFile | undefined } | undefined> {
  const [row] = await db
    .select({ customerRestricted: customers.restricted, file: downloadableColumns })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .leftJoin(files, and(eq(files.id, input.fileId), eq(files.customerId, devices.customerId)))
    .where(and(eq(devices.id, input.deviceId), eq(devices.customerId, input.customerId)))
    .limit(1);

  return row && { customerRestricted: row.customerRestricted, file: row.file ?? undefined };
}

/** The file `id` within the scope (and `visible`, when given), with what a download needs. */
export async function findDownloadableFile(
  db: Executor,
  scope: TenantScope,
  id: string,
  visible?: SQL,
): Promise<DownloadableFile | undefined> {
  const [row] = await db
    .select(downloadableColumns)
    .from(files)
    .where(and(sql`${files.id}::text = ${id.toLowerCase()}`, scopeCondition(scope, files.customerId), visible))
    .limit(1);

  return row;
}

export async function existingFileIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: files.id })
    .from(files)
    .where(inArray(files.id, [...ids]));

  return new Set(rows.map((r) => r.id));
}

// --- upload sessions --------------------------------------------------------------------------------

export async function insertSession(db: Executor, values: typeof uploadSessions.$inferInsert): Promise<UploadSessionRow> {
  const [row] = await db.insert(uploadSessions).values(values).returning();

  return row!;
}

export async function findSession(db: Executor, scope: TenantScope, id: string): Promise<UploadSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(uploadSessions)
    .where(and(sql`${uploadSessions.id}::text = ${id}`, scopeCondition(scope, uploadSessions.customerId)))
    .limit(1);

  return row;
}

/** A session's id with its tenant: every change of a session row names both. */
export type SessionKey = Pick<UploadSessionRow, 'id' | 'customerId'>;

const sessionIs = (session: SessionKey) => and(eq(uploadSessions.id, session.id), eq(uploadSessions.customerId, session.customerId));

// --- completion claims (a lease kept alive while a complete runs; docs/decisions.md) ---------------

/** A COMPLETING claim not renewed within the lease: its completer died (crash, kill -9, lost instance). */
const staleClaim = sql`(${uploadSessions.state} = 'COMPLETING' and ${uploadSessions.completingSince} < now() - ${sql.raw(`interval '${COMPLETION_LEASE_MS} milliseconds'`)})`;
/** The session takes parts, recover, cancel and complete: open, or completing by a completer that died. */
const openOrStale = or(eq(uploadSessions.state, 'OPEN'), staleClaim)!;

/** Claims a session for completion (OPEN, or a stale claim taken over); answers the claim's token. */
export async function claimCompletion(db: Executor, session: SessionKey): Promise<Date | undefined> {
  const [row] = await db
    .update(uploadSessions)
    .set({ state: 'COMPLETING', completingSince: sql`now()` })
    .where(and(sessionIs(session), openOrStale, sql`${uploadSessions.expiresAt} > now()`))
    .returning({ token: uploadSessions.completingSince });

  return row?.token ?? undefined;
}

/** Renews a live claim; undefined when it was taken over or ended (the completer then must not finish). */
export async function renewCompletion(db: Executor, session: SessionKey, token: Date): Promise<Date | undefined> {
  const [row] = await db
    .update(uploadSessions)
    .set({ completingSince: sql`now()` })
    .where(and(sessionIs(session), eq(uploadSessions.state, 'COMPLETING'), eq(uploadSessions.completingSince, token)))
    .returning({ token: uploadSessions.completingSince });

  return row?.token ?? undefined;
}

/** Ends the claim `token` (COMPLETED, back to OPEN, or CANCELLED); false when it is not ours any more. */
export async function endCompletion(
  db: Executor,
  session: SessionKey,
  token: Date,
  set: Partial<typeof uploadSessions.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(uploadSessions)
    .set({ completingSince: null, ...set })
    .where(and(sessionIs(session), eq(uploadSessions.state, 'COMPLETING'), eq(uploadSessions.completingSince, token)))
    .returning({ id: uploadSessions.id });

  return rows.length > 0;
}

/** Moves an open session (or one whose completer died) to `set`; false when it is neither. */
export async function transitionOpenSession(
  db: Executor,
  session: SessionKey,
  set: Partial<typeof uploadSessions.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(uploadSessions)
    .set({ completingSince: null, ...set })
    .where(and(sessionIs(session), openOrStale))
    .returning({ id: uploadSessions.id });

  return rows.length > 0;
}

/** Locks the session row and answers whether it takes parts now (open, unexpired; a dead completer's counts as open). */
export async function lockSessionForPart(
  tx: Executor,
  session: SessionKey,
): Promise<(Pick<UploadSessionRow, 'state' | 'completingSince' | 'expiresAt'> & { takesParts: boolean }) | undefined> {
  const [row] = await tx
    .select({
      state: uploadSessions.state,
      completingSince: uploadSessions.completingSince,
      expiresAt: uploadSessions.expiresAt,
      takesParts: sql<boolean>`(${openOrStale}) and ${uploadSessions.expiresAt} > now()`,
    })
    .from(uploadSessions)
    .where(sessionIs(session))
    .for('update');

  return row;
}

/** Start-up / job sweep: claims whose completer died go back to OPEN (complete, recover and cancel work again). */
export async function releaseStaleCompletions(db: Executor): Promise<number> {
  const rows = await db
    .update(uploadSessions)
    .set({ state: 'OPEN', completingSince: null })
    .where(staleClaim)
    .returning({ id: uploadSessions.id });

  return rows.length;
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

/** Open sessions (or ones whose completer died) past their expiry; a complete still running is left to finish. */
export async function findExpiredSessions(db: Executor, now: Date, limit: number): Promise<UploadSessionRow[]> {
  return db
    .select()
    .from(uploadSessions)
    .where(and(openOrStale, lt(uploadSessions.expiresAt, now)))
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
