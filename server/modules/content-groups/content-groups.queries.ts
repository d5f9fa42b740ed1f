import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { clearDefaultContent, contentGroupTree } from '@/server/modules/content';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { deleteFolderSubtrees } from '@/server/modules/folders';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { execRows, uuidArray } from '@/server/db/sql';

export type ContentGroupRow = typeof contentGroups.$inferSelect;

export async function insertContentGroup(db: Executor, values: typeof contentGroups.$inferInsert): Promise<ContentGroupRow> {
  const [row] = await db.insert(contentGroups).values(values).returning();

  return row!;
}

export async function renameContentGroupRow(db: Executor, customerId: number, id: string, name: string): Promise<void> {
  await db
    .update(contentGroups)
    .set({ name })
    .where(and(eq(contentGroups.id, id), eq(contentGroups.customerId, customerId)));
}

/** For each id of a batch: whether it exists in the customer, is visible and is read-only for the caller. */
export async function checkContentGroupBatch(
  db: Executor,
  input: { customerId: number; ids: readonly string[]; visible: SQL | undefined; readOnly: SQL },
) {
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

export async function checkContentBatch(
  db: Executor,
  input: { customerId: number; ids: readonly string[]; visible: SQL | undefined; readOnly: SQL },
) {
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

/** Puts content items directly into one folder. */
export async function moveContentTo(
  db: Executor,
  input: { customerId: number; contentIds: readonly string[]; targetId: string; targetPath: readonly string[] },
): Promise<void> {
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
    .where(
      and(
        eq(deviceContents.customerId, input.customerId),
        sql`${deviceContents.groupPath} && ${uuidArray(input.folderIds)}`,
        input.blocked,
      ),
    )
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
    const [row] = await execRows(
      db,
      sql`with d as (delete from ${deviceContents} where ${below} returning 1) select count(*)::int as n from d`,
    );
    contentDeleted = Number(row?.n ?? 0);
  } else {
    const [row] = await execRows(
      db,
      sql`with m as (update ${deviceContents} set ${sql.identifier('content_group_id')} = ${input.root.id}::uuid, ${sql.identifier('group_path')} = ${uuidArray(input.root.path)}
        where ${below} returning 1) select count(*)::int as n from m`,
    );
    contentMoved = Number(row?.n ?? 0);
  }
  const folders = await deleteFolderSubtrees(db, contentGroupTree, { customerId, folderIds: [input.folderId] });

  return { folders, contentDeleted, contentMoved };
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
