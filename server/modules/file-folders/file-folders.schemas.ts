import { z } from '@hono/zod-openapi';
import { epochMs, intId, resourceName } from '@/server/http/wire.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { projected } from '@/server/query/projection.schemas';
import { selectTeamIdsParam, teamIdsParam } from '@/server/modules/teams/teams.schemas';

/*
 * Wire shapes of file folders (spec 2 "File folder" and the "File folders" endpoints).
 * No server imports: the console reuses these for forms and types.
 */

const booleanParam = booleanQuery;

const uuidParam = (description: string) => z.string().uuid().openapi({ format: 'uuid', description });

export const FolderNameSchema = resourceName;

export const FileFolderSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional().openapi({ description: 'Absent on the root folder' }),
    customerId: intId.optional(),
    parentId: z.string().uuid().optional().openapi({ description: 'Absent (null) for the root' }),
    fileFolderPath: z.string().optional().openapi({
      description:
        'Folder ids from the root down to this folder, joined by `/`; search `fileFolderPath:{id}` finds the folder and every folder below it',
    }),
    fileFolderType: z.number().int().optional().openapi({ description: '1 stored, 2 filtered' }),
    syncType: z.string().optional(),
    isRootSyncedFolder: z.boolean().optional(),
    isSyncedCloudAFolder: z.boolean().optional(),
    isSyncedCloudBFolder: z.boolean().optional(),
    isSyncedCloudCFolder: z.boolean().optional(),
    lastChange: epochMs.optional().openapi({ description: 'Epoch milliseconds' }),
    cleanupOutdatedFiles: z.boolean().optional(),
    quickFilterId: z.string().uuid().optional().openapi({ description: 'Filtered folders only' }),
    createdDate: z.string().optional(),
    fileCount: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Files directly in a stored folder; files matching the quick filter of a filtered folder' }),
    firstFileThumbnail: z
      .string()
      .optional()
      .openapi({ description: 'Thumbnail URL of the first file (by name) directly in the folder that has one' }),
    readOnly: z.boolean().optional().openapi({ description: 'With `includeReadOnlyInfo=true`' }),
    usageDetails: z.unknown().optional(),
    campaignUsageDetails: z.unknown().optional(),
    topLevelCampaignUsageDetails: z.unknown().optional(),
    messageUsageDetails: z.unknown().optional(),
  }),
).openapi('FileFolder');

export const FileFolderListQueryExtension = {
  includeReadOnlyInfo: booleanParam('Adds `readOnly` (the caller may only read the item through its teams) to each item'),
  includeResourcesWithoutTeam: booleanParam('Also list folders assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

export const CreateFileFolderQuerySchema = z.object({
  parentId: uuidParam('The parent folder (read the root folder id to create at the top)'),
  name: FolderNameSchema.openapi({ description: 'Unique among its siblings (case-insensitive)' }),
  teamIds: teamIdsParam,
  cleanupOutdatedFiles: booleanParam('Delete files whose validity has ended', false),
});

export const CreateFilteredFileFolderQuerySchema = z.object({
  parentId: uuidParam('The parent folder'),
  name: FolderNameSchema,
  quickFilterId: uuidParam('A FILE quick filter of the same customer'),
  teamIds: teamIdsParam,
});

export const RenameFileFolderQuerySchema = z.object({ folderId: uuidParam('The folder'), newName: FolderNameSchema });

export const BatchSchema = z
  .object({
    fileIds: z.array(z.string().uuid()).max(10_000).optional().default([]),
    folderIds: z.array(z.string().uuid()).max(10_000).optional().default([]),
  })
  .openapi('FileFolderBatch');

export const MoveBatchSchema = BatchSchema.extend({ targetFolder: z.object({ id: z.string().uuid() }) }).openapi('FileFolderMoveBatch');

export const BreadcrumbSchema = z.object({ fileFolders: z.array(FileFolderSchema) }).openapi('FileFolderBreadcrumb');

export const StorageStatisticsSchema = z
  .object({
    totalAvailableStorageSize: z.number().int().optional().openapi({ description: "The customer's quota in bytes; absent when unlimited" }),
    totalUsedStorageSize: z.number().int(),
    usedDatasourceResourceStorageSize: z.number().int(),
    usedUploadedFileStorageSize: z.number().int(),
  })
  .openapi('StorageStatistics');

export const removeFromPlaylistsParam = booleanParam('Remove direct file slides of deleted files from playlists', false);

export type MoveBatch = z.infer<typeof MoveBatchSchema>;
export type Batch = z.infer<typeof BatchSchema>;
export type FileFolder = z.infer<typeof FileFolderSchema>;
