import { z } from '@hono/zod-openapi';
import { integerUpToPattern } from '@/server/http/wire.schemas';
import { builtInLimits, isEditableTier, licenseTiers, resourceKeys, type ResourceKey } from './resource-limits.defaults';

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

/** The tiers with a server-wide limit of their own (ENTERPRISE follows BUSINESS; `config.error.notEditable`). */
const editableTiers = licenseTiers.filter(isEditableTier);

/** `config.limit.<RESOURCE>.<TIER>`, spelled so; the service names an unknown resource or tier (`config.error.unknownName`). */
export const CONFIG_NAME = /^config\.limit\.([A-Z_]+)\.([A-Z]+)$/;
/** The names a server-wide limit is set and reset by: every resource with every editable tier. */
export const configLimitNames = resourceKeys.flatMap((resource) => editableTiers.map((tier) => `config.limit.${resource}.${tier}`));
const configLimitName = `config\\.limit\\.(?:${resourceKeys.join('|')})\\.(?:${editableTiers.join('|')})`;

/** A limit of a resource whose maximum is `maxLimit`: a non-negative integer as a string, spaces around ignored. */
export const configValuePattern = (maxLimit: number) => `^\\s*0*(?:${integerUpToPattern(maxLimit)})\\s*$`;

const maxLimits = [...new Set(resourceKeys.map((resource) => builtInLimits[resource].maxLimit))];
const limitUpdate = (maxLimit: number) => {
  const names = configLimitNames.filter((name) => builtInLimits[CONFIG_NAME.exec(name)?.[1] as ResourceKey].maxLimit === maxLimit);

  return z.object({
    name: z.string().openapi({ type: 'string', enum: names, example: names[0] }),
    value: z.string().openapi({
      pattern: configValuePattern(maxLimit),
      example: '25',
      description: `A non-negative integer as a string, at most ${maxLimit}`,
    }),
  });
};

// The service checks names and values (its own error keys, `config.error.*`); the document states the same rules: a
// name of the enum with a value up to its resource's maxLimit (one branch per maxLimit).
export const ConfigBatchSchema = z
  .object({
    configUpdates: z
      .array(z.union(maxLimits.map(limitUpdate) as unknown as [ReturnType<typeof limitUpdate>, ReturnType<typeof limitUpdate>]))
      .min(1)
      .max(200),
  })
  .openapi('ConfigBatch');

/** `keys`: names separated by commas, spaces around each. */
const CONFIG_KEYS_PATTERN = `^\\s*${configLimitName}\\s*(?:,\\s*${configLimitName}\\s*)*$`;

export const ResetLimitsQuerySchema = z.object({
  keys: z.string().min(1).openapi({
    pattern: CONFIG_KEYS_PATTERN,
    description: 'Comma-separated names `config.limit.<RESOURCE>.<TIER>` (TIER STARTER or BUSINESS)',
    example: 'config.limit.USER.BUSINESS',
  }),
});

export type ConfigBatch = z.infer<typeof ConfigBatchSchema>;
