import { z } from '@hono/zod-openapi';
import { booleanQuery } from '@/server/http/query-params.schemas';
import {
  customerIdParam,
  epochMsQuery,
  json,
  ListQuerySchema,
  pageOf,
  ScopedListQuerySchema,
  SelectQuerySchema,
} from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { SEARCH_DESCRIPTION } from '@/server/query/search/description';
import { TagRemovalListSchema } from '@/server/modules/tags/tags.schemas';
import {
  TeamAccessListSchema,
  TeamModificationSchema,
  TeamReadQueryExtension,
  SELECT_TEAM_IDS_EXEMPTION,
} from '@/server/modules/teams/teams.schemas';
import { BulkUpdateResultSchema, FileSchema, FileUpdateSchema, TagListSchema, teamAssignmentModes } from './files.schemas';
import { resourceName } from '@/server/http/wire.schemas';

const tags = ['Files'];
const uuid = (description: string) => z.string().uuid().openapi({ description, format: 'uuid' });
const booleanParam = booleanQuery;
const epochParam = (description: string) => epochMsQuery(`${description} (Unix epoch milliseconds)`);
const quickFilterIdParam = uuid('A saved file quick filter; its criteria are ANDed with `search`').optional();
const FileIdParams = z.object({
  fileId: z
    .string()
    .uuid()
    .openapi({ param: { name: 'fileId', in: 'path' }, format: 'uuid' }),
});
const fileResponse = (description: string) => ({ description, ...json(FileSchema) });
const FilePage = pageOf(FileSchema, 'FilePage');

export const listFilesRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/file',
    operationId: 'listFiles',
    tags,
    summary: 'Files, paged',
    description:
      'Default order: name, then id. `fileFolderPath:{folderId}` finds files anywhere below a folder, `fileFolderId={folderId}` directly in it. Select-only: `usageDetails`, `duplicateDetails`, `campaignUsageDetails`, `topLevelCampaignUsageDetails`, `messageUsageDetails`.',
    request: { query: ScopedListQuerySchema.extend({ ...TeamReadQueryExtension, quickFilterId: quickFilterIdParam }) },
    responses: { 200: { description: 'A page of files', ...json(FilePage) } },
  },
  { resourceIds: { 'query.quickFilterId': 'quickFilter' }, notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const fileSummaryRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/file/view/summary',
    operationId: 'fileSummary',
    tags,
    summary: 'Folders and files in one answer (a folder view)',
    description:
      '`fileFolders`: the folders matching `folderSearch` (projected by `folderSelect`, ordered by name, at most 1000; `fileFoldersTruncated` is true when more matched). `files`: the page of files matching `fileSearch` and `quickFilterId` (`page`, `size`, `sort`, `select` apply to it).',
    request: {
      query: ListQuerySchema.omit({ search: true }).extend({
        customerId: customerIdParam,
        folderSearch: z
          .string()
          .optional()
          .openapi({ description: `Filter on folders (e.g. \`parentId={id}\`). ${SEARCH_DESCRIPTION}` }),
        fileSearch: z
          .string()
          .optional()
          .openapi({ description: `Filter on files (e.g. \`fileFolderId={id}\`). ${SEARCH_DESCRIPTION}` }),
        folderSelect: z.string().optional().openapi({ description: 'Projection of the folders' }),
        quickFilterId: quickFilterIdParam,
      }),
    },
    responses: {
      200: {
        description: 'Folders and a page of files',
        ...json(
          z
            .object({ fileFolders: z.array(z.record(z.string(), z.unknown())), fileFoldersTruncated: z.boolean(), files: FilePage })
            .openapi('FileSummary'),
        ),
      },
    },
  },
  { resourceIds: { 'query.quickFilterId': 'quickFilter' } },
);

export const getFileRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/file/{id}',
    operationId: 'getFile',
    tags,
    summary: 'One file',
    description: '`readOnly` is always answered.',
    request: {
      params: z.object({
        id: z
          .string()
          .uuid()
          .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
      }),
      query: SelectQuerySchema.extend({ customerId: customerIdParam }),
    },
    responses: { 200: fileResponse('The file') },
  },
  { resourceIds: { 'path.id': 'file' } },
);

