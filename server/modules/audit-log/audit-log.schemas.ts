import { z } from '@hono/zod-openapi';
import { pagingParams } from '@/server/http/query-params.schemas';
import { customerIdSelector, epochMsParam, intId } from '@/server/http/wire.schemas';

/* Wire shapes of the audit log read API (spec 3 "Reporting entities", "Audit log"). No server imports. */

export const logLevelValues = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

export const LogEntrySchema = z
  .object({
    time: z.string().openapi({ description: 'ISO-8601 UTC', example: '2026-11-21T12:00:00.000Z' }),
    logLevel: z.enum(logLevelValues),
    message: z.string(),
    userEmail: z.string().optional(),
    actorKind: z
      .enum(['user', 'device', 'apiKey', 'system'])
      .optional()
      .openapi({ description: 'Who wrote the entry (absent on entries older than this field)' }),
    actorName: z
      .string()
      .optional()
      .openapi({ description: 'The writing job, or webhook API key, by name (users by `userEmail`, devices by `deviceId`)' }),
    deviceId: z.string().optional(),
    deviceName: z.string().optional(),
    contentId: z.string().optional(),
    contentName: z.string().optional(),
    datasourceId: z.string().optional(),
    datasourceName: z.string().optional(),
    customerId: intId.optional(),
    customerName: z.string().optional(),
  })
  .openapi('LogEntry');

const epochMs = (description: string) => epochMsParam.optional().openapi({ description });

export const LogFilterQuerySchema = z.object({
  customerId: customerIdSelector.openapi({ description: 'Tenant selector; required for ADMIN (`-1`: every tenant)' }),
  search: z
    .string()
    .max(500)
    .optional()
    .openapi({ description: 'Case-insensitive text contained in the message, the user e-mail, the job or key name, or an entity name' }),
  order: z.enum(['ASC', 'DESC', 'asc', 'desc']).optional().openapi({ description: 'By time (then id); default DESC' }),
  from: epochMs('Entries at or after this time (Unix ms)'),
  to: epochMs('Entries at or before this time (Unix ms); not before `from`'),
});

export const LogListQuerySchema = LogFilterQuerySchema.extend(pagingParams);

export type LogFilterQuery = z.infer<typeof LogFilterQuerySchema>;
export type LogListQuery = z.infer<typeof LogListQuerySchema>;
export type LogEntry = z.infer<typeof LogEntrySchema>;
