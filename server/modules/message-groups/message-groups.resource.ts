import { teamAssignmentsField } from '@/server/modules/teams';
import { defineResource } from '@/server/query/resource';
import { contentShuffleModes } from './message-groups.schemas';
import { messageGroups } from './message-groups.table';

/** Searchable and selectable fields of `messageGroup` (spec 2). `readOnly` is added by the service (teams). */
export const messageGroupResource = defineResource({
  name: 'messageGroup',
  table: messageGroups,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    weight: { kind: 'scalar', type: 'integer', sql: t.weight },
    saturation: { kind: 'scalar', type: 'number', sql: t.saturation },
    contentShuffleMode: { kind: 'scalar', type: 'enum', enumValues: contentShuffleModes, sql: t.contentShuffleMode },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
    lastSavedAt: { kind: 'scalar', type: 'datetime', sql: t.lastSavedAt },
    teamAssignments: teamAssignmentsField('messageGroup', t.id),
  }),
});
