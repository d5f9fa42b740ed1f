import { uuidEquals } from '@/server/db/sql';
import { inArray } from 'drizzle-orm';
import type { FileFolder } from './file-folders.schemas';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { AppError, ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditChange } from '@/server/modules/audit-log';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { quickFilterCondition } from '@/server/modules/quick-filters';
import { quickFilters } from '@/server/modules/quick-filters/quick-filters.table';
import {
  assignTeams,
  modifyTeams,
  type TeamAccessList,
  type TeamModification,
  teamAccessCondition,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findOne, findPage, type ListInput } from '@/server/query';
import { findFolderRow, folderListQuery, insertFolderRow, newFolderIn, uniqueSiblingName } from '@/server/modules/folders';
import { FILTERED_FOLDER, fileFolderTree, findWritableFolder, folderAccessCondition, STORED_FOLDER } from './folder-access';
import { fileFolderResource } from './file-folders.resource';
import { fillVisibleFolderPreviews } from './folder-previews';
import { countFilesMatching, findFilteredFolders, findQuickFilter, findStorage, sumStorage, updateFolder } from './file-folders.queries';

/** The folders part of the files' summary view (the files module's `folderViews`): visible folders by name, with previews. */
export async function folderViewFolders(ctx: ServiceContext, input: { search?: string; select?: string; size: number }) {
  const folders = await findPage<FileFolder>(ctx.db, {
    resource: fileFolderResource,
    scope: ctx.scope,
    where: [folderAccessCondition(ctx)],
    search: input.search,
    select: input.select,
    sort: 'name,asc',
    size: String(input.size),
  });
  await fillVisibleFolderPreviews(ctx.db, ctx, folders.content);

  return folders;
}

type Item = FileFolder;
type FolderListInput = TeamReadInput & ListInput;

/** The visibility of folders for reads within the scope: the root-or-team rule. */
function readConditions(ctx: ServiceContext) {
  return [folderAccessCondition(ctx)];
}

/** GET /api/v2/fileFolder: paged, with search/select/sort and the team read parameters; the root is always listed. */
export async function listFileFolders(ctx: ServiceContext, input: FolderListInput) {
  const { where, extraColumns, query } = folderListQuery(ctx, fileFolderTree, input);
  const page = await findPage<FileFolder>(ctx.db, {
    resource: fileFolderResource,
    scope: ctx.scope,
    where: [where],
    extraColumns,
    ...query,
  });
  await fillFilteredCounts(ctx.db, ctx, page.content);
  await fillVisibleFolderPreviews(ctx.db, ctx, page.content);

  return page;
}

/** GET /api/v2/fileFolder/{id}. */
export async function getFileFolder(ctx: ServiceContext, id: string, select?: string): Promise<Item> {
  return readFolder(ctx.db, ctx, id, select);
}

export async function readFolder(db: Executor, ctx: ServiceContext, id: string, select?: string): Promise<Item> {
  const item = await findOne<FileFolder>(db, {
    resource: fileFolderResource,
    scope: ctx.scope,
    where: [uuidEquals(fileFolders.id, id), ...readConditions(ctx)],
    select,
  });
  if (!item) throw new NotFoundError('fileFolder', id);
  await fillFilteredCounts(db, ctx, [item]);
  await fillVisibleFolderPreviews(db, ctx, [item]);

  return item;
}

/**
 * `fileCount` of filtered folders: the files matching each folder's quick filter. Each filter is its
 * own criteria, so this is one count per filtered folder on the page (after paging, never filtering).
 */
async function fillFilteredCounts(db: Executor, ctx: ServiceContext, items: Item[]): Promise<void> {
  const wanted = items.filter((item) => 'fileCount' in item);
  if (wanted.length === 0) return;
  const filtered = await findFilteredFolders(
    db,
    wanted.map((item) => String(item.id)),
  );
  for (const folder of filtered) {
    if (!folder.quickFilterId) continue;
    const item = wanted.find((i) => i.id === folder.id)!;
    try {
      item.fileCount = await countFilesMatching(db, folder.customerId, await quickFilterCondition(db, ctx, folder.quickFilterId, 'FILE'));
    } catch (err) {
      // A filter the caller cannot see (or no longer usable): the folder shows nothing to this caller.
      if (!(err instanceof AppError)) throw err;
      item.fileCount = 0;
    }
  }
}

type CreateInput = { parentId: string; name: string; teamIds?: string; cleanupOutdatedFiles?: boolean };

