import { and, sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { NotFoundError } from '@/server/errors';
import { defineFolderItems, defineFolderTree, findFolderRow, findWritableFolder, folderAccessCondition } from '@/server/modules/folders';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { customers } from '@/server/tenant/customers.table';
import { deviceContents } from './content.table';

/*
 * The content folders as the content in them sees them: their tree, who sees them and who writes into them. The
 * content-groups module (above this one) manages the folders themselves through the same pieces.
 */

/** The content in content folders: `content_group_id` names its folder, `group_path` copies the folder's path. */
export const contentFolderItems = defineFolderItems({
  table: deviceContents,
  type: 'deviceContent',
  id: deviceContents.id,
  customerId: deviceContents.customerId,
  folderId: deviceContents.contentGroupId,
  path: deviceContents.groupPath,
});

/** The content folder tree (server/modules/folders/folder-tree.ts). */
export const contentGroupTree = defineFolderTree({
  type: 'contentGroup',
  label: 'content folder',
  table: contentGroups,
  items: [contentFolderItems],
  rootCreationSetting: customers.contentCreationInRootForTeamUsers,
  siblingNameKey: 'content_group_sibling_name_key',
});

/** The visibility of content folders for the caller: the root, and the others through its teams. */
export function contentGroupAccess(ctx: Pick<ServiceContext, 'actor'>): SQL | undefined {
  return folderAccessCondition(ctx, contentGroups, 'contentGroup');
}

/**
 * Whether the folder `id` is one `getContentGroup` would answer (in the caller's scope and visible to its
 * teams), as a condition another statement carries: a list of the folder's content checks it in the same
 * statement instead of reading the folder first.
 */
export function contentGroupVisible(ctx: Pick<ServiceContext, 'actor' | 'scope'>, id: string): SQL {
  return sql`exists (select 1 from ${contentGroups} where ${visibleContentGroup(ctx, id)})`;
}

function visibleContentGroup(ctx: Pick<ServiceContext, 'actor' | 'scope'>, id: string): SQL | undefined {
  return and(uuidEquals(contentGroups.id, id), scopeCondition(ctx.scope, contentGroups.customerId), contentGroupAccess(ctx));
}

/** 404 `contentGroup` unless the caller sees the folder `id` (what reading it through GET /api/v2/contentGroup/{id} checks). */
export async function assertContentGroupVisible(db: Executor, ctx: Pick<ServiceContext, 'actor' | 'scope'>, id: string): Promise<void> {
  if (!(await findFolderRow(db, contentGroups, id, ctx.scope, contentGroupAccess(ctx)))) throw new NotFoundError('contentGroup', id);
}

export type WritableContentGroup = {
  id: string;
  customerId: number;
  parentId: string | null;
  path: string[];
  name: string;
  isTemplateGroup: boolean;
};

/**
 * A content folder the caller writes into or changes (404 invisible, 403 read-only through its teams, 403
 * `contentGroup.error.rootCreationDisabled` for a team user creating in the root when the customer's
 * `isContentAndGroupCreationEnabledInRootForTeamUsers` is off). Without `id`: the root of `customerId`.
 */
export async function findWritableContentGroup(
  tx: Executor,
  ctx: Pick<ServiceContext, 'actor' | 'scope'>,
  input: { id?: string; customerId?: number; creatingIn: boolean },
): Promise<WritableContentGroup> {
  const row = await findWritableFolder(tx, ctx, contentGroupTree, input);

  return {
    id: row.id,
    customerId: row.customerId,
    parentId: row.parentId,
    path: row.path,
    name: row.name,
    isTemplateGroup: row.isTemplateGroup,
  };
}
