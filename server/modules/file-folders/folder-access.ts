import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@/server/db/client';
import { ConflictError } from '@/server/errors';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import {
  defineFolderItems,
  defineFolderTree,
  findWritableFolder as findWritableTreeFolder,
  folderAccessCondition as treeAccessCondition,
  type FolderType,
} from '@/server/modules/folders';
import { fileFolders } from '@/server/modules/folders/folders.table';

// CONTRACT (owned by the file-folders helper; replace the body, keep the signature):

export type TargetFolder = { id: string; customerId: number; path: string[] };

type Caller = { actor: Actor };

/** Stored folders (`fileFolderType=1`); filtered folders (2) hold no files of their own. */
export const STORED_FOLDER = 1;
export const FILTERED_FOLDER = 2;

/** The files in file folders: `file_folder_id` names their folder, `folder_path` copies the folder's path. */
export const fileFolderItems = defineFolderItems({
  table: files,
  type: 'file',
  id: files.id,
  customerId: files.customerId,
  folderId: files.fileFolderId,
  path: files.folderPath,
});

/** The file folder tree (server/modules/folders/folder-tree.ts). */
export const fileFolderTree = defineFolderTree({
  type: 'fileFolder',
  label: 'folder',
  table: fileFolders,
  items: [fileFolderItems],
  rootCreationSetting: customers.fileCreationInRootForTeamUsers,
  onMove: [{ column: fileFolders.lastChange, value: sql`now()` }],
  siblingNameKey: 'file_folder_sibling_name_key',
});

/** The root is visible to everyone who sees the tenant; other folders follow team access (rule A); file folders by default. */
export function folderAccessCondition(
  ctx: Caller,
  folder: { id: AnyPgColumn | SQL; parentId: AnyPgColumn | SQL } = fileFolders,
  type: FolderType = 'fileFolder',
): SQL | undefined {
  return treeAccessCondition(ctx, folder, type);
}

export type WritableFolder = TargetFolder & { parentId: string | null; fileFolderType: number; name: string };

/**
 * A folder the caller writes into or changes: 404 when invisible (never revealing it), 403
 * `team.error.readOnly` when the caller's teams give read-only access, 403
 * `fileFolder.error.rootCreationDisabled` for a team user writing into the root when the customer's
 * `isFileAndFolderCreationEnabledInRootForTeamUsers` is off (only when `creatingIn`).
 */
export async function findWritableFolder(
  tx: Executor,
  ctx: Pick<ServiceContext<Actor>, 'actor' | 'scope'>,
  input: { customerId?: number; id?: string; creatingIn: boolean },
): Promise<WritableFolder> {
  const row = await findWritableTreeFolder(tx, ctx, fileFolderTree, input);

  return {
    id: row.id,
    customerId: row.customerId,
    path: row.path,
    parentId: row.parentId,
    fileFolderType: row.fileFolderType,
    name: row.name,
  };
}

/**
 * The stored folder a new file goes into: `parentId`, or the customer's root file folder when absent.
 * 404 when the folder is not in the caller's scope or not visible to the caller's teams, 403
 * `team.error.readOnly` for a read-only team assignment, 409 for a filtered folder (`fileFolderType=2`).
 * `customerId` is the tenant the write acts on (targetCustomerId(scope, actor)).
 */
export async function resolveTargetFolder(
  tx: Executor,
  ctx: Pick<ServiceContext<Actor>, 'actor' | 'scope'>,
  customerId: number,
  parentId: string | undefined,
): Promise<TargetFolder> {
  const folder = await findWritableFolder(tx, ctx, { customerId, id: parentId, creatingIn: true });
  if (folder.fileFolderType === FILTERED_FOLDER) {
    throw new ConflictError(
      'fileFolder.error.filtered',
      'A filtered folder shows the files of its quick filter and holds none of its own',
      { id: folder.id },
    );
  }

  return { id: folder.id, customerId: folder.customerId, path: folder.path };
}
