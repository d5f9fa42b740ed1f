/*
 * The resources with a per-tenant cap and their built-in limits: constants only, so the customer's wire schema can
 * state the keys and maxima of `resourceLimits.overrides` (a schemas file imports no server code).
 */

/** Resource keys with a per-tenant cap (spec 3 "Resource limits"). WEBHOOK counts actions; DEVICE_PROFILE counts install rules. */
export const resourceKeys = [
  'USER',
  'WEBHOOK',
  'DEVICE_PROFILE',
  'DATASOURCE',
  'CAMPAIGN',
  'ALERT_RULE',
  'QUICK_FILTER',
  'ADVERTISER',
  'UI_PROFILE',
  'TEAM',
  'API_KEY',
] as const;
export type ResourceKey = (typeof resourceKeys)[number];

export type BuiltIn = { STARTER: number; BUSINESS: number; maxLimit: number };

/**
 * The built-in limits per tier. ENTERPRISE has no server-wide row of its own: an Enterprise customer
 * gets its `resourceLimits.overrides`, and an omitted key inherits the current BUSINESS limit (spec).
 */
export const builtInLimits: Record<ResourceKey, BuiltIn> = {
  USER: { STARTER: 5, BUSINESS: 50, maxLimit: 100_000 },
  WEBHOOK: { STARTER: 0, BUSINESS: 20, maxLimit: 10_000 },
  DEVICE_PROFILE: { STARTER: 1, BUSINESS: 20, maxLimit: 10_000 },
  DATASOURCE: { STARTER: 5, BUSINESS: 100, maxLimit: 100_000 },
  CAMPAIGN: { STARTER: 10, BUSINESS: 200, maxLimit: 100_000 },
  ALERT_RULE: { STARTER: 0, BUSINESS: 20, maxLimit: 10_000 },
  QUICK_FILTER: { STARTER: 10, BUSINESS: 100, maxLimit: 10_000 },
  ADVERTISER: { STARTER: 0, BUSINESS: 50, maxLimit: 100_000 },
  UI_PROFILE: { STARTER: 0, BUSINESS: 10, maxLimit: 1_000 },
  TEAM: { STARTER: 0, BUSINESS: 20, maxLimit: 10_000 },
  API_KEY: { STARTER: 0, BUSINESS: 10, maxLimit: 1_000 },
};

export function isResourceKey(value: string): value is ResourceKey {
  return (resourceKeys as readonly string[]).includes(value);
}
