import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArrayParam } from '@/server/db/sql';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { datasourceData, datasources, type DatasourceDataRow, type DatasourceRow, type RemoteValidators } from './datasources.table';

type DatasourceValues = typeof datasources.$inferInsert;

/** The datasource `id` within the scope, locked until commit: writes to one datasource (and its data) serialise. */
export async function lockDatasource(db: Executor, scope: TenantScope, id: string): Promise<DatasourceRow | undefined> {
  const [row] = await db
    .select()
    .from(datasources)
    .where(and(eq(datasources.id, id), scopeCondition(scope, datasources.customerId)))
    .limit(1)
    .for('update');

  return row;
}

/** The datasource `id` within the scope, unlocked (reads). */
export async function findDatasource(db: Executor, scope: TenantScope, id: string): Promise<DatasourceRow | undefined> {
  const [row] = await db
    .select()
    .from(datasources)
    .where(and(eq(datasources.id, id), scopeCondition(scope, datasources.customerId)))
    .limit(1);

  return row;
}

/** The datasource by id alone (jobs, which act for every tenant), locked until commit. */
export async function lockDatasourceById(db: Executor, id: string): Promise<DatasourceRow | undefined> {
  const [row] = await db.select().from(datasources).where(eq(datasources.id, id)).limit(1).for('update');

  return row;
}

export async function insertDatasource(db: Executor, values: DatasourceValues): Promise<DatasourceRow> {
  const [row] = await db.insert(datasources).values(values).returning();

  return row!;
}

export async function updateDatasource(
  db: Executor,
  row: Pick<DatasourceRow, 'id' | 'customerId'>,
  values: Partial<DatasourceValues>,
): Promise<void> {
  await db
    .update(datasources)
    .set({ ...values, lastSavedAt: new Date() })
    .where(and(eq(datasources.id, row.id), eq(datasources.customerId, row.customerId)));
}

/** Writes what a refresh or a data write left behind, without touching `last_saved_at` (no one edited the datasource). */
export async function recordDatasourceState(db: Executor, id: string, values: Partial<DatasourceValues>): Promise<void> {
  await db.update(datasources).set(values).where(eq(datasources.id, id));
}

/** Deletes the datasource with its data and team assignments. */
export async function deleteDatasource(db: Executor, row: DatasourceRow): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, row.customerId),
        eq(teamAssignments.resourceType, 'datasource'),
        eq(teamAssignments.resourceId, row.id),
      ),
    );
  await db.delete(datasources).where(and(eq(datasources.id, row.id), eq(datasources.customerId, row.customerId)));
}

/** The content items that use the datasource (at most `limit`, by name), for the in-use refusal. */
export async function contentUsing(db: Executor, row: Pick<DatasourceRow, 'id' | 'customerId'>, limit: number) {
  return db
    .select({ id: deviceContents.id, name: deviceContents.name })
    .from(contentReferences)
    .innerJoin(deviceContents, eq(deviceContents.id, contentReferences.contentId))
    .where(
      and(
        eq(contentReferences.customerId, row.customerId),
        eq(contentReferences.targetType, 'datasource'),
        eq(contentReferences.targetId, row.id),
      ),
    )
    .orderBy(deviceContents.name)
    .limit(limit);
}

/**
 * Which of `ids` are datasources of the customer, locked `for key share` until commit: content saving a reference
 * to them and a delete of them serialise (the delete's row lock waits, then sees the reference).
 */
export async function lockExistingDatasources(db: Executor, customerId: number, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await execRows<{ id: string }>(
    db,
    sql`select id::text as id from ${datasources} where customer_id = ${customerId} and id = any(${uuidArrayParam(ids)}) order by id for key share`,
  );

  return new Set(rows.map((r) => r.id));
}

export async function countDatasourcesOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(datasources).where(eq(datasources.customerId, customerId));

  return row?.n ?? 0;
}

export async function findDocument(db: Executor, datasourceId: string): Promise<DatasourceDataRow | undefined> {
  const [row] = await db.select().from(datasourceData).where(eq(datasourceData.datasourceId, datasourceId)).limit(1);

  return row;
}

