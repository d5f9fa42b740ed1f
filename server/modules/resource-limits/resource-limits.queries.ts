import { and, eq, or } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { customers } from '@/server/tenant/customers.table';
import { resourceLimitConfig } from './resource-limits.table';

export type LimitConfigRow = typeof resourceLimitConfig.$inferSelect;

export async function findLimitConfig(db: Executor, resource?: string): Promise<LimitConfigRow[]> {
  const query = db.select().from(resourceLimitConfig);

  return resource === undefined ? query : query.where(eq(resourceLimitConfig.resource, resource));
}

export async function upsertLimitConfig(db: Executor, rows: LimitConfigRow[]) {
  for (const row of rows) {
    await db
      .insert(resourceLimitConfig)
      .values(row)
      .onConflictDoUpdate({ target: [resourceLimitConfig.resource, resourceLimitConfig.tier], set: { limit: row.limit } });
  }
}

export async function deleteLimitConfig(db: Executor, keys: Array<{ resource: string; tier: string }>) {
  if (keys.length === 0) return;
  await db
    .delete(resourceLimitConfig)
    .where(or(...keys.map((k) => and(eq(resourceLimitConfig.resource, k.resource), eq(resourceLimitConfig.tier, k.tier)))));
}

const limitColumns = { id: customers.id, licenseTier: customers.licenseTier, resourceLimits: customers.resourceLimits };

export async function findCustomerForLimits(db: Executor, customerId: number) {
  const [row] = await db.select(limitColumns).from(customers).where(eq(customers.id, customerId)).limit(1);

  return row;
}

/** Locks the customer row so that concurrent creations of limited resources in this tenant serialise. */
export async function lockCustomerForLimits(tx: Executor, customerId: number) {
  const [row] = await tx.select(limitColumns).from(customers).where(eq(customers.id, customerId)).for('update');

  return row;
}
