import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { clearDefaultContent } from '@/server/modules/content/content.queries';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { customers } from '@/server/modules/customers/customers.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { execRows, uuidArray } from '@/server/db/sql';

export type ContentGroupRow = typeof contentGroups.$inferSelect;

export async function insertContentGroup(db: Executor, values: typeof contentGroups.$inferInsert): Promise<ContentGroupRow> {
  const [row] = await db.insert(contentGroups).values(values).returning();

  return row!;
}

export async function renameContentGroupRow(db: Executor, customerId: number, id: string, name: string): Promise<void> {
  await db.update(contentGroups).set({ name }).where(and(eq(contentGroups.id, id), eq(contentGroups.customerId, customerId)));
}

/** The tenant's root content folder (created with the customer). */
export async function findRootContentGroup(db: Executor, customerId: number): Promise<ContentGroupRow | undefined> {
  const [row] = await db.select().from(contentGroups).where(and(eq(contentGroups.customerId, customerId), isNull(contentGroups.parentId))).limit(1);

  return row;
}

/**
 * One content folder of `where` (by id within a scope, or the root of a customer) with what a write
 * needs to know: whether the caller sees it, reads it only, and may create in it when it is the root.
 */
export async function findContentGroupForWrite(db: Executor, input: { where: SQL | undefined; visible: SQL | undefined; readOnly: SQL; isTeamUser: SQL }) {
  const [row] = await db
    .select({
      id: contentGroups.id,
      customerId: contentGroups.customerId,
      parentId: contentGroups.parentId,
      path: contentGroups.path,
      name: contentGroups.name,
      isTemplateGroup: contentGroups.isTemplateGroup,
      visible: input.visible ?? sql<boolean>`true`,
      readOnly: input.readOnly,
      rootAllowed: sql<boolean>`(not ${input.isTeamUser} or coalesce((select ${customers.contentCreationInRootForTeamUsers} from ${customers} where ${customers.id} = ${contentGroups.customerId}), true))`,
    })
    .from(contentGroups)
    .where(input.where)
    .limit(1);

  return row;
}

/** For each id of a batch: whether it exists in the customer, is visible and is read-only for the caller. */
export async function checkContentGroupBatch(db: Executor, input: { customerId: number; ids: readonly string[]; visible: SQL | undefined; readOnly: SQL }) {
  if (input.ids.length === 0) return [];

  return db
    .select({
      id: contentGroups.id,
      parentId: contentGroups.parentId,
      path: contentGroups.path,
      isTemplateGroup: contentGroups.isTemplateGroup,
      visible: sql<boolean>`${input.visible ?? sql`true`}`,
      readOnly: sql<boolean>`${input.readOnly}`,
    })
    .from(contentGroups)
    .where(and(inArray(contentGroups.id, [...input.ids]), eq(contentGroups.customerId, input.customerId)));
}

export async function checkContentBatch(db: Executor, input: { customerId: number; ids: readonly string[]; visible: SQL | undefined; readOnly: SQL }) {
  if (input.ids.length === 0) return [];

  return db
    .select({
      id: deviceContents.id,
      locked: deviceContents.locked,
      visible: sql<boolean>`${input.visible ?? sql`true`}`,
      readOnly: sql<boolean>`${input.readOnly}`,
    })
    .from(deviceContents)
    .where(and(inArray(deviceContents.id, [...input.ids]), eq(deviceContents.customerId, input.customerId)));
}

/** The path of folder `id` in `customerId`, or undefined. */
export async function findContentGroupPath(db: Executor, customerId: number, id: string): Promise<string[] | undefined> {
  const [row] = await db.select({ path: contentGroups.path }).from(contentGroups).where(and(eq(contentGroups.id, id), eq(contentGroups.customerId, customerId))).limit(1);

  return row?.path;
}

/**
 * Moves folder `folderId` (whose path has `depth` entries) under the folder with path `targetPath`: the
 * folder and every descendant get `targetPath || path[depth:]`, and all content in or below them the same
 * rewrite of `group_path`. Two statements, no row loop.
 */
export async function moveContentGroupSubtree(db: Executor, input: { customerId: number; folderId: string; depth: number; targetId: string; targetPath: readonly string[] }): Promise<void> {
  const { customerId, folderId, depth, targetId } = input;
  const target = uuidArray(input.targetPath);
  const self = uuidArray([folderId]);
  await db.execute(sql`update ${contentGroups} set
      ${sql.identifier('path')} = ${target} || ${contentGroups.path}[${depth}::int:cardinality(${contentGroups.path})],
      ${sql.identifier('parent_id')} = case when ${contentGroups.id} = ${folderId}::uuid then ${targetId}::uuid else ${contentGroups.parentId} end
    where ${contentGroups.customerId} = ${customerId} and ${contentGroups.path} @> ${self}`);
  await db.execute(sql`update ${deviceContents} set ${sql.identifier('group_path')} = ${target} || ${deviceContents.groupPath}[${depth}::int:cardinality(${deviceContents.groupPath})]
    where ${deviceContents.customerId} = ${customerId} and ${deviceContents.groupPath} @> ${self}`);
}

