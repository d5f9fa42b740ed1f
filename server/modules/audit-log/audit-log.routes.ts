import { z } from '@hono/zod-openapi';
import { pageOf } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { LogEntrySchema, LogFilterQuerySchema, LogListQuerySchema } from './audit-log.schemas';

export const listAuditLogRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/log',
    operationId: 'listAuditLog',
    tags: ['Audit log'],
    summary: 'Audit log entries, paged',
    description: 'Every successful write leaves an entry. ADMIN must pass `customerId` (400 otherwise; `-1` = every tenant).',
    request: { query: LogListQuerySchema },
    responses: {
      200: { description: 'A page of entries', content: { 'application/json': { schema: pageOf(LogEntrySchema, 'LogEntryPage') } } },
    },
  },
);

export const exportAuditLogCsvRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/log/csv',
    operationId: 'exportAuditLogCsv',
    tags: ['Audit log'],
    summary: 'Audit log entries as CSV (same filters, every matching entry)',
    description: 'RFC 4180, a header row, CRLF line ends, streamed as it is read.',
    request: { query: LogFilterQuerySchema },
    responses: { 200: { description: 'CSV attachment', content: { 'text/csv': { schema: z.string() } } } },
  },
);
