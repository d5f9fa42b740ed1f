import { sql, type SQL } from 'drizzle-orm';
import type { ContentUsageKind } from '@/server/modules/content';
import type { DeviceGroupUsageKind } from '@/server/modules/device-groups';
import type { FileReferenceKind } from '@/server/modules/files';
import type { QuickFilterUsageKind } from '@/server/modules/quick-filters';
import { countMessagesAssigningFiles, countMessagesPlayingFolders, replaceFileInMessages } from './message-references.queries';

/*
 * Messages (sub-channels) as users of content, content folders, files, file folders, device folders and quick
 * filters, through those modules' plug points: `messageUsageDetails` (`[{id, name, type, messageGroupId}]`) and
 * the delete guards where campaigns have them. Correlated SQL over fixed aliases (`mu_*`), so a page stays one
 * statement.
 */

/** `[{id, name, type, messageGroupId}]` of the messages where `condition` (over `mu_m`) holds. */
function messagesWhere(condition: SQL): SQL {
  return sql`(select coalesce(jsonb_agg(jsonb_build_object('id', mu_m.id, 'name', mu_m.name, 'type', mu_m.type, 'messageGroupId', mu_m.message_group_id) order by mu_m.name, mu_m.id), '[]'::jsonb)
    from message mu_m where ${condition})`;
}

/** The messages whose `table` assignment names `target`. */
const assigning = (table: string, column: string, target: SQL) =>
  sql`mu_m.id in (select mu_a.message_id from ${sql.identifier(table)} mu_a where mu_a.${sql.identifier(column)} = ${target})`;

export const messageFileReferences: FileReferenceKind = {
  name: 'message',
  usageField: 'messageUsageDetails',
  usage: (fileId) => messagesWhere(assigning('message_file_assignment', 'file_id', fileId)),
  countBlocking: (tx, input) => countMessagesAssigningFiles(tx, input.fileIds),
  replace: (tx, _ctx, input) => replaceFileInMessages(tx, input),
  folders: {
    usage: (folderId) => messagesWhere(assigning('message_file_folder_assignment', 'file_folder_id', folderId)),
    countBlocking: (tx, input) => countMessagesPlayingFolders(tx, input.folderIds),
    detach: async () => undefined,
  },
};

export const messageContentUsages: ContentUsageKind[] = [
  {
    name: 'message',
    target: 'content',
    usageField: 'messageUsageDetails',
    usage: (id) => messagesWhere(sql`(mu_m.content_id = ${id} or ${assigning('message_content_assignment', 'content_id', id)})`),
  },
  {
    name: 'message',
    target: 'contentGroup',
    usageField: 'messageUsageDetails',
    usage: (id) => messagesWhere(assigning('message_content_group_assignment', 'content_group_id', id)),
  },
];

export const messageDeviceGroupUsage: DeviceGroupUsageKind = {
  name: 'message',
  usageField: 'messageUsageDetails',
  usage: (folderId) => messagesWhere(assigning('message_device_group_assignment', 'device_group_id', folderId)),
};

const namesFilter = (id: SQL) =>
  sql`(mu_m.content_quick_filter_id = ${id} or mu_m.file_quick_filter_id = ${id} or mu_m.device_quick_filter_id = ${id})`;

/** Messages naming a quick filter: read-only and undeletable while they do, as for channels. */
export const messageQuickFilterUsage: QuickFilterUsageKind = {
  name: 'message',
  count: (id) => sql`(select count(*) from message mu_m where ${namesFilter(id)})`,
  blocksDelete: true,
  makesReadOnly: true,
  usageField: 'messageUsageDetails',
  usage: (id) => messagesWhere(namesFilter(id)),
};
