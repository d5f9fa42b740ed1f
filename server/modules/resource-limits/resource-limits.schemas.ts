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

/** `config.limit.<RESOURCE>.<TIER>` (tier in any case); the service names an unknown resource or tier (`config.error.unknownName`). */
export const CONFIG_NAME = /^config\.limit\.([A-Z_]+)\.([A-Za-z]+)$/;
/** A limit: a non-negative integer written as a string (spaces around are ignored); at most the resource's `maxLimit`. */
export const CONFIG_VALUE = /^\s*\d{1,9}\s*$/;

// The service checks both (its own error keys, `config.error.*`); the document states the same expressions.
export const ConfigBatchSchema = z
  .object({
    configUpdates: z
      .array(
        z.object({
          name: z.string().openapi({ example: 'config.limit.USER.BUSINESS', pattern: CONFIG_NAME.source, description: `RESOURCE one of ${resourceKeys.join(', ')}; TIER STARTER or BUSINESS` }),
          value: z.string().openapi({ example: '25', pattern: CONFIG_VALUE.source, description: 'A non-negative integer as a string, at most the resource\'s maxLimit' }),
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
