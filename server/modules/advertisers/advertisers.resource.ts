import { sql } from 'drizzle-orm';
import { teamAssignmentsField } from '@/server/modules/teams';
import { defineResource } from '@/server/query/resource';
import { advertisers } from './advertisers.table';

/**
 * Searchable and selectable fields of `advertiser` (spec 2 "Advertiser"). `readOnly` depends on the
 * caller's teams: it is declared here (select-only, neither searchable nor sortable) so `select` may
 * name it, and the service fills it per request.
 */
export const advertiserResource = defineResource({
  name: 'advertiser',
  table: advertisers,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    enabled: { kind: 'scalar', type: 'boolean', sql: t.enabled },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    validity: { kind: 'scalar', type: 'json', sql: t.validity },
    proofOfPlayAccessSecretConfigured: { kind: 'scalar', type: 'boolean', sql: sql`(${t.proofOfPlaySecretHash} is not null)` },
    readOnly: { kind: 'scalar', type: 'boolean', sql: sql`false`, selectOnly: true, searchable: false, sortable: false },
    teamAssignments: teamAssignmentsField('advertiser', t.id),
  }),
});
