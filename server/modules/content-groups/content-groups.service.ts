import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { folderListQuery, insertFolderRow, newFolderIn, uniqueSiblingName, updateFolderRow } from '@/server/modules/folders';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { assignTeams, modifyTeams, type TeamAccessList, type TeamModification, type TeamReadInput } from '@/server/modules/teams';
import { findOne, findPage, type ListInput } from '@/server/query';
import { contentGroupResource } from './content-groups.resource';
import type { ContentGroup } from './content-groups.schemas';
import { contentGroupAccess, contentGroupTree, findWritableContentGroup } from '@/server/modules/content';

/*
 * Content folders (spec 2 "Content folder"): one tree per customer under a root that everyone who sees the
 * tenant sees (it takes no teams and cannot be renamed, moved or deleted), with the Templates folder
 * (`isTemplateGroup`) below it, which `GET /api/template` reads and which is kept in place the same way.
 */

export const auditContentGroup = auditOf('contentGroup', (folder: { id: string; name: string; customerId: number }) => ({
  entityId: folder.id,
  entityName: folder.name,
  customerId: folder.customerId,
}));

/** Refuses changing the root or the Templates folder themselves (409). */
export function assertMovable(folder: { id: string; parentId: string | null; isTemplateGroup: boolean }, action: string): void {
  if (folder.parentId === null)
    throw new ConflictError('contentGroup.error.root', `The root content folder cannot be ${action}`, { id: folder.id });
  if (folder.isTemplateGroup)
    throw new ConflictError('contentGroup.error.templates', `The Templates folder cannot be ${action}`, { id: folder.id });
}

type ListContentGroupsInput = TeamReadInput & ListInput;

/** GET /api/v2/contentGroup: paged, with search/select/sort and the team read parameters; the root is always listed. */
export async function listContentGroups(ctx: ServiceContext, input: ListContentGroupsInput) {
  const { where, extraColumns, query } = folderListQuery(ctx, contentGroupTree, input);

  return findPage<ContentGroup>(ctx.db, { resource: contentGroupResource, scope: ctx.scope, where: [where], extraColumns, ...query });
}

/** GET /api/v2/contentGroup/{id}. */
export async function getContentGroup(ctx: ServiceContext, id: string, select?: string): Promise<ContentGroup> {
  return readContentGroup(ctx.db, ctx, id, select);
}

export async function readContentGroup(db: Executor, ctx: ServiceContext, id: string, select?: string): Promise<ContentGroup> {
  const item = await findOne<ContentGroup>(db, {
    resource: contentGroupResource,
    scope: ctx.scope,
    where: [uuidEquals(contentGroups.id, id), contentGroupAccess(ctx)],
    select,
  });
  if (!item) throw new NotFoundError('contentGroup', id);

  return item;
}

/** POST /api/contentGroup?parentGroupId=: a folder under `parentGroupId` (the root when absent). */
export async function createContentGroup(
  ctx: ServiceContext,
  input: { parentGroupId?: string; name: string; teamIds?: string },
): Promise<ContentGroup> {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return uniqueSiblingName(contentGroupTree, input.name, () =>
    withTransaction(ctx.db, async (tx) => {
      const parent = await findWritableContentGroup(tx, ctx, { customerId, id: input.parentGroupId, creatingIn: true });
      const row = await insertFolderRow(tx, contentGroups, { ...newFolderIn(parent), name: input.name });
      if (input.teamIds) await assignTeams(tx, ctx, 'contentGroup', row.id, input.teamIds);
      await auditContentGroup(tx, ctx, row, 'create', `Content folder '${row.name}' created`, {
        parentId: parent.id,
        name: row.name,
        teamIds: input.teamIds,
      });

      return readContentGroup(tx, ctx, row.id);
    }),
  );
}

/** PUT /api/contentGroup/{id}: `{name}`. */
export async function renameContentGroup(ctx: ServiceContext, id: string, name: string): Promise<ContentGroup> {
  return uniqueSiblingName(contentGroupTree, name, () =>
    withTransaction(ctx.db, async (tx) => {
      const folder = await findWritableContentGroup(tx, ctx, { id, creatingIn: false });
      assertMovable(folder, 'renamed');
      await updateFolderRow(tx, contentGroups, folder.customerId, folder.id, { name });
      await auditContentGroup(tx, ctx, { ...folder, name }, 'rename', `Content folder '${folder.name}' renamed to '${name}'`, {
        name: { from: folder.name, to: name },
      });

      return readContentGroup(tx, ctx, folder.id);
    }),
  );
}

/** POST /api/contentGroup/updateTeamAssignments?contentGroupId= (OWNER). The root belongs to everyone: refused. */
export async function updateContentGroupTeamAssignments(
  ctx: ServiceContext,
  contentGroupId: string,
  change: TeamModification,
): Promise<TeamAccessList> {
  return withTransaction(ctx.db, async (tx) => {
    // OWNER and ADMIN are above teams: this finds any folder of the scope.
    const folder = await findWritableContentGroup(tx, ctx, { id: contentGroupId, creatingIn: false });
    if (folder.parentId === null)
      throw new ConflictError('contentGroup.error.root', 'The root content folder is visible to every user and takes no team assignments', {
        id: contentGroupId,
      });

    return modifyTeams(tx, ctx, 'contentGroup', contentGroupId, change);
  });
}
