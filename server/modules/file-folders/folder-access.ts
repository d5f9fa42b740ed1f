import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { ConflictError, ForbiddenError, NotFoundError } from '@/server/errors';
import { teamMemberOf, type Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { customers } from '@/server/modules/customers/customers.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { readOnlyExpression, teamAccessCondition } from '@/server/modules/teams/team-visibility';
import { teamAssignments } from '@/server/modules/teams/teams.table';

// CONTRACT (owned by the file-folders helper; replace the body, keep the signature):

export type TargetFolder = { id: string; customerId: number; path: string[] };

type Caller = { actor: Actor };

/** Stored folders (`fileFolderType=1`); filtered folders (2) hold no files of their own. */
export const STORED_FOLDER = 1;
export const FILTERED_FOLDER = 2;

/**
 * The root is visible to everyone who sees the tenant; other folders follow team access (rule A). The
 * same rule for each folder tree: file folders by default, content (and later device) folders by `type`.
 */
export function folderAccessCondition(
  ctx: Caller,
  folder: { id: AnyPgColumn | SQL; parentId: AnyPgColumn | SQL } = fileFolders,
  type: 'fileFolder' | 'contentGroup' | 'deviceGroup' = 'fileFolder',
): SQL | undefined {
  const access = teamAccessCondition(ctx, type, folder.id);

  return access ? sql`(${folder.parentId} is null or ${access})` : undefined;
}

/** The caller belongs to a team (or is restricted): the "team user" of the root-creation setting. */
export function isTeamUserExpression(actor: Actor): SQL {
  const member = teamMemberOf(actor);
  if (!member) return sql`false`;
  if (member.restricted) return sql`true`;

  return sql`exists (select 1 from ${teamAssignments} where ${teamAssignments.resourceType} = ${member.type} and ${teamAssignments.resourceId} = ${member.id})`;
}

export type WritableFolder = TargetFolder & { parentId: string | null; fileFolderType: number; name: string };

/**
 * A folder the caller writes into or changes: 404 when invisible (never revealing it), 403
 * `team.error.readOnly` when the caller's teams give read-only access, 403
 * `fileFolder.error.rootCreationDisabled` for a team user writing into the root when the customer's
 * `isFileAndFolderCreationEnabledInRootForTeamUsers` is off (only when `creatingIn`).
 */
export async function findWritableFolder(tx: Executor, ctx: Pick<ServiceContext, 'actor' | 'scope'>, input: { customerId?: number; id?: string; creatingIn: boolean }): Promise<WritableFolder> {
  const where = input.id
    ? and(sql`${fileFolders.id}::text = ${input.id}`, input.customerId === undefined ? scopeCondition(ctx.scope, fileFolders.customerId) : eq(fileFolders.customerId, input.customerId))
    : and(eq(fileFolders.customerId, input.customerId ?? -1), sql`${fileFolders.parentId} is null`, eq(fileFolders.fileFolderType, STORED_FOLDER));
  const [row] = await tx
    .select({
      id: fileFolders.id,
      customerId: fileFolders.customerId,
      path: fileFolders.path,
      parentId: fileFolders.parentId,
      name: fileFolders.name,
      fileFolderType: fileFolders.fileFolderType,
      visible: folderAccessCondition(ctx) ?? sql<boolean>`true`,
      readOnly: readOnlyExpression(ctx, 'fileFolder', fileFolders.id),
      rootAllowed: sql<boolean>`(not ${isTeamUserExpression(ctx.actor)} or coalesce((select ${customers.fileCreationInRootForTeamUsers} from ${customers} where ${customers.id} = ${fileFolders.customerId}), true))`,
    })
    .from(fileFolders)
    .where(where)
    .limit(1);
  if (!row || !row.visible) throw new NotFoundError('fileFolder', input.id ?? 'root');
  if (row.readOnly) throw new ForbiddenError('Your teams give read-only access to this folder', 'team.error.readOnly', { resourceType: 'fileFolder', id: row.id });
  if (input.creatingIn && row.parentId === null && !row.rootAllowed) {
    throw new ForbiddenError('Team users may not create files or folders in the root folder of this customer', 'fileFolder.error.rootCreationDisabled', { id: row.id });
  }

  return { id: row.id, customerId: row.customerId, path: row.path, parentId: row.parentId, fileFolderType: row.fileFolderType, name: row.name };
}

/**
 * The stored folder a new file goes into: `parentId`, or the customer's root file folder when absent.
 * 404 when the folder is not in the caller's scope or not visible to the caller's teams, 403
 * `team.error.readOnly` for a read-only team assignment, 409 for a filtered folder (`fileFolderType=2`).
 * `customerId` is the tenant the write acts on (targetCustomerId(scope, actor)).
 */
export async function resolveTargetFolder(tx: Executor, ctx: ServiceContext, customerId: number, parentId: string | undefined): Promise<TargetFolder> {
  const folder = await findWritableFolder(tx, ctx, { customerId, id: parentId, creatingIn: true });
  if (folder.fileFolderType === FILTERED_FOLDER) {
    throw new ConflictError('fileFolder.error.filtered', 'A filtered folder shows the files of its quick filter and holds none of its own', { id: folder.id });
  }

  return { id: folder.id, customerId: folder.customerId, path: folder.path };
}
