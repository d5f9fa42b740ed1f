import { sql } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError } from '@/server/errors';
import { auditChange } from '@/server/modules/audit-log';
import { deviceContents } from '@/server/modules/content/content.table';
import { assertSubtreeFoldersWritable, blockedForTeams, moveFolderSubtrees } from '@/server/modules/folders';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { isAboveTeams, readOnlyExpression, teamAccessCondition } from '@/server/modules/teams';
import type { ContentGroup, ContentGroupMove } from './content-groups.schemas';
import {
  checkContentBatch,
  checkContentGroupBatch,
  deleteContentGroupSubtree,
  findBlockedContentBelow,
  findOutsideEmbedder,
  moveContentTo,
} from './content-groups.queries';
import { assertMovable, auditContentGroup, readContentGroup, uniqueContentGroupName } from './content-groups.service';
import { contentGroupAccess, contentGroupTree, findWritableContentGroup } from '@/server/modules/content';

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
  const groups = await checkContentGroupBatch(tx, {
    customerId,
    ids: groupIds,
    visible: contentGroupAccess(ctx),
    readOnly: readOnlyExpression(ctx, 'contentGroup', contentGroups.id),
  });
  const contents = await checkContentBatch(tx, {
    customerId,
    ids: contentIds,
    visible: contentAccess(ctx),
    readOnly: readOnlyExpression(ctx, 'deviceContent', deviceContents.id),
  });
  for (const [kind, ids, rows] of [
    ['contentGroup', groupIds, groups],
    ['deviceContent', contentIds, contents],
  ] as const) {
    const byId = new Map<string, { visible: boolean; readOnly: boolean }>(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const row = byId.get(id);
      if (!row || !row.visible) throw new NotFoundError(kind, id);
      if (row.readOnly)
        throw new ForbiddenError(`Your teams give read-only access to this ${kind}`, 'team.error.readOnly', { resourceType: kind, id });
    }
  }
  const locked = contents.find((c) => c.locked);
  if (locked) throw lockedError(locked.id);
  for (const group of groups) assertMovable({ id: group.id, parentId: group.parentId, isTemplateGroup: group.isTemplateGroup }, 'moved');

  return { groups, contentIds };
}

/** POST /api/contentGroup/move: folders (with everything below them) and content into one folder, in one transaction. */
export async function moveToContentGroup(ctx: ServiceContext, body: ContentGroupMove): Promise<ContentGroup> {
  return uniqueContentGroupName(undefined, () =>
    withTransaction(ctx.db, async (tx) => {
      const target = await findWritableContentGroup(tx, ctx, { id: body.targetGroupId, creatingIn: true });
      const { groups, contentIds } = await checkedMove(tx, ctx, target.customerId, body);
      await moveFolderSubtrees(tx, contentGroupTree, { customerId: target.customerId, folderIds: groups.map((g) => g.id), target });
      await moveContentTo(tx, { customerId: target.customerId, contentIds, targetId: target.id, targetPath: target.path });
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
  const content = await findBlockedContentBelow(tx, {
    customerId: folder.customerId,
    folderIds: [folder.id],
    blocked: sql`(${deviceContents.locked} or ${teamBlocked})`,
  });
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
