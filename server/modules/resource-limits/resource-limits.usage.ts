import type { Executor } from '@/server/db/client';
import type { ResourceKey } from './resource-limits.defaults';

/** Counts what a tenant currently holds of one limited resource. */
export type UsageCounter = (db: Executor, customerId: number) => Promise<number>;

const counters = new Map<ResourceKey, UsageCounter>();

/** A module plugs its count in with one call, e.g. `registerUsageCounter('WEBHOOK', countWebhookActionsOf)`. */
export function registerUsageCounter(resource: ResourceKey, counter: UsageCounter): void {
  counters.set(resource, counter);
}

/** The tenant's usage; 0 for a resource whose module has not registered a counter yet. */
export async function countUsage(db: Executor, customerId: number, resource: ResourceKey): Promise<number> {
  const counter = counters.get(resource);

  return counter ? counter(db, customerId) : 0;
}
