import { requireProtectedOperation } from '@/server/auth/protected-operation';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError, ValidationError } from '@/server/errors';
import type { ServiceContext } from '@/server/context/service-context';
import { auditChange } from '@/server/modules/audit-log';
import {
  builtInLimits,
  isEditableTier,
  isResourceKey,
  licenseTiers,
  resourceKeys,
  type LicenseTier,
  type ResourceKey,
} from './resource-limits.defaults';
import { effectiveLimit, serverLimitRows, serverLimits } from './resource-limits.limits';
import { deleteLimitConfig, findCustomerForLimits, findLimitConfig, upsertLimitConfig } from './resource-limits.queries';
import { CONFIG_NAME, configValuePattern, type ConfigBatch } from './resource-limits.schemas';
import { countUsage } from './resource-limits.usage';

export async function listServerLimits(ctx: ServiceContext) {
  return serverLimitRows(serverLimits(await findLimitConfig(ctx.db)));
}

/** The value rule the document states, per resource (its maxLimit). */
const valuePatterns = Object.fromEntries(resourceKeys.map((r) => [r, new RegExp(configValuePattern(builtInLimits[r].maxLimit))])) as Record<
  ResourceKey,
  RegExp
>;

export async function updateLimitConfig(ctx: ServiceContext, input: ConfigBatch) {
  const rows = input.configUpdates.map(({ name, value }, index) => {
    const { resource, tier } = parseConfigName(name, `configUpdates[${index}].name`);
    const { maxLimit } = builtInLimits[resource];
    if (!valuePatterns[resource].test(value)) {
      const message = /^\s*\d+\s*$/.test(value)
        ? `${value.trim()} is above the maximum ${maxLimit} of ${resource}`
        : `'${value}' is not a non-negative integer`;
      throw invalid(`configUpdates[${index}].value`, message, { maxLimit });
    }
    const limit = Number(value.trim());

    return { resource, tier, limit };
  });
  await requireProtectedOperation(ctx);
  await withTransaction(ctx.db, async (tx) => {
    await upsertLimitConfig(tx, rows);
    await auditChange(tx, ctx, {
      action: 'update',
      entityType: 'config',
      entityName: 'resourceLimits',
      message: `Resource limits set: ${rows.map((r) => `${r.resource}.${r.tier}=${r.limit}`).join(', ')}`,
      changes: Object.fromEntries(rows.map((r) => [`config.limit.${r.resource}.${r.tier}`, r.limit])),
    });
  });

  return listServerLimits(ctx);
}

export async function resetLimitConfig(ctx: ServiceContext, input: { keys: string }) {
  const keys = input.keys.split(',').map((name) => parseConfigName(name.trim(), 'keys'));
  await requireProtectedOperation(ctx);
  await withTransaction(ctx.db, async (tx) => {
    await deleteLimitConfig(tx, keys);
    await auditChange(tx, ctx, {
      action: 'delete',
      entityType: 'config',
      entityName: 'resourceLimits',
      message: `Resource limits reset to defaults: ${keys.map((k) => `${k.resource}.${k.tier}`).join(', ')}`,
      changes: { reset: keys.map((k) => `config.limit.${k.resource}.${k.tier}`) },
    });
  });
}

/** Effective limits and usage of the one selected (or the caller's own) tenant. */
export async function customerLimits(ctx: ServiceContext) {
  const customerId = targetCustomerId(ctx.scope, ctx.actor);
  const customer = await findCustomerForLimits(ctx.db, customerId);
  if (!customer) throw new NotFoundError('customer', customerId);
  const limits = serverLimits(await findLimitConfig(ctx.db));

  return Promise.all(
    resourceKeys.map(async (resource) => ({
      resource,
      limit: effectiveLimit(limits, customer, resource),
      used: await countUsage(ctx.db, customerId, resource),
    })),
  );
}

/** Checks a customer's `resourceLimits.overrides`: known keys, integers within each resource's maximum. */
export function validateLimitOverrides(overrides: Readonly<Record<string, number | undefined>>, field = 'resourceLimits.overrides'): void {
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!isResourceKey(key))
      throw invalid(
        `${field}.${key}`,
        `Unknown resource '${key}'; known: ${resourceKeys.join(', ')}`,
        undefined,
        'customer.error.invalidResourceLimits',
      );
    const { maxLimit } = builtInLimits[key];
    if (value > maxLimit)
      throw invalid(
        `${field}.${key}`,
        `${value} is above the maximum ${maxLimit} of ${key}`,
        { maxLimit },
        'customer.error.invalidResourceLimits',
      );
  }
}

function parseConfigName(name: string, field: string): { resource: ResourceKey; tier: LicenseTier } {
  const match = CONFIG_NAME.exec(name);
  const resource = match?.[1];
  const tier = match?.[2];
  if (!resource || !isResourceKey(resource))
    throw invalid(field, `'${name}' is not a known limit (config.limit.<RESOURCE>.<TIER>)`, undefined, 'config.error.unknownName');
  if (!tier || !(licenseTiers as readonly string[]).includes(tier))
    throw invalid(field, `'${name}' names no license tier (${licenseTiers.join(', ')})`, undefined, 'config.error.unknownName');
  if (!isEditableTier(tier as LicenseTier)) {
    throw invalid(
      field,
      `'${name}' is not editable: ENTERPRISE follows BUSINESS unless a customer's resourceLimits override it`,
      undefined,
      'config.error.notEditable',
    );
  }

  return { resource, tier: tier as LicenseTier };
}

function invalid(field: string, message: string, details: Record<string, unknown> = {}, key = 'config.error.invalidValue') {
  return new ValidationError(key, message, { field, ...details });
}
