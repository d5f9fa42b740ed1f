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
  ContentGroupCreateSchema,
  ContentGroupListQueryExtension,
  ContentGroupMoveSchema,
  ContentGroupRenameSchema,
  ContentGroupSchema,
  removeContentsParam,
} from './content-groups.schemas';

const tags = ['Content folders'];
const folderResponse = (description: string) => ({ description, ...json(ContentGroupSchema) });
const scoped = <T extends z.ZodRawShape>(shape: T) => z.object({ customerId: customerIdParam, ...shape });
const idPath = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
});
const locked = 'Locked content anywhere in the move or delete: 409 `content.error.locked`.';

export const listContentGroupsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/contentGroup',
    operationId: 'listContentGroups',
    tags,
    summary: 'Content folders, paged',
    description:
      'Search `parentId={id}` for the direct sub-folders, `contentGroupPath:{id}` for the folder and every folder below it, `parentId=NULL` for the root, ' +
      '`isTemplateGroup=true` for the Templates folder. The root is listed for everyone who sees the tenant. `contentCount` and `simpleLoopCount` are computed and returned only when named in `select`.',
    request: { query: ScopedListQuerySchema.extend(ContentGroupListQueryExtension) },
    responses: { 200: { description: 'A page of content folders', ...json(pageOf(ContentGroupSchema, 'ContentGroupPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getContentGroupRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/contentGroup/{id}',
    operationId: 'getContentGroup',
    tags,
    summary: 'One content folder',
    request: {
      params: idPath,
      query: scoped({ select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }) }),
    },
    responses: { 200: folderResponse('The content folder') },
  },
  { resourceIds: { 'path.id': 'contentGroup' } },
);

export const createContentGroupRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/contentGroup',
    operationId: 'createContentGroup',
    tags,
    summary: 'Create a content folder',
    description:
      'Under `parentGroupId`, or the root when absent. Sibling names are unique, case-insensitively (409 `contentGroup.error.duplicateName`). ' +
      "Team users create in the root only when the customer's `isContentAndGroupCreationEnabledInRootForTeamUsers` is on (403 `contentGroup.error.rootCreationDisabled`).",
    request: {
      query: scoped({
        parentGroupId: z.string().uuid().optional().openapi({ format: 'uuid', description: 'The parent folder; the root when absent' }),
        teamIds: teamIdsParam,
      }),
      body: { required: true, ...json(ContentGroupCreateSchema) },
    },
    responses: { 201: folderResponse('The created content folder'), ...conflictError },
  },
  { resourceIds: { 'query.parentGroupId': 'contentGroup' }, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const moveContentGroupsRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/contentGroup/move',
    operationId: 'moveContentAndGroups',
    tags,
    summary: 'Move content folders (with everything below them) and content into a folder',
    description:
      'One transaction. Every id must be visible (404) and writable (403). 409: moving the root or the Templates folder, a folder into itself or a sub-folder of it, ' +
      `or a folder next to a sibling of the same name. ${locked}`,
    request: { query: scoped({}), body: { required: true, ...json(ContentGroupMoveSchema) } },
    responses: { 200: folderResponse('The target folder'), ...conflictError },
  },
  { resourceIds: { 'body.targetGroupId': 'contentGroup', 'body.contentGroupIds[]': 'contentGroup', 'body.contentIds[]': 'deviceContent' } },
);

export const updateContentGroupTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/contentGroup/updateTeamAssignments',
    operationId: 'updateContentGroupTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of a content folder',
    description: 'The root folder is visible to everyone and takes no teams (409 `contentGroup.error.root`).',
    request: {
      query: scoped({ contentGroupId: z.string().uuid().openapi({ format: 'uuid', description: 'The content folder' }) }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The folder's teams afterwards", ...json(TeamAccessListSchema) }, ...conflictError },
  },
  { resourceIds: { 'query.contentGroupId': 'contentGroup', 'body.removeFromTeamIds[]': 'team' } },
);

export const renameContentGroupRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/contentGroup/{id}',
    operationId: 'renameContentGroup',
    tags,
    summary: 'Rename a content folder',
    description: 'The root and the Templates folder keep their names (409 `contentGroup.error.root`, `contentGroup.error.templates`).',
    request: { params: idPath, query: scoped({}), body: { required: true, ...json(ContentGroupRenameSchema) } },
    responses: { 200: folderResponse('The renamed content folder'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'contentGroup' } },
);

export const deleteContentGroupRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/contentGroup/{id}',
    operationId: 'deleteContentGroup',
    tags,
    summary: 'Delete a content folder with every folder below it',
    description: `\`removeContents=true\` deletes the content in and below it; \`false\` (the default) moves that content into the root folder. The root and the Templates folder: 409. ${locked}`,
    request: { params: idPath, query: scoped({ removeContents: removeContentsParam }) },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  { resourceIds: { 'path.id': 'contentGroup' } },
);
