import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray, uuidArrayParam } from '@/server/db/sql';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { contentReferences, deviceContents, type ContentReferenceType, type DeviceContentRow } from './content.table';

export async function insertDeviceContent(db: Executor, values: typeof deviceContents.$inferInsert): Promise<DeviceContentRow> {
  const [row] = await db.insert(deviceContents).values(values).returning();

  return row!;
}

export type ContentChanges = Partial<
  Pick<
    DeviceContentRow,
    'name' | 'comment' | 'data' | 'locked' | 'tags' | 'lastSaved' | 'lastSavedById' | 'lastSavedByEmail' | 'lastSavedByName'
  >
>;

export async function updateDeviceContent(db: Executor, customerId: number, id: string, values: ContentChanges): Promise<void> {
  await db
    .update(deviceContents)
    .set(values)
    .where(and(eq(deviceContents.id, id), eq(deviceContents.customerId, customerId)));
}

/** A customer whose default emergency content is deleted falls back to none (the id would dangle). */
export async function clearDefaultContent(db: Executor, customerId: number, contentIds: SQL): Promise<void> {
  await db.execute(sql`update ${customers} set ${sql.identifier('default_emergency_content_id')} = null
    where ${customers.id} = ${customerId} and ${customers.defaultEmergencyContentId} in (select x::text from (${contentIds}) as d(x))`);
}

/** Deletes one item with its team assignments (its references go by cascade). */
export async function deleteDeviceContent(db: Executor, customerId: number, id: string): Promise<void> {
  await clearDefaultContent(db, customerId, sql`select ${id}::uuid`);
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, customerId),
        eq(teamAssignments.resourceType, 'deviceContent'),
        eq(teamAssignments.resourceId, id),
      ),
    );
  await db.delete(deviceContents).where(and(eq(deviceContents.id, id), eq(deviceContents.customerId, customerId)));
}

/** One item of `where` with whether the caller sees it and reads it only (conditions built by the service). */
export async function findContentForWrite(
  db: Executor,
  input: { where: SQL | undefined; visible: SQL | undefined; readOnly: SQL; lock?: boolean },
) {
  const query = db
    .select({ row: deviceContents, visible: sql<boolean>`${input.visible ?? sql`true`}`, readOnly: sql<boolean>`${input.readOnly}` })
    .from(deviceContents)
    .where(input.where)
    .limit(1);
  // Row lock: two concurrent saves of one item apply one after the other (the second sees the first's lock state).
  const [found] = input.lock ? await query.for('update', { of: deviceContents }) : await query;

  return found;
}

/** Kind and structure of the content ids of `customerId` among `ids`. */
export async function findContentKinds(db: Executor, customerId: number, ids: readonly string[]) {
  if (ids.length === 0) return [];

  return db
    .select({ id: deviceContents.id, deviceContentType: deviceContents.deviceContentType, structureType: deviceContents.structureType })
    .from(deviceContents)
    .where(and(eq(deviceContents.customerId, customerId), inArray(deviceContents.id, [...ids])));
}

/** The ids among `ids` that are files (or file folders) of `customerId`. */
export async function existingIds(
  db: Executor,
  kind: 'file' | 'fileFolder',
  customerId: number,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const table = kind === 'file' ? files : fileFolders;
  // One array parameter: a playlist may name a thousand files.
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.customerId, customerId), sql`${table.id} = any(${uuidArrayParam(ids)})`));

  return new Set(rows.map((r) => r.id));
}

/**
 * Whether `selfId` is reachable from `startIds` through embedded content (the start ids themselves
 * included): saving the item with those references would make it embed itself. One recursive statement.
 */
export async function reachesContent(db: Executor, customerId: number, startIds: readonly string[], selfId: string): Promise<boolean> {
  if (startIds.length === 0) return false;
  const rows = await execRows(
    db,
    sql`with recursive reach(id) as (
        select unnest(${uuidArray(startIds)})
        union
        select ${contentReferences.targetId} from ${contentReferences} join reach on ${contentReferences.contentId} = reach.id
        where ${contentReferences.customerId} = ${customerId} and ${contentReferences.targetType} = 'content'
      ) select 1 as hit from reach where id = ${selfId}::uuid limit 1`,
  );

  return rows.length > 0;
}

/**
 * Makes the references of one item those of its `data`, just written: the stale rows are deleted and the
 * missing ones inserted, so a save that keeps its files (most: a playlist's durations or order change)
 * rewrites no row. The ids are bound as one array each: a playlist of 1 000 items as a multi-row insert
 * bound 4 000 parameters.
 */
