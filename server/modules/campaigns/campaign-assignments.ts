import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { deviceContents } from '@/server/modules/content/content.table';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { messageGroups } from '@/server/modules/message-groups/message-groups.table';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import type { AssignmentField } from './campaigns.schemas';
import {
  campaignContentAssignments,
  campaignContentGroupAssignments,
  campaignDeviceAssignments,
  campaignDeviceGroupAssignments,
  campaignFileAssignments,
  campaignFileFolderAssignments,
  campaignMessageGroupAssignments,
} from './campaigns.table';

/**
 * The assignment kinds of a campaign (seven) and of a message (six: no message groups), described once:
 * the write field (`contentAssignment`), the item's id key (`contentId`), the v2 list field
 * (`contentAssignments`), the search relation (`campaignContentAssignments.contentId`), the owner's table
 * and columns (`campaign_id` / `message_id`), the target column, and the target table that answers names
 * and the tenant check. The statements of campaigns.queries.ts and the writes of campaign-writes.ts take a
 * kind, so campaigns and messages share them.
 */
export type AssignmentKind = {
  field: AssignmentField;
  itemKey: string;
  listField: string;
  searchField: string;
  /** The resource name in 404s (`No deviceContent with id …`). */
  resource: string;
  table: PgTable;
  /** The owner id column of the assignment table: SQL name and Drizzle key. */
  ownerColumnName: 'campaign_id' | 'message_id';
  ownerKey: 'campaignId' | 'messageId';
  targetColumn: AnyPgColumn;
  /** The SQL column name of the target id in the assignment table. */
  targetColumnName: string;
  idType: 'uuid' | 'bigint';
  weighted: boolean;
  target?: { table: PgTable; id: AnyPgColumn; customerId: AnyPgColumn; name: AnyPgColumn };
};

type KindSpec = Omit<AssignmentKind, 'table' | 'searchField' | 'ownerColumnName' | 'ownerKey' | 'targetColumn'> & { relation: string };

const kindSpecs: readonly KindSpec[] = [
  {
    field: 'contentAssignment',
    itemKey: 'contentId',
    listField: 'contentAssignments',
    relation: 'ContentAssignments',
    resource: 'deviceContent',
    targetColumnName: 'content_id',
    idType: 'uuid',
    weighted: true,
    target: { table: deviceContents, id: deviceContents.id, customerId: deviceContents.customerId, name: deviceContents.name },
  },
  {
    field: 'contentGroupAssignment',
    itemKey: 'contentGroupId',
    listField: 'contentGroupAssignments',
    relation: 'ContentGroupAssignments',
    resource: 'contentGroup',
    targetColumnName: 'content_group_id',
    idType: 'uuid',
    weighted: false,
    target: { table: contentGroups, id: contentGroups.id, customerId: contentGroups.customerId, name: contentGroups.name },
  },
  {
    field: 'fileAssignment',
    itemKey: 'fileId',
    listField: 'fileAssignments',
    relation: 'FileAssignments',
    resource: 'file',
    targetColumnName: 'file_id',
    idType: 'uuid',
    weighted: true,
    target: { table: files, id: files.id, customerId: files.customerId, name: files.name },
  },
  {
    field: 'fileFolderAssignment',
    itemKey: 'fileFolderId',
    listField: 'fileFolderAssignments',
    relation: 'FileFolderAssignments',
    resource: 'fileFolder',
    targetColumnName: 'file_folder_id',
    idType: 'uuid',
    weighted: false,
    target: { table: fileFolders, id: fileFolders.id, customerId: fileFolders.customerId, name: fileFolders.name },
  },
  {
    field: 'messageGroupAssignment',
    itemKey: 'messageGroupId',
    listField: 'messageGroupAssignments',
    relation: 'MessageGroupAssignments',
    resource: 'messageGroup',
    targetColumnName: 'message_group_id',
    idType: 'bigint',
    weighted: false,
    target: { table: messageGroups, id: messageGroups.id, customerId: messageGroups.customerId, name: messageGroups.name },
  },
  {
    field: 'deviceAssignment',
    itemKey: 'deviceId',
    listField: 'deviceAssignments',
    relation: 'DeviceAssignments',
    resource: 'device',
    targetColumnName: 'device_id',
    idType: 'uuid',
    weighted: false,
    target: { table: devices, id: devices.id, customerId: devices.customerId, name: devices.name },
  },
  {
    field: 'deviceGroupAssignment',
    itemKey: 'deviceGroupId',
    listField: 'deviceGroupAssignments',
    relation: 'DeviceGroupAssignments',
    resource: 'deviceGroup',
    targetColumnName: 'device_group_id',
    idType: 'uuid',
    weighted: false,
    target: { table: deviceGroups, id: deviceGroups.id, customerId: deviceGroups.customerId, name: deviceGroups.name },
  },
];

/** The kinds of one owner (`campaign`, `message`): one assignment table per field it has. */
export function describeAssignments(owner: {
  name: 'campaign' | 'message';
  tables: Partial<Record<AssignmentField, PgTable>>;
}): AssignmentKind[] {
  return kindSpecs.flatMap(({ relation, ...spec }) => {
    const table = owner.tables[spec.field];
    if (!table) return [];

    return [
      {
        ...spec,
        table,
        searchField: `${owner.name}${relation}`,
        ownerColumnName: owner.name === 'campaign' ? 'campaign_id' : 'message_id',
        ownerKey: owner.name === 'campaign' ? 'campaignId' : 'messageId',
        targetColumn: (table as unknown as Record<string, AnyPgColumn>)[spec.itemKey]!,
      } satisfies AssignmentKind,
    ];
  });
}

export const assignmentKinds: readonly AssignmentKind[] = describeAssignments({
  name: 'campaign',
  tables: {
    contentAssignment: campaignContentAssignments,
    contentGroupAssignment: campaignContentGroupAssignments,
    fileAssignment: campaignFileAssignments,
    fileFolderAssignment: campaignFileFolderAssignments,
    messageGroupAssignment: campaignMessageGroupAssignments,
    deviceAssignment: campaignDeviceAssignments,
    deviceGroupAssignment: campaignDeviceGroupAssignments,
  },
});

/** One assignment as a write names it: the target id (lower-cased uuid or a number) and its weight. */
export type AssignmentItem = { id: string | number; weight: number | null };

/** The items and removals of one assignment object of a body, normalised. */
export function itemsOf(
  kind: AssignmentKind,
  value: { assignments?: Record<string, unknown>[]; removeIds?: (string | number)[] } | undefined,
) {
  const norm = (id: string | number) => (typeof id === 'string' ? id.toLowerCase() : id);
  const byId = new Map<string | number, AssignmentItem>();
  for (const item of value?.assignments ?? []) {
    const id = norm(item[kind.itemKey] as string | number);
    byId.set(id, { id, weight: kind.weighted && typeof item.weight === 'number' ? item.weight : null });
  }

  return { add: [...byId.values()], remove: [...new Set((value?.removeIds ?? []).map(norm))] };
}
