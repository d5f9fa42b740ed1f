import type { Executor } from '@/server/db/client';
import { LimitReachedError, NotFoundError } from '@/server/errors';
import type { ResourceKey } from './resource-limits.defaults';
import { effectiveLimit, serverLimits } from './resource-limits.limits';
import { findLimitConfig, lockCustomerForLimits } from './resource-limits.queries';
import { countUsage } from './resource-limits.usage';

export type { ResourceKey } from './resource-limits.defaults';

/**
 * Refuses the creation of one more `resource` in the tenant once its limit is reached (400
 * `resourceLimit.error.limitReached`). Call it inside the creating transaction, before the insert:
 * the customer row stays locked until commit, so concurrent creations serialise and never overshoot.
 */
export async function assertWithinLimit(tx: Executor, customerId: number, resource: ResourceKey): Promise<void> {
  const customer = await lockCustomerForLimits(tx, customerId);
  if (!customer) throw new NotFoundError('customer', customerId);
  const limit = effectiveLimit(serverLimits(await findLimitConfig(tx, resource)), customer, resource);
  const used = await countUsage(tx, customerId, resource);
  if (used >= limit) throw new LimitReachedError(resource, used, limit);
}
