import { z } from '@hono/zod-openapi';
import { licenseTiers, resourceKeys } from './resource-limits.defaults';

export const ServerLimitSchema = z
  .object({
    resource: z.enum(resourceKeys),
    tier: z.enum(licenseTiers),
    limit: z.number().int(),
    defaultLimit: z.number().int(),
    maxLimit: z.number().int(),
    editable: z.boolean().openapi({ description: 'ENTERPRISE rows follow BUSINESS and are set per customer instead' }),
  })
  .openapi('ServerResourceLimit');

export const CustomerLimitSchema = z
  .object({ resource: z.enum(resourceKeys), limit: z.number().int(), used: z.number().int() })
  .openapi('CustomerResourceLimit');

export const ConfigBatchSchema = z
  .object({
    configUpdates: z
      .array(
        z.object({
          name: z.string().openapi({ example: 'config.limit.USER.BUSINESS' }),
          value: z.string().openapi({ example: '25', description: 'An integer as a string' }),
        }),
      )
      .min(1)
      .max(200),
  })
  .openapi('ConfigBatch');

export const ResetLimitsQuerySchema = z.object({
  keys: z.string().min(1).openapi({ description: 'Comma-separated names `config.limit.<RESOURCE>.<TIER>`', example: 'config.limit.USER.BUSINESS' }),
});

export type ConfigBatch = z.infer<typeof ConfigBatchSchema>;
