import { sql } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import { deviceContents } from '@/server/modules/content/content.table';
import {
  assertBatchWritable,
  assertSubtreeFoldersWritable,
  blockedForTeams,
  checkFolderBatch,
  checkItemBatch,
  findItemBelow,
  moveFolderSubtrees,
  moveItemsInto,
  uniqueSiblingName,
} from '@/server/modules/folders';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { isAboveTeams, readOnlyExpression, teamAccessCondition } from '@/server/modules/teams';
import type { ContentGroup, ContentGroupMove } from './content-groups.schemas';
import { deleteContentGroupSubtree, findOutsideEmbedder } from './content-groups.queries';
import { assertMovable, auditContentGroup, readContentGroup } from './content-groups.service';
import { contentFolderItems, contentGroupAccess, contentGroupTree, findWritableContentGroup } from '@/server/modules/content';

type Caller = Pick<ServiceContext, 'actor'>;

const contentAccess = (ctx: Caller) => teamAccessCondition(ctx, 'deviceContent', deviceContents.id);

/** Locked content refuses every change (spec 2), a move or a delete included: 409 `content.error.locked`. */
function lockedError(id: string): ConflictError {
  return new ConflictError('content.error.locked', 'Locked content cannot be changed; an approver unlocks it first', { id });
}

/**
 * Every id of a move must exist in the target's customer and be visible (404, never revealing another
 * tenant's ids) and writable for the caller's teams (403 `team.error.readOnly`). One statement per kind.
 */
async function checkedMove(tx: Executor, ctx: ServiceContext, customerId: number, body: ContentGroupMove) {
  const groupIds = [...new Set(body.contentGroupIds)];
  const contentIds = [...new Set(body.contentIds)];
  const groups = await checkFolderBatch(
    tx,
    contentGroups,
    { customerId, ids: groupIds, visible: contentGroupAccess(ctx), readOnly: readOnlyExpression(ctx, 'contentGroup', contentGroups.id) },
    { isTemplateGroup: contentGroups.isTemplateGroup },
  );
  const contents = await checkItemBatch(
    tx,
    contentFolderItems,
    { customerId, ids: contentIds, visible: contentAccess(ctx), readOnly: readOnlyExpression(ctx, 'deviceContent', deviceContents.id) },
    { locked: deviceContents.locked },
  );
  assertBatchWritable('contentGroup', groupIds, groups);
  assertBatchWritable('deviceContent', contentIds, contents);
  const locked = contents.find((c) => c.locked);
  if (locked) throw lockedError(locked.id);
  for (const group of groups) assertMovable(group, 'moved');

  return { groups, contentIds };
}

/** POST /api/contentGroup/move: folders (with everything below them) and content into one folder, in one transaction. */
export async function moveToContentGroup(ctx: ServiceContext, body: ContentGroupMove): Promise<ContentGroup> {
  return uniqueSiblingName(contentGroupTree, undefined, () =>
    withTransaction(ctx.db, async (tx) => {
      const target = await findWritableContentGroup(tx, ctx, { id: body.targetGroupId, creatingIn: true });
      const { groups, contentIds } = await checkedMove(tx, ctx, target.customerId, body);
      await moveFolderSubtrees(tx, contentGroupTree, { customerId: target.customerId, folderIds: groups.map((g) => g.id), target });
      await moveItemsInto(tx, contentFolderItems, { customerId: target.customerId, ids: contentIds, target });
      await auditChange(tx, ctx, {
        entityType: 'contentGroup',
        action: 'move',
        entityId: target.id,
        entityName: target.parentId === null ? undefined : target.name,
        customerId: target.customerId,
        message: `${contentIds.length} content item(s) and ${groups.length} folder(s) moved into content folder '${target.parentId === null ? 'root' : target.name}'`,
        changes: { targetGroupId: target.id, contentIds, contentGroupIds: groups.map((g) => g.id) },
      });

      return readContentGroup(tx, ctx, target.id);
    }),
  );
}

/**
 * DELETE /api/contentGroup/{id}?removeContents=: the folder and every folder below it; their content is
 * deleted (`true`) or moved into the root folder (`false`). The root and the Templates folder: 409.
 */
export async function deleteContentGroup(ctx: ServiceContext, id: string, removeContents: boolean): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const folder = await findWritableContentGroup(tx, ctx, { id, creatingIn: false });
    assertMovable(folder, 'deleted');
    await assertSubtreeChangeable(tx, ctx, folder, removeContents);
    // The root is the first folder of every path.
    const rootId = folder.path[0]!;
    const result = await deleteContentGroupSubtree(tx, {
      customerId: folder.customerId,
      folderId: folder.id,
      removeContents,
      root: { id: rootId, path: [rootId] },
    });
    const what = removeContents
      ? `${result.contentDeleted} content item(s) deleted`
      : `${result.contentMoved} content item(s) moved to the root folder`;
    await auditContentGroup(
      tx,
      ctx,
      folder,
      'delete',
      `Content folder '${folder.name}' deleted with ${result.folders - 1} sub-folder(s); ${what}`,
      { ...result, removeContents },
    );
  });
}

/**
 * A team user deletes a folder only when every folder below it is visible and writable for its teams,
 * and, when the content goes too, every content item below it. Locked content is never deleted (409).
 */
async function assertSubtreeChangeable(
  tx: Executor,
  ctx: ServiceContext,
  folder: { id: string; customerId: number },
  removeContents: boolean,
): Promise<void> {
  await assertSubtreeFoldersWritable(tx, ctx, contentGroupTree, { customerId: folder.customerId, folderIds: [folder.id] });
  if (!removeContents) return;
  const teamBlocked = isAboveTeams(ctx.actor)
    ? sql`false`
    : blockedForTeams(contentAccess(ctx), readOnlyExpression(ctx, 'deviceContent', deviceContents.id));
  const content = await findItemBelow(
    tx,
    contentFolderItems,
    { customerId: folder.customerId, folderIds: [folder.id], blocked: sql`(${deviceContents.locked} or ${teamBlocked})` },
    { locked: deviceContents.locked },
  );
  if (content) {
    if (content.locked) throw lockedError(content.id);
    throw new ForbiddenError('The folder contains content your teams may not change', 'team.error.readOnly', {
      resourceType: 'deviceContent',
      id: content.id,
    });
  }
  const embedder = await findOutsideEmbedder(tx, folder.customerId, folder.id);
  if (embedder) {
    throw new ConflictError(
      'content.error.inUse',
      `Content in the folder is embedded in '${embedder.name}', outside it; remove it there first`,
      { usedBy: [{ id: embedder.id, name: embedder.name }], id: embedder.targetId },
    );
  }
}
