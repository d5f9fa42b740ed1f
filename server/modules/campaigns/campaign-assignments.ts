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
 * The seven assignment kinds of a campaign, described once: the write field (`contentAssignment`), the
 * item's id key (`contentId`), the v2 list field (`contentAssignments`), the search relation
 * (`campaignContentAssignments.contentId`), the table and its target column, and the target table that
 * answers names and the tenant check (none for message groups until their module exists).
 */
export type AssignmentKind = {
  field: AssignmentField;
  itemKey: string;
  listField: string;
  searchField: string;
  /** The resource name in 404s (`No deviceContent with id …`). */
  resource: string;
  table: PgTable;
  targetColumn: AnyPgColumn;
  /** The SQL column name of the target id in the assignment table. */
  targetColumnName: string;
  idType: 'uuid' | 'bigint';
  weighted: boolean;
  target?: { table: PgTable; id: AnyPgColumn; customerId: AnyPgColumn; name: AnyPgColumn };
};

export const assignmentKinds: readonly AssignmentKind[] = [
  {
    field: 'contentAssignment',
    itemKey: 'contentId',
    listField: 'contentAssignments',
    searchField: 'campaignContentAssignments',
    resource: 'deviceContent',
    table: campaignContentAssignments,
    targetColumn: campaignContentAssignments.contentId,
    targetColumnName: 'content_id',
    idType: 'uuid',
    weighted: true,
    target: { table: deviceContents, id: deviceContents.id, customerId: deviceContents.customerId, name: deviceContents.name },
  },
  {
    field: 'contentGroupAssignment',
    itemKey: 'contentGroupId',
    listField: 'contentGroupAssignments',
    searchField: 'campaignContentGroupAssignments',
    resource: 'contentGroup',
    table: campaignContentGroupAssignments,
    targetColumn: campaignContentGroupAssignments.contentGroupId,
    targetColumnName: 'content_group_id',
    idType: 'uuid',
    weighted: false,
    target: { table: contentGroups, id: contentGroups.id, customerId: contentGroups.customerId, name: contentGroups.name },
  },
  {
    field: 'fileAssignment',
    itemKey: 'fileId',
    listField: 'fileAssignments',
    searchField: 'campaignFileAssignments',
    resource: 'file',
    table: campaignFileAssignments,
    targetColumn: campaignFileAssignments.fileId,
    targetColumnName: 'file_id',
    idType: 'uuid',
    weighted: true,
    target: { table: files, id: files.id, customerId: files.customerId, name: files.name },
  },
  {
    field: 'fileFolderAssignment',
    itemKey: 'fileFolderId',
    listField: 'fileFolderAssignments',
    searchField: 'campaignFileFolderAssignments',
    resource: 'fileFolder',
    table: campaignFileFolderAssignments,
    targetColumn: campaignFileFolderAssignments.fileFolderId,
    targetColumnName: 'file_folder_id',
    idType: 'uuid',
    weighted: false,
    target: { table: fileFolders, id: fileFolders.id, customerId: fileFolders.customerId, name: fileFolders.name },
  },
  {
    field: 'messageGroupAssignment',
    itemKey: 'messageGroupId',
    listField: 'messageGroupAssignments',
    searchField: 'campaignMessageGroupAssignments',
    resource: 'messageGroup',
    table: campaignMessageGroupAssignments,
    targetColumn: campaignMessageGroupAssignments.messageGroupId,
    targetColumnName: 'message_group_id',
    idType: 'bigint',
    weighted: false,
    target: { table: messageGroups, id: messageGroups.id, customerId: messageGroups.customerId, name: messageGroups.name },
  },
  {
    field: 'deviceAssignment',
    itemKey: 'deviceId',
    listField: 'deviceAssignments',
    searchField: 'campaignDeviceAssignments',
    resource: 'device',
    table: campaignDeviceAssignments,
    targetColumn: campaignDeviceAssignments.deviceId,
    targetColumnName: 'device_id',
    idType: 'uuid',
    weighted: false,
    target: { table: devices, id: devices.id, customerId: devices.customerId, name: devices.name },
  },
  {
    field: 'deviceGroupAssignment',
    itemKey: 'deviceGroupId',
    listField: 'deviceGroupAssignments',
    searchField: 'campaignDeviceGroupAssignments',
    resource: 'deviceGroup',
    table: campaignDeviceGroupAssignments,
    targetColumn: campaignDeviceGroupAssignments.deviceGroupId,
    targetColumnName: 'device_group_id',
    idType: 'uuid',
    weighted: false,
    target: { table: deviceGroups, id: deviceGroups.id, customerId: deviceGroups.customerId, name: deviceGroups.name },
  },
];

export function assignmentKind(field: AssignmentField): AssignmentKind {
  return assignmentKinds.find((k) => k.field === field)!;
}

/** One assignment as a write names it: the target id (lower-cased uuid or a number) and its weight. */
export type AssignmentItem = { id: string | number; weight: number | null };

/** The items and removals of one assignment object of a body, normalised. */
export function itemsOf(kind: AssignmentKind, value: { assignments?: Record<string, unknown>[]; removeIds?: (string | number)[] } | undefined) {
  const norm = (id: string | number) => (typeof id === 'string' ? id.toLowerCase() : id);
  const byId = new Map<string | number, AssignmentItem>();
  for (const item of value?.assignments ?? []) {
    const id = norm(item[kind.itemKey] as string | number);
    byId.set(id, { id, weight: kind.weighted && typeof item.weight === 'number' ? item.weight : null });
  }

  return { add: [...byId.values()], remove: [...new Set((value?.removeIds ?? []).map(norm))] };
}
