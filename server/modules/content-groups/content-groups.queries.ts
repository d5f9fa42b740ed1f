import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { clearDefaultContent, contentFolderItems, contentGroupTree } from '@/server/modules/content';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { deleteFolderSubtrees, deleteItemsBelow, itemIdsBelow, moveItemsOutOf } from '@/server/modules/folders';

/*
 * The content folders' own queries; their row queries (insert, rename, batch checks, moving and deleting the
 * content below a folder) are the folders module's (folders.queries.ts), called with `contentGroups` and
 * `contentFolderItems`.
 */

/**
 * Deletes folder `folderId` and every folder below it. With `removeContents` their content goes too;
 * otherwise it moves into the root folder first. Team assignments of everything deleted go with it.
 * A handful of statements whatever the size of the subtree; answers what was deleted or moved.
 */
export async function deleteContentGroupSubtree(
  db: Executor,
  input: { customerId: number; folderId: string; removeContents: boolean; root: { id: string; path: readonly string[] } },
): Promise<{ folders: number; contentDeleted: number; contentMoved: number }> {
  const { customerId, folderId } = input;
  let contentDeleted = 0;
  let contentMoved = 0;
  if (input.removeContents) {
    await clearDefaultContent(db, customerId, itemIdsBelow(contentFolderItems, customerId, [folderId]));
    contentDeleted = await deleteItemsBelow(db, contentFolderItems, { customerId, folderIds: [folderId] });
  } else {
    contentMoved = await moveItemsOutOf(db, contentFolderItems, { customerId, folderId, target: input.root });
  }
  const folders = await deleteFolderSubtrees(db, contentGroupTree, { customerId, folderIds: [folderId] });

  return { folders, contentDeleted, contentMoved };
}

/** Content outside folder `folderId`'s subtree that embeds content inside it (deleting the subtree's content would break it). */
export async function findOutsideEmbedder(db: Executor, customerId: number, folderId: string) {
  const inside = itemIdsBelow(contentFolderItems, customerId, [folderId]);
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
