import { defineRoute } from '@/server/http/route';
import { json, ListQuerySchema, pageOf } from '@/server/http/list-query';
import { MailStatusSchema, OutboxMessageSchema } from './mail.schemas';

const tags = ['Mail'];

export const getMailStatusRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/mail/status',
    operationId: 'getMailStatus',
    tags,
    summary: 'Whether e-mail is delivered (an SMTP server is configured) or waits in the outbox',
    responses: { 200: { description: 'The mail status', ...json(MailStatusSchema) } },
  },
);

export const listOutboxRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'get',
    path: '/api/mail/outbox',
    operationId: 'listMailOutbox',
    tags,
    summary: 'The outbox: queued, sent and failed messages, newest first (recipient, subject, times; never bodies)',
    request: { query: ListQuerySchema.pick({ page: true, size: true, search: true }) },
    responses: { 200: { description: 'A page of messages', ...json(pageOf(OutboxMessageSchema, 'OutboxMessagePage')) } },
  },
);
