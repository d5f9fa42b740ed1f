import type { CustomerRow } from '@/server/tenant/customers.table';
import {
  builtInLimit,
  builtInLimits,
  isEditableTier,
  licenseTiers,
  resourceKeys,
  type LicenseTier,
  type ResourceKey,
} from './resource-limits.defaults';
import type { LimitConfigRow } from './resource-limits.queries';

/** Server-wide limits: the built-in table with the `resource_limit_config` overrides applied. */
export type ServerLimits = { limitOf(resource: ResourceKey, tier: LicenseTier): number };

export function serverLimits(config: LimitConfigRow[]): ServerLimits {
  const overrides = new Map(config.map((row) => [`${row.resource}.${row.tier}`, row.limit]));
  const tierLimit = (resource: ResourceKey, tier: LicenseTier) => overrides.get(`${resource}.${tier}`) ?? builtInLimit(resource, tier);

  return { limitOf: (resource, tier) => tierLimit(resource, isEditableTier(tier) ? tier : 'BUSINESS') };
}

/** The limit that applies to one customer: its tier's, or for ENTERPRISE its override, else the BUSINESS limit. */
export function effectiveLimit(
  limits: ServerLimits,
  customer: Pick<CustomerRow, 'licenseTier' | 'resourceLimits'>,
  resource: ResourceKey,
): number {
  if (customer.licenseTier === 'ENTERPRISE') {
    const override = customer.resourceLimits?.overrides?.[resource];
    if (typeof override === 'number') return override;
  }

  return limits.limitOf(resource, customer.licenseTier);
}

export type ServerLimitRow = {
  resource: ResourceKey;
  tier: LicenseTier;
  limit: number;
  defaultLimit: number;
  maxLimit: number;
  editable: boolean;
};

export function serverLimitRows(limits: ServerLimits): ServerLimitRow[] {
  return resourceKeys.flatMap((resource) =>
    licenseTiers.map((tier) => ({
      resource,
      tier,
      limit: limits.limitOf(resource, tier),
      defaultLimit: builtInLimit(resource, tier),
      maxLimit: builtInLimits[resource].maxLimit,
      editable: isEditableTier(tier),
    })),
  );
}
