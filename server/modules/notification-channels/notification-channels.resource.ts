import { teamAssignmentsField } from '@/server/modules/teams';
import { defineResource } from '@/server/query/resource';
import { notificationChannelTypes } from './notification-channels.schemas';
import { notificationChannels } from './notification-channels.table';

/** Searchable and selectable fields of `notificationChannel` (spec 2). `readOnly` is added by the service (teams); the WEBHOOK secret is no field at all, so no `select` reaches it. */
export const notificationChannelResource = defineResource({
  name: 'notificationChannel',
  table: notificationChannels,
  tenant: (t) => t.customerId,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'integer', sql: t.id },
    name: { kind: 'scalar', type: 'string', sql: t.name },
    comment: { kind: 'scalar', type: 'string', sql: t.comment },
    channelType: { kind: 'scalar', type: 'enum', enumValues: notificationChannelTypes, sql: t.channelType },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    notify: { kind: 'scalar', type: 'stringArray', sql: t.notify },
    enabled: { kind: 'scalar', type: 'boolean', sql: t.enabled },
    disabledReason: { kind: 'scalar', type: 'string', sql: t.disabledReason },
    secretRotatedAt: { kind: 'scalar', type: 'epochMs', sql: t.secretRotatedAt },
    teamAssignments: teamAssignmentsField('notificationChannel', t.id),
  }),
});
