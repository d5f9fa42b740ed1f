import { and, count, eq, type SQL } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { uuidEquals } from '@/server/db/sql';
import { customers } from '@/server/tenant/customers.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { advertisers, type AdvertiserRow } from './advertisers.table';

/** The advertiser `id` within the scope, locked until commit: writes to one advertiser serialise. */
export async function lockAdvertiser(db: Executor, scope: TenantScope, id: string): Promise<AdvertiserRow | undefined> {
  const [row] = await db
    .select()
    .from(advertisers)
    .where(and(uuidEquals(advertisers.id, id), scopeCondition(scope, advertisers.customerId)))
    .limit(1)
    .for('update');

  return row;
}

/** The advertiser `id` within the scope (and `visible`, the caller's team access, when given). */
export async function findAdvertiser(db: Executor, scope: TenantScope, id: string, visible?: SQL): Promise<AdvertiserRow | undefined> {
  const [row] = await db
    .select()
    .from(advertisers)
    .where(and(uuidEquals(advertisers.id, id), scopeCondition(scope, advertisers.customerId), visible))
    .limit(1);

  return row;
}

/**
 * What the public CSV export needs to check a link token: the advertiser's secret hash and whether its
 * customer is restricted. The scope is the token's (every tenant): the token, not a caller, vouches for the row.
 */
export async function findLinkCredentials(db: Executor, scope: TenantScope, id: string) {
  const [row] = await db
    .select({
      id: advertisers.id,
      name: advertisers.name,
      customerId: advertisers.customerId,
      enabled: advertisers.enabled,
      secretHash: advertisers.proofOfPlaySecretHash,
      customerRestricted: customers.restricted,
    })
    .from(advertisers)
    .innerJoin(customers, eq(customers.id, advertisers.customerId))
    .where(and(uuidEquals(advertisers.id, id), scopeCondition(scope, advertisers.customerId)))
    .limit(1);

  return row;
}

export async function insertAdvertiser(db: Executor, values: typeof advertisers.$inferInsert): Promise<AdvertiserRow> {
  const [row] = await db.insert(advertisers).values(values).returning();

  return row!;
}

export async function updateAdvertiser(
  db: Executor,
  customerId: number,
  id: string,
  values: Partial<typeof advertisers.$inferInsert>,
): Promise<void> {
  await db
    .update(advertisers)
    .set(values)
    .where(and(eq(advertisers.id, id), eq(advertisers.customerId, customerId)));
}

/** Sets (or, with nulls, clears) the proof-of-play link secret. */
export async function setLinkSecret(db: Executor, row: AdvertiserRow, secret: { hash: string; sealed: string } | null): Promise<void> {
  await updateAdvertiser(db, row.customerId, row.id, {
    proofOfPlaySecretHash: secret?.hash ?? null,
    proofOfPlaySecretSealed: secret?.sealed ?? null,
  });
}

export async function deleteAdvertiser(db: Executor, row: AdvertiserRow): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, row.customerId),
        eq(teamAssignments.resourceType, 'advertiser'),
        eq(teamAssignments.resourceId, row.id),
      ),
    );
  await db.delete(advertisers).where(and(eq(advertisers.id, row.id), eq(advertisers.customerId, row.customerId)));
}

/** The `ADVERTISER` resource-limit usage. */
export async function countAdvertisersOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(advertisers).where(eq(advertisers.customerId, customerId));

  return row?.n ?? 0;
}
