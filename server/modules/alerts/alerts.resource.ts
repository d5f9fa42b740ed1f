import { sql } from 'drizzle-orm';
import { defineResource } from '@/server/query/resource';
import { alertKinds, alertRules, alerts } from './alerts.table';

/**
 * Searchable and selectable fields of an alert (spec 2 "Alert records"): the generic, device and datasource records
 * are projections of this one table (alerts.service.ts names each one's fields), plus `closedAtDate` and `open`.
 */
export const alertResource = defineResource({
  name: 'alert',
  table: alerts,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    kind: { kind: 'scalar', type: 'enum', enumValues: alertKinds, sql: t.kind },
    createdAtDate: { kind: 'scalar', type: 'datetime', sql: t.openedAt },
    closedAtDate: { kind: 'scalar', type: 'datetime', sql: t.closedAt },
    open: { kind: 'scalar', type: 'boolean', sql: sql`(${t.closedAt} is null)` },
    alertRuleId: { kind: 'scalar', type: 'integer', sql: t.alertRuleId },
    alertRuleName: {
      kind: 'scalar',
      type: 'string',
      sql: sql`(select r.name from ${alertRules} r where r.id = ${t.alertRuleId})`,
      searchable: false,
      sortable: false,
    },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    deviceId: { kind: 'scalar', type: 'uuid', sql: t.deviceId },
    deviceName: { kind: 'scalar', type: 'string', sql: t.deviceName },
    deviceLastActivity: { kind: 'scalar', type: 'datetime', sql: t.deviceLastActivity },
    deviceLastStatusChange: { kind: 'scalar', type: 'datetime', sql: t.deviceLastStatusChange },
    deviceGroupId: { kind: 'scalar', type: 'uuid', sql: t.deviceGroupId },
    deviceGroupPath: { kind: 'scalar', type: 'path', sql: t.deviceGroupPath },
    folderPath: { kind: 'scalar', type: 'string', sql: t.folderPath },
    datasourceId: { kind: 'scalar', type: 'uuid', sql: t.datasourceId },
    datasourceName: { kind: 'scalar', type: 'string', sql: t.datasourceName },
    datasourceErrorCounter: { kind: 'scalar', type: 'integer', sql: t.datasourceErrorCounter },
    datasourceLastError: { kind: 'scalar', type: 'string', sql: t.datasourceLastError },
  }),
});