/** POST /api/fileFolder: a stored folder under `parentId`. */
export async function createFileFolder(ctx: ServiceContext, input: CreateInput): Promise<Item> {
  return createFolder(ctx, { ...input, fileFolderType: STORED_FOLDER, cleanupOutdatedFiles: input.cleanupOutdatedFiles === true });
}

type CreateFilteredInput = { parentId: string; name: string; quickFilterId: string; teamIds?: string };

/** POST /api/fileFolder/addFilteredFileFolder: a virtual folder showing the files of a FILE quick filter. */
export async function createFilteredFileFolder(ctx: ServiceContext, input: CreateFilteredInput): Promise<Item> {
  return createFolder(ctx, { ...input, fileFolderType: FILTERED_FOLDER, cleanupOutdatedFiles: false });
}

async function createFolder(
  ctx: ServiceContext,
  input: {
    parentId: string;
    name: string;
    teamIds?: string;
    fileFolderType: number;
    quickFilterId?: string;
    cleanupOutdatedFiles: boolean;
  },
): Promise<Item> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return uniqueSiblingName(fileFolderTree, input.name, () =>
    withTransaction(ctx.db, async (tx) => {
      const parent = await findWritableFolder(tx, ctx, { customerId, id: input.parentId, creatingIn: true });
      if (parent.fileFolderType === FILTERED_FOLDER) {
        throw new ConflictError('fileFolder.error.filtered', 'A filtered folder cannot contain folders', { id: parent.id });
      }
      if (input.quickFilterId) await assertFileQuickFilter(tx, ctx, input.quickFilterId, customerId);
      const values = {
        ...newFolderIn(parent),
        name: input.name,
        fileFolderType: input.fileFolderType,
        quickFilterId: input.quickFilterId ?? null,
        cleanupOutdatedFiles: input.cleanupOutdatedFiles,
        lastChange: new Date(),
      };
      const { id } = await insertFolderRow(tx, fileFolders, values);
      if (input.teamIds) await assignTeams(tx, ctx, 'fileFolder', id, input.teamIds);
      await auditChange(tx, ctx, {
        entityType: 'fileFolder',
        action: 'create',
        entityId: id,
        entityName: values.name,
        customerId,
        message: `${input.fileFolderType === FILTERED_FOLDER ? 'Filtered folder' : 'Folder'} '${values.name}' created`,
        changes: {
          parentId: parent.id,
          name: values.name,
          cleanupOutdatedFiles: values.cleanupOutdatedFiles,
          quickFilterId: values.quickFilterId,
          teamIds: input.teamIds,
        },
      });

      return readFolder(tx, ctx, id);
    }),
  );
}

/** A FILE quick filter of `customerId` the caller can see: 404 otherwise, 400 for another entity type. */
async function assertFileQuickFilter(tx: Executor, ctx: ServiceContext, quickFilterId: string, customerId: number): Promise<void> {
  const filter = await findQuickFilter(tx, quickFilterId, customerId, teamAccessCondition(ctx, 'quickFilter', quickFilters.id));
  if (!filter) throw new NotFoundError('quickFilter', quickFilterId);
  if (filter.filteredEntityType !== 'FILE') {
    throw new ValidationError(
      'fileFolder.error.quickFilterType',
      `A filtered folder needs a FILE quick filter; this one filters ${filter.filteredEntityType}`,
      {
        quickFilterId,
        filteredEntityType: filter.filteredEntityType,
      },
    );
  }
}

/** A non-root folder the caller may change (404 / 403 team read-only / 409 root). */
async function changeableFolder(tx: Executor, ctx: ServiceContext, id: string, action: string) {
  const folder = await findWritableFolder(tx, ctx, { id, creatingIn: false });
  if (folder.parentId === null) throw new ConflictError('fileFolder.error.root', `The root folder cannot be ${action}`, { id });

  return folder;
}

/** POST /api/fileFolder/rename. */
export async function renameFileFolder(ctx: ServiceContext, input: { folderId: string; newName: string }): Promise<Item> {
  return uniqueSiblingName(fileFolderTree, input.newName, () =>
    withTransaction(ctx.db, async (tx) => {
      const folder = await changeableFolder(tx, ctx, input.folderId, 'renamed');
      await updateFolder(tx, folder.customerId, folder.id, { name: input.newName });
      await auditChange(tx, ctx, {
        entityType: 'fileFolder',
        action: 'rename',
        entityId: folder.id,
        entityName: input.newName,
        customerId: folder.customerId,
        message: `Folder '${folder.name}' renamed to '${input.newName}'`,
        changes: { name: { from: folder.name, to: input.newName } },
      });

      return readFolder(tx, ctx, folder.id);
    }),
  );
}