/** Puts content items directly into one folder. */
export async function moveContentTo(db: Executor, input: { customerId: number; contentIds: readonly string[]; targetId: string; targetPath: readonly string[] }): Promise<void> {
  if (input.contentIds.length === 0) return;
  await db
    .update(deviceContents)
    .set({ contentGroupId: input.targetId, groupPath: [...input.targetPath] })
    .where(and(eq(deviceContents.customerId, input.customerId), inArray(deviceContents.id, [...input.contentIds])));
}

/** The first content item in or below `folderIds` for which `blocked` holds (locked, invisible or read-only for the caller). */
export async function findBlockedContentBelow(db: Executor, input: { customerId: number; folderIds: readonly string[]; blocked: SQL }) {
  const [row] = await db
    .select({ id: deviceContents.id, locked: deviceContents.locked })
    .from(deviceContents)
    .where(and(eq(deviceContents.customerId, input.customerId), sql`${deviceContents.groupPath} && ${uuidArray(input.folderIds)}`, input.blocked))
    .limit(1);

  return row;
}

/** The first folder below (not at) `folderId` for which `blocked` holds (invisible or read-only for the caller). */
export async function findBlockedGroupBelow(db: Executor, input: { customerId: number; folderId: string; blocked: SQL }) {
  const [row] = await db
    .select({ id: contentGroups.id })
    .from(contentGroups)
    .where(and(eq(contentGroups.customerId, input.customerId), sql`${contentGroups.path} @> ${uuidArray([input.folderId])}`, sql`${contentGroups.id} <> ${input.folderId}::uuid`, input.blocked))
    .limit(1);

  return row;
}

/**
 * Deletes folder `folderId` and every folder below it. With `removeContents` their content goes too;
 * otherwise it moves into the root folder first. Team assignments of everything deleted go with it.
 * A handful of statements whatever the size of the subtree; answers what was deleted or moved.
 */
export async function deleteContentGroupSubtree(
  db: Executor,
  input: { customerId: number; folderId: string; removeContents: boolean; root: { id: string; path: readonly string[] } },
): Promise<{ folders: number; contentDeleted: number; contentMoved: number }> {
  const { customerId } = input;
  const below = sql`${deviceContents.customerId} = ${customerId} and ${deviceContents.groupPath} @> ${uuidArray([input.folderId])}`;
  let contentDeleted = 0;
  let contentMoved = 0;
  if (input.removeContents) {
    await clearDefaultContent(db, customerId, sql`select ${deviceContents.id} from ${deviceContents} where ${below}`);
    await db.execute(sql`delete from ${teamAssignments} where ${teamAssignments.customerId} = ${customerId} and ${teamAssignments.resourceType} = 'deviceContent'
      and ${teamAssignments.resourceId} in (select ${deviceContents.id}::text from ${deviceContents} where ${below})`);
    const [row] = await execRows(db, sql`with d as (delete from ${deviceContents} where ${below} returning 1) select count(*)::int as n from d`);
    contentDeleted = Number(row?.n ?? 0);
  } else {
    const [row] = await execRows(
      db,
      sql`with m as (update ${deviceContents} set ${sql.identifier('content_group_id')} = ${input.root.id}::uuid, ${sql.identifier('group_path')} = ${uuidArray(input.root.path)}
        where ${below} returning 1) select count(*)::int as n from m`,
    );
    contentMoved = Number(row?.n ?? 0);
  }
  const groupsBelow = sql`${contentGroups.customerId} = ${customerId} and ${contentGroups.path} @> ${uuidArray([input.folderId])}`;
  await db.execute(sql`delete from ${teamAssignments} where ${teamAssignments.customerId} = ${customerId} and ${teamAssignments.resourceType} = 'contentGroup'
    and ${teamAssignments.resourceId} in (select ${contentGroups.id}::text from ${contentGroups} where ${groupsBelow})`);
  const [row] = await execRows(db, sql`with d as (delete from ${contentGroups} where ${groupsBelow} returning 1) select count(*)::int as n from d`);

  return { folders: Number(row?.n ?? 0), contentDeleted, contentMoved };
}

/** Content outside folder `folderId`'s subtree that embeds content inside it (deleting the subtree's content would break it). */
export async function findOutsideEmbedder(db: Executor, customerId: number, folderId: string) {
  const inside = sql`select ${deviceContents.id} from ${deviceContents} where ${deviceContents.customerId} = ${customerId} and ${deviceContents.groupPath} @> ${uuidArray([folderId])}`;
  const [row] = await db
    .select({ id: deviceContents.id, name: deviceContents.name, targetId: contentReferences.targetId })
    .from(contentReferences)
    .innerJoin(deviceContents, eq(deviceContents.id, contentReferences.contentId))
    .where(
      and(
        eq(contentReferences.customerId, customerId),
        eq(contentReferences.targetType, 'content'),
        sql`${contentReferences.targetId} in (${inside})`,
        sql`${contentReferences.contentId} not in (${inside})`,
      ),
    )
    .limit(1);

  return row;
}
