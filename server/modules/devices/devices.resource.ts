import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { deviceContents } from '@/server/modules/content/content.table';
import { customers } from '@/server/tenant/customers.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { folderPathField } from '@/server/query/folder-path';
import { defineResource, relation } from '@/server/query/resource';
import { deviceAlertsSql } from './device-alerts';
import { devicePlatforms, deviceStatuses, deviceTypes, licenseStatuses, licenseTypes } from './devices.schemas';
import { devices } from './devices.table';

/** A list without `select` answers these (the relations and cheap computed fields the console shows). */
export const DEVICE_DEFAULT_SELECT = '*,deviceGroup,content,emergencyContent,previewPath';
/** One device read without `select`: the same and what it reports about itself. */
export const DEVICE_SINGLE_SELECT = `${DEVICE_DEFAULT_SELECT},deviceInfo`;

/** The device's folder as `{id, name}`. */
const deviceGroupRefResource = defineResource({
  name: 'deviceGroup',
  table: deviceGroups,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

/** The device's tenant as `{id, name}`: the tenant column of a list spanning tenants (all, or a network). */
const customerRefResource = defineResource({
  name: 'customer',
  table: customers,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

/** Assigned or emergency content as `{id, name}`. */
const contentRefResource = defineResource({
  name: 'contentRef',
  table: deviceContents,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
  }),
});

const contentRelation = (column: AnyPgColumn) =>
  relation.one(contentRefResource, { on: (target) => eq(target.id, column), foreignKey: column });

/**
 * Searchable and selectable fields of a device (spec 3 "Device"). `deviceInfo` and `alerts` are
 * select-only; `previewPath` names the newest screenshot with its time, so a new one gets a new URL.
 */
export const deviceResource = defineResource({
  name: 'device',
  table: devices,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    customer: relation.one(customerRefResource, { on: (target) => eq(target.id, t.customerId), foreignKey: t.customerId }),
    deviceGroupId: { kind: 'scalar', type: 'uuid', sql: t.deviceGroupId },
    deviceGroup: relation.one(deviceGroupRefResource, { on: (target) => eq(target.id, t.deviceGroupId), foreignKey: t.deviceGroupId }),
    deviceGroupPath: folderPathField(t.groupPath),
    deviceStatus: { kind: 'scalar', type: 'enum', enumValues: deviceStatuses, sql: t.deviceStatus },
    lastDeviceStatusChange: { kind: 'scalar', type: 'datetime', sql: t.lastDeviceStatusChange },
    emergencyStatus: { kind: 'scalar', type: 'boolean', sql: t.emergencyStatus },
    tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
    type: { kind: 'scalar', type: 'enum', enumValues: deviceTypes, sql: t.type },
    platform: { kind: 'scalar', type: 'enum', enumValues: devicePlatforms, sql: t.platform },
    serial: { kind: 'scalar', type: 'string', sql: t.serial },
    version: { kind: 'scalar', type: 'string', sql: t.version },
    firmwareVersion: { kind: 'scalar', type: 'string', sql: t.firmwareVersion },
    nativeResolutionWidth: { kind: 'scalar', type: 'integer', sql: t.nativeResolutionWidth },
    nativeResolutionHeight: { kind: 'scalar', type: 'integer', sql: t.nativeResolutionHeight },
    localIpAddress: { kind: 'scalar', type: 'string', sql: t.localIpAddress },
    nativeOrientation: { kind: 'scalar', type: 'string', sql: t.nativeOrientation },
    webViewOrientation: { kind: 'scalar', type: 'string', sql: t.webViewOrientation },
    previewPath: {
      kind: 'scalar',
      type: 'string',
      selectOnly: true,
      searchable: false,
      sortable: false,
      // The storage URL pattern of spec 2 for device previews, with the screenshot's time for cache-busting.
      sql: sql`case when ${t.previewUpdatedAt} is null or ${t.customerId} is null then null
        else '/api/storage/customer/' || ${t.customerId}::text || '/devices/' || ${t.id}::text || '/preview.jpg?v=' || (extract(epoch from ${t.previewUpdatedAt}) * 1000)::bigint::text end`,
    },
    lastActivity: { kind: 'scalar', type: 'datetime', sql: t.lastActivity },
    licenseStatus: { kind: 'scalar', type: 'enum', enumValues: licenseStatuses, sql: t.licenseStatus },
    licenseOrderId: { kind: 'scalar', type: 'integer', sql: t.licenseOrderId },
    licenseType: { kind: 'scalar', type: 'enum', enumValues: licenseTypes, sql: t.licenseType },
    timeZone: { kind: 'scalar', type: 'string', sql: t.timeZone },
    deviceInfo: { kind: 'scalar', type: 'json', selectOnly: true, sql: t.deviceInfo },
    contentId: { kind: 'scalar', type: 'uuid', sql: t.contentId },
    content: contentRelation(t.contentId),
    emergencyContentId: { kind: 'scalar', type: 'uuid', sql: t.emergencyContentId },
    emergencyContent: contentRelation(t.emergencyContentId),
    alerts: { kind: 'scalar', type: 'json', selectOnly: true, searchable: false, sortable: false, sql: deviceAlertsSql(sql`${t.id}`) },
    // Only an unclaimed device shows a code; a claimed one has none.
    activationCode: { kind: 'scalar', type: 'string', sql: t.activationCode },
    createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
  }),
});