/** The document's hash alone (the device read's ETag check), without reading the document. */
export async function findDocumentHash(db: Executor, datasourceId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ hash: datasourceData.hash })
    .from(datasourceData)
    .where(eq(datasourceData.datasourceId, datasourceId))
    .limit(1);

  return row?.hash;
}

export async function upsertDocument(
  db: Executor,
  values: { datasourceId: string; customerId: number; document: unknown; hash: string; size: number; validators: RemoteValidators | null },
): Promise<void> {
  const now = new Date();
  await db
    .insert(datasourceData)
    .values({ ...values, updatedAt: now })
    .onConflictDoUpdate({
      target: datasourceData.datasourceId,
      set: { document: values.document, hash: values.hash, size: values.size, validators: values.validators, updatedAt: now },
    });
}

/** Keeps the document, replacing the validators the remote sent with it (a 304, or an unchanged body). */
export async function updateValidators(db: Executor, datasourceId: string, validators: RemoteValidators | null): Promise<void> {
  await db.update(datasourceData).set({ validators }).where(eq(datasourceData.datasourceId, datasourceId));
}

/** Bytes of every datasource document of the customer (`currentDatasourceStorageSize`), as SQL correlated with `customerId`. */
export function datasourceStorageSql(customerId: ReturnType<typeof sql>) {
  return sql`(select coalesce(sum(${datasourceData.size}), 0) from ${datasourceData} where ${datasourceData.customerId} = ${customerId})`;
}

/** A quick filter of the customer (id and entity type), or undefined. */
export async function findQuickFilter(db: Executor, customerId: number, id: string) {
  const [row] = await db
    .select({ id: quickFilters.id, filteredEntityType: quickFilters.filteredEntityType })
    .from(quickFilters)
    .where(and(eq(quickFilters.id, id), eq(quickFilters.customerId, customerId)))
    .limit(1);

  return row;
}

/** A file folder of the customer (a FILE_FROM_URL datasource's target), or undefined. */
export async function findFileFolder(db: Executor, customerId: number, id: string) {
  const [row] = await db
    .select({ id: fileFolders.id, customerId: fileFolders.customerId, path: fileFolders.path, fileFolderType: fileFolders.fileFolderType })
    .from(fileFolders)
    .where(and(eq(fileFolders.id, id), eq(fileFolders.customerId, customerId)))
    .limit(1);

  return row;
}

/** A file of the customer (a FILE_FROM_URL datasource's current file): what its replacement carries over. */
export async function findFileOf(db: Executor, customerId: number, id: string) {
  const [row] = await db
    .select({
      id: files.id,
      fileFolderId: files.fileFolderId,
      tags: files.tags,
      validFrom: files.validFrom,
      validTo: files.validTo,
      muted: files.muted,
      metaData: files.metaData,
    })
    .from(files)
    .where(and(sql`${files.id}::text = ${id}`, eq(files.customerId, customerId)))
    .limit(1);

  return row;
}

/** Whether the datasource passes `condition` (the caller's team visibility). */
export async function isVisible(db: Executor, id: string, condition: SQL): Promise<boolean> {
  const [row] = await db
    .select({ id: datasources.id })
    .from(datasources)
    .where(and(eq(datasources.id, id), condition))
    .limit(1);

  return row !== undefined;
}

/** A quick filter's criteria (the FILES datasource's), or undefined. */
export async function findQuickFilterCriteria(db: Executor, customerId: number, id: string) {
  const [row] = await db
    .select({ filteredEntityType: quickFilters.filteredEntityType, criteria: quickFilters.criteria })
    .from(quickFilters)
    .where(and(eq(quickFilters.id, id), eq(quickFilters.customerId, customerId)))
    .limit(1);

  return row;
}

