import { z } from '@hono/zod-openapi';
import { requiredBooleanQuery } from '@/server/http/query-params.schemas';
import { customerIdParam, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import {
  TeamAccessListSchema,
  TeamModificationSchema,
  SELECT_TEAM_IDS_EXEMPTION,
  TEAM_IDS_EXEMPTION,
} from '@/server/modules/teams/teams.schemas';
import {
  BatchSchema,
  BreadcrumbSchema,
  CreateFileFolderQuerySchema,
  CreateFilteredFileFolderQuerySchema,
  FileFolderListQueryExtension,
  FileFolderSchema,
  MoveBatchSchema,
  removeFromPlaylistsParam,
  RenameFileFolderQuerySchema,
  StorageStatisticsSchema,
} from './file-folders.schemas';

const tags = ['File folders'];
const folderResponse = (description: string) => ({ description, ...json(FileFolderSchema) });
const scoped = <T extends z.ZodRawShape>(shape: T) => z.object({ customerId: customerIdParam, ...shape });
const folderIdParam = z.string().uuid().openapi({ format: 'uuid', description: 'The folder' });
const deleted = { 204: { description: 'Deleted' } };

export const listFileFoldersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/fileFolder',
    operationId: 'listFileFolders',
    tags,
    summary: 'File folders, paged',
    description:
      'Search `parentId={id}` for the direct sub-folders, `fileFolderPath:{id}` for the folder and every folder below it, `parentId=NULL` for the root. ' +
      'The root is listed for everyone who sees the tenant. `fileCount` and `firstFileThumbnail` are computed and returned only when named in `select`.',
    request: { query: ScopedListQuerySchema.extend(FileFolderListQueryExtension) },
    responses: { 200: { description: 'A page of folders', ...json(pageOf(FileFolderSchema, 'FileFolderPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getFileFolderRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/fileFolder/{id}',
    operationId: 'getFileFolder',
    tags,
    summary: 'One file folder',
    request: {
      params: z.object({
        id: z
          .string()
          .uuid()
          .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
      }),
      query: scoped({ select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }) }),
    },
    responses: { 200: folderResponse('The folder') },
  },
  { resourceIds: { 'path.id': 'fileFolder' } },
);

export const storageStatisticsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/fileFolder/storageStatistics',
    operationId: 'getStorageStatistics',
    tags,
    summary: 'Storage quota and use of the selected customer',
    description:
      "Sizes in bytes. `totalAvailableStorageSize` is absent when the customer's storage is unlimited. Without `customerId`, ADMIN gets every customer summed and a network owner's OWNER its own customer and its members summed (absent total when any of them is unlimited).",
    request: { query: scoped({}) },
    responses: { 200: { description: 'The statistics', ...json(StorageStatisticsSchema) } },
  },
);

export const breadcrumbRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/fileFolder/breadcrumb',
    operationId: 'getFileFolderBreadcrumb',
    tags,
    summary: 'The folders from the root down to a folder',
    description: 'Ancestors the caller cannot see through its teams are left out.',
    request: { query: scoped({ folderId: folderIdParam }) },
    responses: { 200: { description: 'Root first, the folder last', ...json(BreadcrumbSchema) } },
  },
  { resourceIds: { 'query.folderId': 'fileFolder' } },
);

