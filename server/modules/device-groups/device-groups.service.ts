import { and, sql, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { scopeCondition } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { devices } from '@/server/modules/devices/devices.table';
import {
  assertSubtreeFoldersWritable,
  deleteFolderSubtrees,
  findFolderRow,
  findWritableFolder,
  folderAccessCondition,
  folderListQuery,
  insertFolderRow,
  lockFolderSubtree,
  moveFolderSubtrees,
  moveItemsOutOf,
  newFolderIn,
  updateFolderRow,
} from '@/server/modules/folders';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { normalizeTags, registerTags } from '@/server/modules/tags';
import {
  assignTeams,
  modifyTeams,
  type TeamAccessList,
  type TeamModification,
  teamAccessCondition,
  type TeamReadInput,
} from '@/server/modules/teams';
import { compileSearch, findOne, findPage, type ListInput } from '@/server/query';
import { deviceGroupResource } from './device-groups.resource';
import type { DeviceGroup, DeviceGroupCreate, DeviceGroupUpdate, DeviceOnlineOfflineCounts } from './device-groups.schemas';
import { countDeviceStatusBelow, deviceFolderItems, deviceGroupTree, type DeviceGroupRow } from './device-groups.queries';

/*
 * Device folders (spec 3 "Device folder"): one tree per customer under a root that everyone who sees the
 * tenant sees (it takes no teams and is never renamed, moved or deleted). A video-wall folder holds devices
 * only: no folder is created in or moved into one (409). The tree mechanics (write lookup, subtree move,
 * team check, delete) are the shared ones of server/modules/folders/folder-tree.ts.
 */

const auditDeviceGroup = auditOf('deviceGroup', (folder: { id: string; name: string; customerId: number; parentId: string | null }) => ({
  entityId: folder.id,
  entityName: folder.parentId === null ? undefined : folder.name,
  customerId: folder.customerId,
}));

const nameOf = (folder: { name: string; parentId: string | null }) => (folder.parentId === null ? 'root' : folder.name);

/** The visibility of device folders for the caller: the root, and the others through its teams. */
function deviceGroupAccess(ctx: Pick<ServiceContext, 'actor'>): SQL | undefined {
  return folderAccessCondition(ctx, deviceGroups, 'deviceGroup');
}

function rootError(id: string, action: string): ConflictError {
  return new ConflictError('deviceGroup.error.root', `The root device folder cannot be ${action}`, { id });
}

/** A video-wall folder holds devices only (spec 3, spec 1 errors): no folder goes into one. */
function assertHoldsFolders(folder: DeviceGroupRow, action: string): void {
  if (folder.type === 'VIDEO_WALL') {
    throw new ConflictError('deviceGroup.error.videoWall', `A video-wall folder holds devices only: no folder can be ${action} it`, {
      id: folder.id,
    });
  }
}

function assertVideoWallData(type: DeviceGroupRow['type'], id?: string): void {
  if (type !== 'VIDEO_WALL') {
    throw new ConflictError(
      'deviceGroup.error.notVideoWall',
      'videoWallMetaData is set only on video-wall folders',
      id ? { id } : undefined,
    );
  }
}

type ListDeviceGroupsInput = TeamReadInput & ListInput;

/** GET /api/v2/deviceGroup: paged, with search/select/sort and the team read parameters; the root is always listed. */
export async function listDeviceGroups(ctx: ServiceContext, input: ListDeviceGroupsInput) {
  const { where, extraColumns, query } = folderListQuery(ctx, deviceGroupTree, input);

  return findPage<DeviceGroup>(ctx.db, { resource: deviceGroupResource, scope: ctx.scope, where: [where], extraColumns, ...query });
}

/** GET /api/v2/deviceGroup/{id}. */
export async function getDeviceGroup(ctx: ServiceContext, id: string, select?: string): Promise<DeviceGroup> {
  return readDeviceGroup(ctx.db, ctx, id, select);
}

async function readDeviceGroup(db: Executor, ctx: ServiceContext, id: string, select?: string): Promise<DeviceGroup> {
  const item = await findOne<DeviceGroup>(db, {
    resource: deviceGroupResource,
    scope: ctx.scope,
    where: [uuidEquals(deviceGroups.id, id), deviceGroupAccess(ctx)],
    select,
  });
  if (!item) throw new NotFoundError('deviceGroup', id);

  return item;
}

/** POST /api/deviceGroup/{parentId}: a folder (NORMAL or VIDEO_WALL) under `parentId`, in the parent's customer. */
export async function createDeviceGroup(
  ctx: ServiceContext,
  input: DeviceGroupCreate & { parentId: string; teamIds?: string },
): Promise<DeviceGroup> {
  return withTransaction(ctx.db, async (tx) => {
    const parent = await findWritableFolder(tx, ctx, deviceGroupTree, { id: input.parentId, creatingIn: true });
    assertHoldsFolders(parent, 'created in');
    if (input.videoWallMetaData !== undefined) assertVideoWallData(input.type);
    const row = await insertFolderRow(tx, deviceGroups, {
      ...newFolderIn(parent),
      name: input.name,
      type: input.type,
      videoWallMetaData: input.videoWallMetaData ?? null,
    });
    if (input.teamIds) await assignTeams(tx, ctx, 'deviceGroup', row.id, input.teamIds);
    const what = input.type === 'VIDEO_WALL' ? 'Video-wall folder' : 'Device folder';
    await auditDeviceGroup(tx, ctx, row, 'create', `${what} '${row.name}' created in '${nameOf(parent)}'`, {
      parentId: parent.id,
      name: row.name,
      type: input.type,
      teamIds: input.teamIds,
    });

    return readDeviceGroup(tx, ctx, row.id);
  });
}

/**
 * PUT /api/deviceGroup/{id}: `name`, `tags` (replacing them; registered as DEVICE tags), `videoWallMetaData`
 * (video walls only; `""` clears it). `type` never changes. Omitted or null attributes keep their value.
 */
export async function updateDeviceGroup(ctx: ServiceContext, id: string, body: DeviceGroupUpdate): Promise<DeviceGroup> {
  return withTransaction(ctx.db, async (tx) => {
    const folder = await findWritableFolder(tx, ctx, deviceGroupTree, { id, creatingIn: false });
    if (body.type !== undefined && body.type !== folder.type) {
      throw new ConflictError(
        'deviceGroup.error.typeImmutable',
        `The type of a device folder is set at creation and stays ${folder.type}`,
        { id, type: folder.type },
      );
    }
    const changes: Partial<Pick<DeviceGroupRow, 'name' | 'tags' | 'videoWallMetaData'>> = {};
    if (body.name !== undefined && folder.parentId === null) throw rootError(id, 'renamed');
    if (body.name !== undefined && body.name !== folder.name) changes.name = body.name;
    if (body.tags !== undefined) changes.tags = normalizeTags(body.tags);
    if (body.videoWallMetaData !== undefined) {
      assertVideoWallData(folder.type, id);
      changes.videoWallMetaData = body.videoWallMetaData;
    }
    if (Object.keys(changes).length === 0) return readDeviceGroup(tx, ctx, id);
    await updateFolderRow(tx, deviceGroups, folder.customerId, folder.id, changes);
    if (changes.tags) await registerTags(tx, folder.customerId, 'DEVICE', changes.tags);
    const message = changes.name
      ? `Device folder '${folder.name}' renamed to '${changes.name}'`
      : `Device folder '${nameOf(folder)}' updated`;
    await auditDeviceGroup(tx, ctx, { ...folder, ...changes }, changes.name ? 'rename' : 'update', message, {
      ...(changes.name ? { name: { from: folder.name, to: changes.name } } : {}),
      ...(changes.tags ? { tags: { from: folder.tags, to: changes.tags } } : {}),
      ...(body.videoWallMetaData !== undefined ? { videoWallMetaData: changes.videoWallMetaData } : {}),
    });

    return readDeviceGroup(tx, ctx, id);
  });
}

/**
 * POST /api/deviceGroup/moveToParent/{folderId}/{targetFolderId}: the folder with everything below it, its
 * devices' `group_path` rewritten in the same transaction. 409: the root, into itself or below it, into a
 * video-wall folder. Answers the moved folder.
 */
export async function moveDeviceGroup(ctx: ServiceContext, folderId: string, targetFolderId: string): Promise<DeviceGroup> {
  return withTransaction(ctx.db, async (tx) => {
    const folder = await findWritableFolder(tx, ctx, deviceGroupTree, { id: folderId, creatingIn: false });
    if (folder.parentId === null) throw rootError(folderId, 'moved');
    const target = await findWritableFolder(tx, ctx, deviceGroupTree, {
      id: targetFolderId,
      customerId: folder.customerId,
      creatingIn: true,
    });
    assertHoldsFolders(target, 'moved into');
    await moveFolderSubtrees(tx, deviceGroupTree, { customerId: folder.customerId, folderIds: [folder.id], target });
    await auditDeviceGroup(tx, ctx, folder, 'move', `Device folder '${folder.name}' moved into '${nameOf(target)}'`, {
      parentId: { from: folder.parentId, to: target.id },
    });

    return readDeviceGroup(tx, ctx, folder.id);
  });
}

/**
 * DELETE /api/deviceGroup/{id}?targetGroupId=: the folder and every folder below it. Their devices move
 * into `targetGroupId` (a writable folder of the same customer outside the deleted subtree; 409 inside it)
 * or, when absent, into the folder's parent. The root: 409.
 */
export async function deleteDeviceGroup(ctx: ServiceContext, id: string, targetGroupId: string | undefined): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const folder = await findWritableFolder(tx, ctx, deviceGroupTree, { id, creatingIn: false });
    if (folder.parentId === null) throw rootError(id, 'deleted');
    // The parent already holds the folder: by default its devices take the folder's place there.
    const target = targetGroupId
      ? await findWritableFolder(tx, ctx, deviceGroupTree, { id: targetGroupId, customerId: folder.customerId, creatingIn: true })
      : (await findFolderRow(tx, deviceGroups, folder.parentId, folder.customerId))!;
    if (target.path.includes(folder.id)) {
      throw new ConflictError(
        'deviceGroup.error.targetInDeletedFolder',
        'The devices cannot move into the folder being deleted or a folder below it',
        { id, targetGroupId: target.id },
      );
    }
    await assertSubtreeFoldersWritable(tx, ctx, deviceGroupTree, { customerId: folder.customerId, folderIds: [folder.id] });
    await lockFolderSubtree(tx, deviceGroups, folder.customerId, folder.id);
    const devicesMoved = await moveItemsOutOf(tx, deviceFolderItems, { customerId: folder.customerId, folderId: folder.id, target });
    const folders = await deleteFolderSubtrees(tx, deviceGroupTree, { customerId: folder.customerId, folderIds: [folder.id] });
    await auditDeviceGroup(
      tx,
      ctx,
      folder,
      'delete',
      `Device folder '${folder.name}' deleted with ${folders - 1} sub-folder(s); ${devicesMoved} device(s) moved to '${nameOf(target)}'`,
      {
        folders,
        devicesMoved,
        targetGroupId: target.id,
      },
    );
  });
}

