import { sql, type SQL } from 'drizzle-orm';
import type { ContentUsageKind } from '@/server/modules/content';
import type { DeviceGroupUsageKind } from '@/server/modules/device-groups';
import type { FileReferenceKind } from '@/server/modules/files';
import type { QuickFilterUsageKind } from '@/server/modules/quick-filters';
import { countFileAssignments, countFolderAssignments, replaceFileInCampaigns } from './campaign-references.queries';

/*
 * Campaigns as users of files, file folders, device folders and quick filters, through those modules' plug
 * points: usage details (`campaignUsageDetails` for channels, `topLevelCampaignUsageDetails` for schedules),
 * the delete guards and `replaceFileReference`. Correlated SQL over fixed aliases (`cu_*`), so a page of files
 * or folders stays one statement.
 */

type Level = 'WIDGET' | 'TOP';

/** `[{id, name, type, level}]` of the campaigns of `level` whose `table` assignment names `target`. */
function usageOf(table: string, column: string, target: SQL, level: Level): SQL {
  return sql`(select coalesce(jsonb_agg(jsonb_build_object('id', cu_c.id, 'name', cu_c.name, 'type', cu_c.type, 'level', cu_c.level) order by cu_c.name, cu_c.id), '[]'::jsonb)
    from ${sql.identifier(table)} cu_a join campaign cu_c on cu_c.id = cu_a.campaign_id
    where cu_a.${sql.identifier(column)} = ${target} and cu_c.level = ${level})`;
}

export const campaignFileReferences: FileReferenceKind = {
  name: 'campaign',
  usageField: 'campaignUsageDetails',
  usage: (fileId) => usageOf('campaign_file_assignment', 'file_id', fileId, 'WIDGET'),
  countBlocking: (tx, input) => countFileAssignments(tx, input.fileIds),
  replace: (tx, _ctx, input) => replaceFileInCampaigns(tx, input),
  folders: {
    usage: (folderId) => usageOf('campaign_file_folder_assignment', 'file_folder_id', folderId, 'WIDGET'),
    countBlocking: (tx, input) => countFolderAssignments(tx, input.folderIds),
    detach: async () => undefined,
  },
};

/** Schedules (level TOP) as users of files: usage details only (the `campaign` kind guards and replaces for every level). */
export const scheduleFileReferences: FileReferenceKind = {
  name: 'schedule',
  usageField: 'topLevelCampaignUsageDetails',
  usage: (fileId) => usageOf('campaign_file_assignment', 'file_id', fileId, 'TOP'),
  replace: async () => 0,
  folders: {
    usage: (folderId) => usageOf('campaign_file_folder_assignment', 'file_folder_id', folderId, 'TOP'),
    countBlocking: async () => 0,
    detach: async () => undefined,
  },
};

export const campaignDeviceGroupUsages: DeviceGroupUsageKind[] = [
  {
    name: 'campaign',
    usageField: 'campaignUsageDetails',
    usage: (folderId) => usageOf('campaign_device_group_assignment', 'device_group_id', folderId, 'WIDGET'),
  },
  {
    name: 'campaign',
    usageField: 'topLevelCampaignUsageDetails',
    usage: (folderId) => usageOf('campaign_device_group_assignment', 'device_group_id', folderId, 'TOP'),
  },
];

/** Campaigns naming a quick filter (content, file or device filter): read-only and undeletable while they do (spec 3, spec 1 errors). */
export const campaignQuickFilterUsage: QuickFilterUsageKind = {
  name: 'campaign',
  count: (quickFilterId) =>
    sql`(select count(*) from campaign cu_q where cu_q.content_quick_filter_id = ${quickFilterId} or cu_q.file_quick_filter_id = ${quickFilterId} or cu_q.device_quick_filter_id = ${quickFilterId})`,
  blocksDelete: true,
  makesReadOnly: true,
  usageField: 'campaignUsageDetails',
  usage: (quickFilterId) =>
    sql`(select coalesce(jsonb_agg(jsonb_build_object('id', cu_q.id, 'name', cu_q.name, 'type', cu_q.type, 'level', cu_q.level) order by cu_q.name, cu_q.id), '[]'::jsonb)
      from campaign cu_q where cu_q.content_quick_filter_id = ${quickFilterId} or cu_q.file_quick_filter_id = ${quickFilterId} or cu_q.device_quick_filter_id = ${quickFilterId})`,
};

/** Channels and schedules playing a content item (CONTENT) or a content folder (CONTENT_DYNAMIC). */
export const campaignContentUsages: ContentUsageKind[] = (['WIDGET', 'TOP'] as const).flatMap((level) => {
  const usageField = level === 'WIDGET' ? 'campaignUsageDetails' : 'topLevelCampaignUsageDetails';

  return [
    {
      name: 'campaign',
      target: 'content',
      usageField,
      usage: (id: SQL) => usageOf('campaign_content_assignment', 'content_id', id, level),
    },
    {
      name: 'campaign',
      target: 'contentGroup',
      usageField,
      usage: (id: SQL) => usageOf('campaign_content_group_assignment', 'content_group_id', id, level),
    },
  ] satisfies ContentUsageKind[];
});
