import { z } from '@hono/zod-openapi';
import { customerIdParam, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import {
  TeamAccessListSchema,
  teamIdsParam,
  TeamModificationSchema,
  SELECT_TEAM_IDS_EXEMPTION,
  TEAM_IDS_EXEMPTION,
} from '@/server/modules/teams/teams.schemas';
import {
  DeviceGroupCreateSchema,
  DeviceGroupListQueryExtension,
  DeviceGroupSchema,
  DeviceGroupUpdateSchema,
  DeviceOnlineOfflineCountsSchema,
  targetGroupIdParam,
} from './device-groups.schemas';

const tags = ['Device folders'];
const folderResponse = (description: string) => ({ description, ...json(DeviceGroupSchema) });
const scoped = <T extends z.ZodRawShape>(shape: T) => z.object({ customerId: customerIdParam, ...shape });
const uuidPath = (name: string, description?: string) =>
  z
    .string()
    .uuid()
    .openapi({ param: { name, in: 'path' }, format: 'uuid', description });
const idPath = z.object({ id: uuidPath('id') });
const videoWall = 'A video-wall folder holds devices only: a folder created in or moved into one is 409 `deviceGroup.error.videoWall`.';

export const listDeviceGroupsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/deviceGroup',
    operationId: 'listDeviceGroups',
    tags,
    summary: 'Device folders, paged',
    description:
      'Search `parentId={id}` for the direct sub-folders, `deviceGroupPath:{id}` for the folder and every folder below it, `parentId=NULL` for the root. ' +
      'The root is listed for everyone who sees the tenant. `alertCount` and the usage fields are computed and returned only when named in `select`.',
    request: { query: ScopedListQuerySchema.extend(DeviceGroupListQueryExtension) },
    responses: { 200: { description: 'A page of device folders', ...json(pageOf(DeviceGroupSchema, 'DeviceGroupPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getDeviceGroupRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/deviceGroup/{id}',
    operationId: 'getDeviceGroup',
    tags,
    summary: 'One device folder',
    request: {
      params: idPath,
      query: scoped({ select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }) }),
    },
    responses: { 200: folderResponse('The device folder') },
  },
  { resourceIds: { 'path.id': 'deviceGroup' } },
);

export const deviceOnlineOfflineRatioRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/deviceGroup/getDeviceOnlineOfflineRatio',
    operationId: 'getDeviceGroupOnlineOfflineRatio',
    tags,
    summary: 'Online and offline devices in and below each matching folder',
    description:
      'For every device folder the caller sees that matches `search` (all of them without one): `{onlineCount, offlineCount}` of the devices in the folder and every folder below it, ' +
      'counting the devices the caller sees. One SQL statement.',
    request: { query: scoped({ search: ScopedListQuerySchema.shape.search }) },
    responses: { 200: { description: 'Folder id → device counts', ...json(DeviceOnlineOfflineCountsSchema) } },
  },
);

export const createDeviceGroupRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/deviceGroup/{id}',
    operationId: 'createDeviceGroup',
    tags,
    summary: 'Create a device folder',
    description:
      `In the folder \`id\`, in that folder's customer. \`type\` is \`NORMAL\` (default) or \`VIDEO_WALL\`, and never changes afterwards; \`videoWallMetaData\` only with \`VIDEO_WALL\` (409 \`deviceGroup.error.notVideoWall\`). ${videoWall} ` +
      "Team users create in the root only when the customer's `isDeviceAndGroupCreationEnabledInRootForTeamUsers` is on (403 `deviceGroup.error.rootCreationDisabled`).",
    request: {
      params: z.object({ id: uuidPath('id', 'The parent folder') }),
      query: scoped({ teamIds: teamIdsParam }),
      body: { required: true, ...json(DeviceGroupCreateSchema) },
    },
    responses: { 201: folderResponse('The created device folder'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'deviceGroup' }, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateDeviceGroupRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/deviceGroup/{id}',
    operationId: 'updateDeviceGroup',
    tags,
    summary: 'Rename a device folder, set its tags or its video-wall data',
    description:
      "`tags` replace the folder's tags (DEVICE tags). The root keeps its name (409 `deviceGroup.error.root`); `type` never changes (409 `deviceGroup.error.typeImmutable`).",
    request: { params: idPath, query: scoped({}), body: { required: true, ...json(DeviceGroupUpdateSchema) } },
    responses: { 200: folderResponse('The updated device folder'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'deviceGroup' } },
);

export const moveDeviceGroupRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/deviceGroup/moveToParent/{folderId}/{targetFolderId}',
    operationId: 'moveDeviceGroup',
    tags,
    summary: 'Move a device folder (with everything below it) into another folder',
    description:
      'One transaction: the folders below it and every device in them follow. 409: the root (`deviceGroup.error.root`), into itself or a folder below it ' +
      `(\`deviceGroup.error.moveIntoItself\`). ${videoWall}`,
    request: {
      params: z.object({
        folderId: uuidPath('folderId', 'The folder to move'),
        targetFolderId: uuidPath('targetFolderId', 'Its new parent'),
      }),
      query: scoped({}),
    },
    responses: { 200: folderResponse('The moved device folder'), ...conflictError },
  },
  { resourceIds: { 'path.folderId': 'deviceGroup', 'path.targetFolderId': 'deviceGroup' } },
);

export const updateDeviceGroupTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/deviceGroup/updateTeamAssignments',
    operationId: 'updateDeviceGroupTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of a device folder',
    description: 'The root folder is visible to everyone and takes no teams (409 `deviceGroup.error.root`).',
    request: {
      query: scoped({ deviceGroupId: z.string().uuid().openapi({ format: 'uuid', description: 'The device folder' }) }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The folder's teams afterwards", ...json(TeamAccessListSchema) }, ...conflictError },
  },
  { resourceIds: { 'query.deviceGroupId': 'deviceGroup', 'body.removeFromTeamIds[]': 'team' } },
);

export const deleteDeviceGroupRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/deviceGroup/{id}',
    operationId: 'deleteDeviceGroup',
    tags,
    summary: 'Delete a device folder with every folder below it; their devices move',
    description:
      "The devices of the folder and of every folder below it move into `targetGroupId` (default: the folder's parent); the folders are deleted. " +
      'The root: 409 `deviceGroup.error.root`; a target inside the deleted folder: 409 `deviceGroup.error.targetInDeletedFolder`.',
    request: { params: idPath, query: scoped({ targetGroupId: targetGroupIdParam }) },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  { resourceIds: { 'path.id': 'deviceGroup', 'query.targetGroupId': 'deviceGroup' } },
);
