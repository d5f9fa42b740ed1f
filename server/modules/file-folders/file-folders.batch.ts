import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, ForbiddenError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import type { FileFolder } from './file-folders.schemas';
import {
  detachFileReferences,
  detachFolderReferences,
  fileDeletionBlockers,
  fileReferences,
  folderDeletionBlockers,
} from '@/server/modules/files';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { isAboveTeams, readOnlyExpression, teamAccessCondition } from '@/server/modules/teams';
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
import { FILTERED_FOLDER, fileFolderItems, fileFolderTree, findWritableFolder, folderAccessCondition } from './folder-access';
import { deleteFilesByIds, deleteSubtrees, fileIdsBelow, updateFolder } from './file-folders.queries';
import { readFolder } from './file-folders.service';
import { auditChange } from '@/server/modules/audit-log';
import type { Batch, MoveBatch } from './file-folders.schemas';
import { announcePlaybackChange } from '@/server/playback/playback-changes';

type Item = FileFolder;
type BatchFolder = { id: string; customerId: number; parentId: string | null; path: string[] };

/**
 * Every id of a batch must exist in `customerId` and be visible (404, never revealing another
 * tenant's ids) and writable for the caller's teams (403 `team.error.readOnly`). One statement per kind.
 */
async function checkedBatch(
  tx: Executor,
  ctx: ServiceContext,
  customerId: number,
  batch: Batch,
): Promise<{ fileIds: string[]; folders: BatchFolder[] }> {
  const fileIds = [...new Set(batch.fileIds)];
  const folderIds = [...new Set(batch.folderIds)];
  const fileRows = await checkItemBatch(
    tx,
    fileFolderItems,
    { customerId, ids: fileIds, visible: teamAccessCondition(ctx, 'file', files.id), readOnly: readOnlyExpression(ctx, 'file', files.id) },
    {},
  );
  const folders = await checkFolderBatch(
    tx,
    fileFolders,
    { customerId, ids: folderIds, visible: folderAccessCondition(ctx), readOnly: readOnlyExpression(ctx, 'fileFolder', fileFolders.id) },
    {},
  );
  assertBatchWritable('file', fileIds, fileRows);
  assertBatchWritable('fileFolder', folderIds, folders);
  const root = folders.find((f) => f.parentId === null);
  if (root) throw new ConflictError('fileFolder.error.root', 'The root folder cannot be moved or deleted', { id: root.id });

  return { fileIds, folders };
}

/** POST /api/fileFolder/moveBatchToFolder: files and folders (with everything below them) into one folder. */
export async function moveBatchToFolder(ctx: ServiceContext, body: MoveBatch): Promise<Item> {
  return uniqueSiblingName(fileFolderTree, undefined, () =>
    withTransaction(ctx.db, async (tx) => {
      const target = await findWritableFolder(tx, ctx, { id: body.targetFolder.id, creatingIn: true });
      if (target.fileFolderType === FILTERED_FOLDER) {
        throw new ConflictError('fileFolder.error.filtered', 'Nothing can be moved into a filtered folder', { id: target.id });
      }
      const { fileIds, folders } = await checkedBatch(tx, ctx, target.customerId, body);
      await moveFolderSubtrees(tx, fileFolderTree, { customerId: target.customerId, folderIds: folders.map((f) => f.id), target });
      // Screens playing the folders the files leave, then those playing the one they join, hear manifestChanged.
      await announcePlaybackChange(tx, { customerId: target.customerId, fileIds });
      await moveItemsInto(tx, fileFolderItems, { customerId: target.customerId, ids: fileIds, target });
      await announcePlaybackChange(tx, { customerId: target.customerId, fileIds });
      await updateFolder(tx, target.customerId, target.id);
      await auditChange(tx, ctx, {
        entityType: 'fileFolder',
        action: 'move',
        entityId: target.id,
        entityName: target.parentId === null ? undefined : target.name,
        customerId: target.customerId,
        message: `${fileIds.length} file(s) and ${folders.length} folder(s) moved into folder '${target.parentId === null ? 'root' : target.name}'`,
        changes: { targetFolderId: target.id, fileIds, folderIds: folders.map((f) => f.id) },
      });

      return readFolder(tx, ctx, target.id);
    }),
  );
}

/**
 * Deletes files and folder subtrees in the caller's transaction. References to the files are checked
 * and detached through the file reference registry; the file ids are loaded only when a reference
 * kind is registered (none is today), so a folder with any number of files is four statements.
 */
