import { defineResource } from '@/server/query/resource';
import { mailKinds, mailMessages, mailStatuses } from './mail.table';

/**
 * The outbox as the super admin reads it: who, what, when and how delivery went. The bodies are not
 * fields at all: they hold links with secrets (a password-setup token), so no `select` can reach them.
 */
export const mailMessageResource = defineResource({
  name: 'mailMessage',
  table: mailMessages,
  fields: (t) => ({
    id: { kind: 'scalar', type: 'uuid', sql: t.id },
    customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
    to: { kind: 'scalar', type: 'string', sql: t.to },
    subject: { kind: 'scalar', type: 'string', sql: t.subject },
    kind: { kind: 'scalar', type: 'enum', enumValues: mailKinds, sql: t.kind },
    status: { kind: 'scalar', type: 'enum', enumValues: mailStatuses, sql: t.status },
    attempts: { kind: 'scalar', type: 'integer', sql: t.attempts },
    lastError: { kind: 'scalar', type: 'string', sql: t.lastError },
    createdAt: { kind: 'scalar', type: 'datetime', sql: t.createdAt },
    sentAt: { kind: 'scalar', type: 'datetime', sql: t.sentAt },
  }),
});