export const createFileFolderRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/fileFolder',
    operationId: 'createFileFolder',
    tags,
    summary: 'Create a folder',
    description:
      'Sibling names are unique, case-insensitively (409 `fileFolder.error.duplicateName`). Not under a filtered folder (409 `fileFolder.error.filtered`). ' +
      "Team users create in the root only when the customer's `isFileAndFolderCreationEnabledInRootForTeamUsers` is on (403 `fileFolder.error.rootCreationDisabled`).",
    request: { query: CreateFileFolderQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 201: folderResponse('The created folder'), ...conflictError },
  },
  { resourceIds: { 'query.parentId': 'fileFolder' }, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const createFilteredFileFolderRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/fileFolder/addFilteredFileFolder',
    operationId: 'createFilteredFileFolder',
    tags,
    summary: 'Create a filtered folder whose contents follow a FILE quick filter',
    description:
      'The quick filter must be a FILE filter of the same customer (404 unknown, 400 `fileFolder.error.quickFilterType` for another type).',
    request: { query: CreateFilteredFileFolderQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 201: folderResponse('The created folder'), ...conflictError },
  },
  { resourceIds: { 'query.parentId': 'fileFolder', 'query.quickFilterId': 'quickFilter' }, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const renameFileFolderRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/fileFolder/rename',
    operationId: 'renameFileFolder',
    tags,
    summary: 'Rename a folder',
    description: 'The root cannot be renamed (409 `fileFolder.error.root`).',
    request: { query: RenameFileFolderQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: folderResponse('The renamed folder'), ...conflictError },
  },
  { resourceIds: { 'query.folderId': 'fileFolder' } },
);

export const moveBatchRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/fileFolder/moveBatchToFolder',
    operationId: 'moveFilesAndFoldersToFolder',
    tags,
    summary: 'Move files and folders (with everything below them) into a folder',
    description:
      'One transaction. Every id must be visible (404) and writable (403). 409: moving the root, a folder into itself or a sub-folder of it, ' +
      'anything into a filtered folder, or a folder next to a sibling of the same name.',
    request: { query: scoped({}), body: { required: true, ...json(MoveBatchSchema) } },
    responses: { 200: folderResponse('The target folder'), ...conflictError },
  },
);

export const deleteBatchRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/fileFolder/deleteBatch',
    operationId: 'deleteFilesAndFolders',
    tags,
    summary: 'Delete files and folders (recursively) at once',
    description: 'One transaction. Every id must be visible (404) and writable (403); the root is refused (409).',
    request: { query: scoped({ removeFromPlaylists: removeFromPlaylistsParam }), body: { required: true, ...json(BatchSchema) } },
    responses: { ...deleted, ...conflictError },
  },
  { resourceIds: { 'body.fileIds[]': 'file', 'body.folderIds[]': 'fileFolder' } },
);

export const setCleanupOutdatedFilesRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/fileFolder/setCleanupOutdatedFiles',
    operationId: 'setFileFolderCleanupOutdatedFiles',
    tags,
    summary: 'Turn the cleanup of outdated files on or off',
    description:
      'In cleanup mode an hourly job deletes the files directly in the folder whose `validTo` has passed (sub-folders follow their own setting).',
    request: {
      query: scoped({
        folderId: folderIdParam,
        cleanupOutdatedFiles: requiredBooleanQuery('Cleanup mode on or off'),
      }),
    },
    responses: { 200: folderResponse('The folder'), ...conflictError },
  },
  { resourceIds: { 'query.folderId': 'fileFolder' } },
);

export const updateFileFolderTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/fileFolder/updateTeamAssignments',
    operationId: 'updateFileFolderTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of a folder',
    description: 'The root folder is visible to everyone and takes no teams (409 `fileFolder.error.root`).',
    request: { query: scoped({ fileFolderId: folderIdParam }), body: { required: true, ...json(TeamModificationSchema) } },
    responses: { 200: { description: "The folder's teams afterwards", ...json(TeamAccessListSchema) }, ...conflictError },
  },
  { resourceIds: { 'query.fileFolderId': 'fileFolder', 'body.removeFromTeamIds[]': 'team' } },
);

export const deleteFileFolderRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/fileFolder/{id}',
    operationId: 'deleteFileFolder',
    tags,
    summary: 'Delete a folder with every folder and file below it',
    description:
      'One transaction whatever the number of files; their blobs are removed afterwards by the storage cleanup job. The root: 409 `fileFolder.error.root`.',
    request: {
      params: z.object({
        id: z
          .string()
          .uuid()
          .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
      }),
      query: scoped({ removeFromPlaylists: removeFromPlaylistsParam }),
    },
    responses: { ...deleted, ...conflictError },
  },
  { resourceIds: { 'path.id': 'fileFolder' } },
);
