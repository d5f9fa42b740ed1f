import { and, sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { NotFoundError } from '@/server/errors';
import { defineFolderTree, findWritableFolder, folderAccessCondition } from '@/server/modules/folders';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { customers } from '@/server/tenant/customers.table';
import { contentGroupExists } from './content.queries';
import { deviceContents } from './content.table';

/*
 * The content folders as the content in them sees them: their tree, who sees them and who writes into them. The
 * content-groups module (above this one) manages the folders themselves through the same pieces.
 */

/** The content folder tree (server/modules/folders/folder-tree.ts): content copies its folder's path. */
export const contentGroupTree = defineFolderTree({
  type: 'contentGroup',
  label: 'content folder',
  table: contentGroups,
  items: [{ table: deviceContents, customerId: deviceContents.customerId, path: deviceContents.groupPath }],
  rootCreationSetting: customers.contentCreationInRootForTeamUsers,
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
  if (!(await contentGroupExists(db, visibleContentGroup(ctx, id)))) throw new NotFoundError('contentGroup', id);
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
