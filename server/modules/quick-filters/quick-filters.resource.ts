import { sql } from 'drizzle-orm';
import { teamAssignmentsField } from '@/server/modules/teams';
import { defineResource } from '@/server/query/resource';
import { quickFilterUsageSql, usedByChannelsSql } from './quick-filter-usages';
import { filteredEntityTypes, quickFilters } from './quick-filters.table';

/**
 * Searchable and selectable fields of `quickFilter` (spec 3 "Quick filter"). `readOnly` here is the
 * usage part (channels, sub-channels); the service ORs the caller's team read-only state into it.
 */
export const quickFilterResource = defineResource({
  name: 'quickFilter',
  table: quickFilters,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const id = sql`${t.id}`;

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      name: { kind: 'scalar', type: 'string', sql: t.name },
      filteredEntityType: { kind: 'scalar', type: 'enum', enumValues: filteredEntityTypes, sql: t.filteredEntityType },
      criteria: { kind: 'scalar', type: 'json', sql: t.criteria },
      listed: { kind: 'scalar', type: 'boolean', sql: t.listed },
      custom: { kind: 'scalar', type: 'boolean', sql: t.custom },
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      readOnly: { kind: 'scalar', type: 'boolean', sql: usedByChannelsSql(id), sortable: false },
      teamAssignments: teamAssignmentsField('quickFilter', t.id),
      campaignUsageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: quickFilterUsageSql('campaignUsageDetails', id) },
      messageUsageDetails: { kind: 'scalar', type: 'json', selectOnly: true, sql: quickFilterUsageSql('messageUsageDetails', id) },
    };
  },
});