/** The FILES datasource's document: the customer's files passing `condition` (its quick filter), by name. */
export async function findFilesMatching(db: Executor, input: { customerId: number; condition: SQL; limit: number }) {
  return db
    .select({
      id: files.id,
      name: files.name,
      contentType: files.contentType,
      width: files.width,
      height: files.height,
      duration: sql<
        number | null
      >`case when jsonb_typeof(${files.metaData}->'duration') = 'number' then (${files.metaData}->>'duration')::float8 end`,
      url: sql<string>`'/api/storage/customer/' || ${files.customerId}::text || '/files/' || ${files.id}::text`,
    })
    .from(files)
    .where(and(eq(files.customerId, input.customerId), input.condition))
    .orderBy(asc(files.name), asc(files.id))
    .limit(input.limit);
}

/** The DEVICES datasource's document: the customer's devices by name, with the names of their folders' path. */
export async function findDevicesOf(db: Executor, input: { customerId: number; limit: number }) {
  return db
    .select({
      id: devices.id,
      name: devices.name,
      deviceStatus: devices.deviceStatus,
      lastActivity: sql<number | null>`(extract(epoch from ${devices.lastActivity}) * 1000)::bigint`,
      folderPath: sql<string>`coalesce((select string_agg(g.name, '/' order by array_position(${devices.groupPath}, g.id))
                                from ${deviceGroups} g where g.id = any(${devices.groupPath})), '')`,
    })
    .from(devices)
    .where(eq(devices.customerId, input.customerId))
    .orderBy(asc(devices.name), asc(devices.id))
    .limit(input.limit);
}

/** The datasource by id alone (jobs), unlocked. */
export async function findDatasourceById(db: Executor, id: string): Promise<DatasourceRow | undefined> {
  const [row] = await db.select().from(datasources).where(eq(datasources.id, id)).limit(1);

  return row;
}

/**
 * Claims up to `limit` due external datasources for this instance (spec 5 §2 "Refresh"): their `next_refresh_at`
 * moves forward by `leaseMs` in the same statement, and `skip locked` leaves rows another instance is claiming
 * to it, so several instances never take one datasource twice. Uses the partial index on `next_refresh_at`.
 */
/** When the next external datasource falls due (the earliest `next_refresh_at` the claim would take), if any. */
export async function nextDueRefreshAt(db: Executor): Promise<Date | undefined> {
  const [row] = await execRows<{ due: string | Date | null }>(
    db,
    sql`select min(next_refresh_at) as due from ${datasources}
         where next_refresh_at is not null and source_type = 'EXTERNAL' and not deactivated`,
  );

  return row?.due ? new Date(row.due) : undefined;
}

export async function claimDueDatasources(db: Executor, input: { limit: number; leaseMs: number; now?: Date }): Promise<string[]> {
  const { limit } = input;
  if (limit <= 0) return [];
  const now = input.now ?? new Date();
  const leaseUntil = new Date(now.getTime() + input.leaseMs);
  const rows = await execRows<{ id: string }>(
    db,
    sql`update ${datasources} set next_refresh_at = ${leaseUntil.toISOString()}::timestamptz
         where id in (select id from ${datasources}
                       where next_refresh_at is not null and next_refresh_at <= ${now.toISOString()}::timestamptz
                         and source_type = 'EXTERNAL' and not deactivated
                       order by next_refresh_at limit ${limit}
                       for update skip locked)
         returning id::text as id`,
  );

  return rows.map((r) => r.id);
}

/**
 * Makes the refreshes of the customer's active external datasources (those `writable` admits) due at `now`, locking
 * the rows in id order first (two such calls at once never deadlock). Answers how many.
 */
export async function makeRefreshesDue(db: Executor, input: { customerId: number; writable: SQL | undefined; now: Date }): Promise<number> {
  const due = db
    .select({ id: datasources.id })
    .from(datasources)
    .where(
      and(
        eq(datasources.customerId, input.customerId),
        eq(datasources.sourceType, 'EXTERNAL'),
        eq(datasources.deactivated, false),
        input.writable,
      ),
    )
    .orderBy(asc(datasources.id))
    .for('update');
  const rows = await db
    .update(datasources)
    .set({ nextRefreshAt: input.now })
    .where(inArray(datasources.id, due))
    .returning({ id: datasources.id });

  return rows.length;
}