export async function writeReferences(
  db: Executor,
  input: { customerId: number; contentId: string; refs: Record<ContentReferenceType, readonly string[]> },
): Promise<void> {
  const rows = (Object.entries(input.refs) as [ContentReferenceType, readonly string[]][]).flatMap(([targetType, ids]) =>
    [...new Set(ids.map((id) => id.toLowerCase()))].map((targetId) => ({ targetType, targetId })),
  );
  if (rows.length === 0) {
    await db.delete(contentReferences).where(eq(contentReferences.contentId, input.contentId));

    return;
  }
  const wanted = sql`unnest(${`{${rows.map((r) => r.targetType).join(',')}}`}::text[], ${uuidArrayParam(rows.map((r) => r.targetId))}) as w(target_type, target_id)`;
  const r = contentReferences;
  await db.execute(sql`delete from ${r} where ${r.contentId} = ${input.contentId}::uuid
    and not exists (select 1 from ${wanted} where w.target_type = ${r.targetType} and w.target_id = ${r.targetId})`);
  await db.execute(sql`insert into ${r} (${sql.identifier('content_id')}, ${sql.identifier('customer_id')}, ${sql.identifier('target_type')}, ${sql.identifier('target_id')})
    select ${input.contentId}::uuid, ${input.customerId}::bigint, w.target_type, w.target_id from ${wanted}
    on conflict do nothing`);
}

/** The content (outside `exceptIds`) that embeds any of `ids`, at most `limit`. */
export async function findEmbedders(db: Executor, customerId: number, ids: readonly string[], exceptIds: SQL | undefined, limit: number) {
  if (ids.length === 0) return [];

  return db
    .selectDistinct({ id: deviceContents.id, name: deviceContents.name, deviceContentType: deviceContents.deviceContentType })
    .from(contentReferences)
    .innerJoin(deviceContents, eq(deviceContents.id, contentReferences.contentId))
    .where(
      and(
        eq(contentReferences.customerId, customerId),
        eq(contentReferences.targetType, 'content'),
        inArray(contentReferences.targetId, [...ids]),
        exceptIds,
      ),
    )
    .limit(limit);
}

/** Usage of each item of `where` by other content: `[{id, name, deviceContentType, usedBy: [...]}]`, at most 1 000 items. */
export async function usageOfMatching(db: Executor, where: SQL) {
  const { table: u } = { table: deviceContents };
  const rows = await execRows<{ id: string; name: string; device_content_type: string; used_by: unknown }>(
    db,
    sql`select c.id, c.name, c.device_content_type,
        coalesce((select jsonb_agg(jsonb_build_object('id', e.id, 'name', e.name, 'deviceContentType', e.device_content_type) order by e.name, e.id)
          from ${contentReferences} r join ${deviceContents} e on e.id = r.content_id
          where r.customer_id = c.customer_id and r.target_type = 'content' and r.target_id = c.id), '[]'::jsonb) as used_by
      from (select ${u.id} as id, ${u.name} as name, ${u.deviceContentType} as device_content_type, ${u.customerId} as customer_id
        from ${deviceContents} where ${where} order by ${u.name}, ${u.id} limit 1000) c`,
  );

  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    deviceContentType: r.device_content_type as 'content' | 'simpleLoop',
    usedBy: r.used_by as { id: string; name: string; deviceContentType: 'content' | 'simpleLoop' }[],
  }));
}

/** Online, offline and total screens showing any item of `where` (through the content assignment plug point). */
export async function onlineOfflineOf(db: Executor, where: SQL, devicesOf: (contentId: SQL) => SQL) {
  const [row] = await execRows<{ online: number; total: number }>(
    db,
    sql`select count(distinct d.device_id) filter (where d.online)::int as online, count(distinct d.device_id)::int as total
      from ${deviceContents} cross join lateral (${devicesOf(sql`${deviceContents.id}`)}) d where ${where}`,
  );
  const online = Number(row?.online ?? 0);
  const total = Number(row?.total ?? 0);

  return { online, offline: total - online, total };
}

/** Tags of the matching items changed in one statement; answers the count per customer. */
export async function bulkUpdateContent(db: Executor, set: SQL, where: SQL): Promise<{ customerId: number; count: number }[]> {
  const rows = await execRows<{ customer_id: number; n: number }>(
    db,
    sql`with u as (update ${deviceContents} set ${set} where ${where} returning ${deviceContents.customerId}) select customer_id, count(*)::int as n from u group by customer_id`,
  );

  return rows.map((r) => ({ customerId: Number(r.customer_id), count: Number(r.n) }));
}

export async function anyContentMatches(db: Executor, where: SQL): Promise<boolean> {
  const rows = await db.select({ id: deviceContents.id }).from(deviceContents).where(where).limit(1);

  return rows.length > 0;
}