async function deleteContents(
  tx: Executor,
  ctx: ServiceContext,
  input: { customerId: number; fileIds: string[]; folderIds: string[]; removeFromPlaylists: boolean },
) {
  await assertSubtreesWritable(tx, ctx, input.customerId, input.folderIds);
  const folderBlockers = await folderDeletionBlockers(tx, { folderIds: input.folderIds, removeFromPlaylists: input.removeFromPlaylists });
  if (folderBlockers.length > 0) {
    throw new ConflictError(
      'fileFolder.error.inUse',
      `Folders to delete are in use: ${folderBlockers.map((b) => `${b.count} ${b.kind}`).join(', ')}`,
      { blockers: folderBlockers },
    );
  }
  await detachFolderReferences(tx, ctx, { folderIds: input.folderIds, removeFromPlaylists: input.removeFromPlaylists });
  if (fileReferences.items().length > 0) {
    const affected = [...input.fileIds, ...(await fileIdsBelow(tx, input.customerId, input.folderIds))];
    const blockers = await fileDeletionBlockers(tx, { fileIds: affected, removeFromPlaylists: input.removeFromPlaylists });
    if (blockers.length > 0) {
      throw new ConflictError(
        'fileFolder.error.inUse',
        `Files to delete are in use: ${blockers.map((b) => `${b.count} ${b.kind}`).join(', ')}`,
        { blockers },
      );
    }
    await announcePlaybackChange(tx, { customerId: input.customerId, fileIds: affected });
    await detachFileReferences(tx, ctx, { fileIds: affected, removeFromPlaylists: input.removeFromPlaylists });
  }
  const folders = await deleteSubtrees(tx, input.customerId, input.folderIds);
  const deletedFiles = await deleteFilesByIds(tx, input.customerId, input.fileIds);

  return { files: folders.files + deletedFiles, folders: folders.folders };
}

/**
 * A team user deletes a folder only when everything below it is visible and writable for its teams:
 * deleting the folder would otherwise take along what its teams may not see or change (403).
 */
async function assertSubtreesWritable(tx: Executor, ctx: ServiceContext, customerId: number, folderIds: string[]): Promise<void> {
  if (isAboveTeams(ctx.actor) || folderIds.length === 0) return;
  await assertSubtreeFoldersWritable(tx, ctx, fileFolderTree, { customerId, folderIds });
  const blocked = blockedForTeams(teamAccessCondition(ctx, 'file', files.id), readOnlyExpression(ctx, 'file', files.id));
  const file = await findItemBelow(tx, fileFolderItems, { customerId, folderIds, blocked }, {});
  if (file)
    throw new ForbiddenError('The folder contains files your teams may not change', 'team.error.readOnly', {
      resourceType: 'file',
      id: file.id,
    });
}

/** DELETE /api/fileFolder/{id}: the folder, every folder below it and all their files, in one transaction. */
export async function deleteFileFolder(ctx: ServiceContext, id: string, removeFromPlaylists: boolean): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const folder = await findWritableFolder(tx, ctx, { id, creatingIn: false });
    if (folder.parentId === null) throw new ConflictError('fileFolder.error.root', 'The root folder cannot be deleted', { id });
    const deleted = await deleteContents(tx, ctx, {
      customerId: folder.customerId,
      fileIds: [],
      folderIds: [folder.id],
      removeFromPlaylists,
    });
    await updateFolder(tx, folder.customerId, folder.parentId);
    await auditChange(tx, ctx, {
      entityType: 'fileFolder',
      action: 'delete',
      entityId: folder.id,
      entityName: folder.name,
      customerId: folder.customerId,
      message: `Folder '${folder.name}' deleted with ${deleted.folders - 1} sub-folder(s) and ${deleted.files} file(s)`,
      changes: { ...deleted, removeFromPlaylists },
    });
  });
}

/** POST /api/fileFolder/deleteBatch: files and folder subtrees of the selected customer, in one transaction. */
export async function deleteBatch(ctx: ServiceContext, body: Batch, removeFromPlaylists: boolean): Promise<void> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  await withTransaction(ctx.db, async (tx) => {
    const { fileIds, folders } = await checkedBatch(tx, ctx, customerId, body);
    const deleted = await deleteContents(tx, ctx, { customerId, fileIds, folderIds: folders.map((f) => f.id), removeFromPlaylists });
    await auditChange(tx, ctx, {
      entityType: 'fileFolder',
      action: 'deleteBatch',
      customerId,
      message: `${deleted.files} file(s) and ${deleted.folders} folder(s) deleted`,
      changes: { fileIds, folderIds: folders.map((f) => f.id), ...deleted, removeFromPlaylists },
    });
  });
}
