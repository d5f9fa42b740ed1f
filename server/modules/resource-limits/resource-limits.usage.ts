import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';
import type { ResourceKey } from './resource-limits.defaults';

/** Counts what a tenant currently holds of one limited resource. */
export type UsageCounter = { resource: ResourceKey; count: (db: Executor, customerId: number) => Promise<number> };

/** Each module that owns a limited resource lists its counter in its manifest (`usageCounters`). */
export const usageCounters = definePlugPoint<UsageCounter>('usageCounters', (c) => c.resource);

/** The tenant's usage; 0 for a resource whose module has not plugged a counter in yet. */
export async function countUsage(db: Executor, customerId: number, resource: ResourceKey): Promise<number> {
  const counter = usageCounters.get(resource);

  return counter ? counter.count(db, customerId) : 0;
}