/** PUT /api/fileFolder/setCleanupOutdatedFiles (APPROVER). */
export async function setCleanupOutdatedFiles(
  ctx: ServiceContext,
  input: { folderId: string; cleanupOutdatedFiles: boolean },
): Promise<Item> {
  return withTransaction(ctx.db, async (tx) => {
    const folder = await findWritableFolder(tx, ctx, { id: input.folderId, creatingIn: false });
    if (folder.fileFolderType === FILTERED_FOLDER) {
      throw new ConflictError('fileFolder.error.filtered', 'A filtered folder holds no files of its own to clean up', { id: folder.id });
    }
    await updateFolder(tx, folder.customerId, folder.id, { cleanupOutdatedFiles: input.cleanupOutdatedFiles });
    await auditChange(tx, ctx, {
      entityType: 'fileFolder',
      action: 'update',
      entityId: folder.id,
      entityName: folder.parentId === null ? undefined : folder.name,
      customerId: folder.customerId,
      message: `Cleanup of outdated files ${input.cleanupOutdatedFiles ? 'enabled' : 'disabled'} for folder '${folder.parentId === null ? 'root' : folder.name}'`,
      changes: { cleanupOutdatedFiles: input.cleanupOutdatedFiles },
    });

    return readFolder(tx, ctx, folder.id);
  });
}

/** POST /api/fileFolder/updateTeamAssignments (OWNER). The root belongs to everyone: refused. */
export async function updateFolderTeamAssignments(
  ctx: ServiceContext,
  fileFolderId: string,
  change: TeamModification,
): Promise<TeamAccessList> {
  return withTransaction(ctx.db, async (tx) => {
    const folder = await findFolderRow(tx, fileFolders, fileFolderId, ctx.scope);
    if (!folder) throw new NotFoundError('fileFolder', fileFolderId);
    if (folder.parentId === null)
      throw new ConflictError('fileFolder.error.root', 'The root folder is visible to every user and takes no team assignments', {
        id: fileFolderId,
      });

    return modifyTeams(tx, ctx, 'fileFolder', fileFolderId, change);
  });
}

/** GET /api/fileFolder/breadcrumb: the folder's visible ancestors, root first, and the folder itself. */
export async function breadcrumb(ctx: ServiceContext, folderId: string): Promise<{ fileFolders: Item[] }> {
  const folder = await findFolderRow(ctx.db, fileFolders, folderId, ctx.scope, folderAccessCondition(ctx));
  if (!folder) throw new NotFoundError('fileFolder', folderId);
  const page = await findPage<FileFolder>(ctx.db, {
    resource: fileFolderResource,
    scope: ctx.scope,
    where: [inArray(fileFolders.id, folder.path), ...readConditions(ctx)],
    size: String(Math.max(1, folder.path.length)),
  });
  // At most the folder's depth rows: put them in path order.
  const order = new Map(folder.path.map((id, i) => [id, i]));
  const items = [...page.content].sort((a, b) => (order.get(String(a.id)) ?? 0) - (order.get(String(b.id)) ?? 0));

  return { fileFolders: items };
}

/**
 * GET /api/fileFolder/storageStatistics of the selected customer; without one, of the scope's customers together
 * (ADMIN: every tenant; a network owner's OWNER: its network), as spec 1's `customerId` rules read.
 */
export async function storageStatistics(ctx: ServiceContext) {
  const row = ctx.scope.kind === 'all' || ctx.scope.kind === 'network' ? await sumStorage(ctx.db, ctx.scope) : await storageOf(ctx);
  // The bytes of the customers' datasource documents (the datasources module's statistic).
  const usedDatasourceResourceStorageSize = Number(row.usedDatasourceStorageSize ?? 0);

  return {
    // Unlimited storage (no storageSize) answers no total, like every other null attribute.
    ...(row.storageSize === null ? {} : { totalAvailableStorageSize: row.storageSize }),
    totalUsedStorageSize: row.usedStorageSize + usedDatasourceResourceStorageSize,
    usedDatasourceResourceStorageSize,
    usedUploadedFileStorageSize: row.usedStorageSize,
  };
}

async function storageOf(ctx: ServiceContext) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const row = await findStorage(ctx.db, customerId);
  if (!row) throw new NotFoundError('customer', customerId);

  return row;
}