export const replaceFileReferenceRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/file/replaceFileReference',
    operationId: 'replaceFileReference',
    tags,
    summary: 'Point every reference of one file at another',
    description:
      "`teamAssignmentMode`: `MERGE` adds the old file's teams to the source file, `OVERWRITE` gives the source file exactly the old file's teams, `KEEP_TARGET` leaves the source file's teams. Both files must be visible, writable and of the same customer.",
    request: {
      query: z.object({
        customerId: customerIdParam,
        fileIdToReplace: uuid('The file whose references move'),
        sourceFileId: uuid('The file the references point at afterwards'),
        removeOldFile: booleanParam('Delete the replaced file afterwards (default false)'),
        teamAssignmentMode: z.enum(teamAssignmentModes).optional().openapi({ description: 'Default MERGE' }),
      }),
    },
    responses: { 200: fileResponse('The source file'), ...conflictError },
  },
  { resourceIds: { 'query.fileIdToReplace': 'file', 'query.sourceFileId': 'file' } },
);

export const renameFileRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    method: 'post',
    path: '/api/file/rename',
    operationId: 'renameFile',
    tags,
    summary: 'Rename a file',
    request: {
      query: z.object({
        fileId: uuid('The file'),
        newName: resourceName.openapi({ description: 'The new name (1 to 255 characters)' }),
      }),
    },
    responses: { 200: fileResponse('The renamed file') },
  },
  { resourceIds: { 'query.fileId': 'file' } },
);

export const updateFileTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/file/updateTeamAssignments',
    operationId: 'updateFileTeamAssignments',
    tags: ['Files', 'Teams'],
    summary: 'Change the teams of a file',
    request: {
      query: z.object({ customerId: customerIdParam, fileId: uuid('The file') }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The file's teams afterwards", ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'query.fileId': 'file', 'body.removeFromTeamIds[]': 'team' } },
);

export const updateFileRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    method: 'put',
    path: '/api/file/{fileId}',
    operationId: 'updateFile',
    tags,
    summary: "Change a file's name, validity, tags, metadata or muted flag",
    description: 'Null or omitted fields keep their value. `validFrom` must not be after `validTo`.',
    request: { params: FileIdParams, body: { required: true, ...json(FileUpdateSchema) } },
    responses: { 200: fileResponse('The updated file') },
  },
  { resourceIds: { 'path.fileId': 'file' } },
);

export const deleteFileRoute = defineRoute(
  { minRole: 'EDITOR', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/file/{fileId}',
    operationId: 'deleteFile',
    tags,
    summary: 'Delete a file',
    description:
      'Blocked (409 `file.error.inUse`) while channels, schedules or sub-channels use the file. `removeFromPlaylists=true` removes direct file slides from playlists.',
    request: {
      params: FileIdParams,
      query: z.object({ removeFromPlaylists: booleanParam('Remove the file from playlists (default false)') }),
    },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  { resourceIds: { 'path.fileId': 'file' } },
);

const bulkTagsRoute = (verb: 'add' | 'set' | 'remove', summary: string) =>
  defineRoute(
    { minRole: 'EDITOR', tenant: 'scoped' },
    {
      method: 'post',
      path: `/api/v2/file/tags/${verb}`,
      operationId: `${verb}FileTags`,
      tags,
      summary,
      description: 'Applies to every file matching `search` (all files when absent) that the caller may write; answers how many changed.',
      request: {
        query: z.object({
          customerId: customerIdParam,
          search: z
            .string()
            .optional()
            .openapi({ description: `Which files. ${SEARCH_DESCRIPTION}` }),
        }),
        body: { required: true, ...json(verb === 'remove' ? TagRemovalListSchema : TagListSchema) },
      },
      responses: { 200: { description: 'How many files changed', ...json(BulkUpdateResultSchema) } },
    },
  );

export const addFileTagsRoute = bulkTagsRoute('add', 'Add tags to the matching files');
export const setFileTagsRoute = bulkTagsRoute('set', 'Replace the tags of the matching files');
export const removeFileTagsRoute = bulkTagsRoute('remove', 'Remove tags from the matching files');

export const setFileValidityRoute = defineRoute(
  { minRole: 'APPROVER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/v2/file/validity/set',
    operationId: 'setFileValidity',
    tags,
    summary: 'Set the validity window of the matching files',
    description:
      'An absent `validFrom` or `validTo` clears that bound. Applies to every file matching `search` (all when absent) that the caller may write.',
    request: {
      query: z.object({
        customerId: customerIdParam,
        search: z
          .string()
          .optional()
          .openapi({ description: `Which files. ${SEARCH_DESCRIPTION}` }),
        validFrom: epochParam('Start of validity'),
        validTo: epochParam('End of validity; not before `validFrom`'),
      }),
    },
    responses: { 200: { description: 'How many files changed', ...json(BulkUpdateResultSchema) } },
  },
);
