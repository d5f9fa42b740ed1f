import { licenseTiers, type LicenseTier } from '@/server/tenant/tenant.schemas';
import { builtInLimits, type ResourceKey } from './resource-keys.schemas';

export { builtInLimits, isResourceKey, resourceKeys, type ResourceKey } from './resource-keys.schemas';
export { licenseTiers, type LicenseTier };

/** Only STARTER and BUSINESS limits are set server-wide; ENTERPRISE follows BUSINESS unless a customer overrides it. */
export function isEditableTier(tier: LicenseTier): boolean {
  return tier !== 'ENTERPRISE';
}

export function builtInLimit(resource: ResourceKey, tier: LicenseTier): number {
  const row = builtInLimits[resource];

  return tier === 'STARTER' ? row.STARTER : row.BUSINESS;
}