/** POST /api/deviceGroup/updateTeamAssignments?deviceGroupId= (OWNER). The root belongs to everyone: refused. */
export async function updateDeviceGroupTeamAssignments(
  ctx: ServiceContext,
  deviceGroupId: string,
  change: TeamModification,
): Promise<TeamAccessList> {
  return withTransaction(ctx.db, async (tx) => {
    // OWNER and ADMIN are above teams: this finds any folder of the scope.
    const folder = await findWritableFolder(tx, ctx, deviceGroupTree, { id: deviceGroupId, creatingIn: false });
    if (folder.parentId === null)
      throw new ConflictError('deviceGroup.error.root', 'The root device folder is visible to every user and takes no team assignments', {
        id: deviceGroupId,
      });

    return modifyTeams(tx, ctx, 'deviceGroup', deviceGroupId, change);
  });
}

/**
 * GET /api/deviceGroup/getDeviceOnlineOfflineRatio?search=: for every folder the caller sees that matches
 * `search`, the online and offline devices in or below it that the caller sees. One SQL statement.
 */
export async function deviceOnlineOfflineRatio(ctx: ServiceContext, search: string | undefined): Promise<DeviceOnlineOfflineCounts> {
  const searched = search === undefined || search.trim() === '' ? undefined : compileSearch(deviceGroupResource, search);
  const folders = and(scopeCondition(ctx.scope, deviceGroups.customerId), deviceGroupAccess(ctx), searched) ?? sql`true`;
  const rows = await countDeviceStatusBelow(ctx.db, { folders, visibleDevice: teamAccessCondition(ctx, 'device', devices.id) });

  return Object.fromEntries(rows.map((r) => [r.id, { onlineCount: r.onlineCount, offlineCount: r.offlineCount }]));
}
