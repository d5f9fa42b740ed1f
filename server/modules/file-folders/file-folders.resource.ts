import { sql } from 'drizzle-orm';
import { thumbnailLocationSql, folderUsageSql } from '@/server/modules/files';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { aliasedTable } from '@/server/query/relations';
import { folderPathField } from '@/server/query/folder-path';
import { defineResource } from '@/server/query/resource';

/**
 * Searchable and selectable fields of `fileFolder` (spec 2 "File folder").
 * - `fileFolderPath` is the ids of the ancestors root first, the folder itself last (a uuid[] column,
 *   answered joined by `/`), so `fileFolderPath:{id}` finds the folder and every folder below it with
 *   one GIN-indexed predicate.
 * - `fileCount` counts the files directly in a stored folder (what the folder shows when opened); for
 *   a filtered folder the service fills in the count of files matching its quick filter.
 * - `firstFileThumbnail` is the thumbnail URL of the first file (by name) directly in the folder that has one.
 * - Both computed fields are select-only (spec 1: computed fields only when named in `select`).
 * - `readOnly` comes from the team read parameter `includeReadOnlyInfo` (an extra column of the list).
 */
export const fileFolderResource = defineResource({
  name: 'fileFolder',
  table: fileFolders,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const { table: f, from: fFrom } = aliasedTable(files, 'ff_file');
    const { table: g, from: gFrom } = aliasedTable(files, 'ff_thumb');
    const id = sql`${t.id}`;
    const stored = sql`${t.fileFolderType} = 1`;

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      // The root row stores a placeholder name; the spec answers none for it.
      name: { kind: 'scalar', type: 'string', sql: sql`case when ${t.parentId} is null then null else ${t.name} end` },
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      parentId: { kind: 'scalar', type: 'uuid', sql: t.parentId },
      fileFolderPath: folderPathField(t.path),
      fileFolderType: { kind: 'scalar', type: 'integer', sql: t.fileFolderType },
      syncType: { kind: 'scalar', type: 'string', sql: t.syncType },
      // No cloud sync exists yet (a later issue): every folder is an unsynced one.
      isRootSyncedFolder: { kind: 'scalar', type: 'boolean', sql: sql`false`, sortable: false },
      isSyncedCloudAFolder: { kind: 'scalar', type: 'boolean', sql: sql`false`, sortable: false },
      isSyncedCloudBFolder: { kind: 'scalar', type: 'boolean', sql: sql`false`, sortable: false },
      isSyncedCloudCFolder: { kind: 'scalar', type: 'boolean', sql: sql`false`, sortable: false },
      lastChange: { kind: 'scalar', type: 'epochMs', sql: t.lastChange },
      cleanupOutdatedFiles: { kind: 'scalar', type: 'boolean', sql: t.cleanupOutdatedFiles },
      quickFilterId: { kind: 'scalar', type: 'uuid', sql: t.quickFilterId },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      fileCount: {
        kind: 'scalar',
        type: 'integer',
        selectOnly: true,
        sql: sql`case when ${stored} then (select count(*) from ${fFrom} where ${f.customerId} = ${t.customerId} and ${f.fileFolderId} = ${t.id}) else 0 end`,
      },
      firstFileThumbnail: {
        kind: 'scalar',
        type: 'string',
        selectOnly: true,
        searchable: false,
        sortable: false,
        sql: sql`(select ${thumbnailLocationSql(g)} from ${gFrom}
          where ${g.customerId} = ${t.customerId} and ${g.fileFolderId} = ${t.id} and ${g.lastPreviewUploadTime} is not null
          order by ${g.name}, ${g.id} limit 1)`,
      },
      teamAssignments: teamAssignmentsField('fileFolder', t.id),
      usageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: sql`jsonb_build_object('contentUsage', ${folderUsageSql('usageDetails', id)})`,
      },
      campaignUsageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: folderUsageSql('campaignUsageDetails', id) },
      topLevelCampaignUsageDetails: {
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        sql: folderUsageSql('topLevelCampaignUsageDetails', id),
      },
      messageUsageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: folderUsageSql('messageUsageDetails', id) },
    };
  },
});
