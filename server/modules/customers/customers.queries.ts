import { uuidEquals } from '@/server/db/sql';
import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { oauthTokenFamilies } from '@/server/modules/oauth/oauth.table';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { Executor } from '@/server/db/client';
import { deviceContents } from '@/server/modules/content/content.table';
import { users } from '@/server/modules/users/users.table';
import { customers, type CustomerRow } from '@/server/tenant/customers.table';

export type CustomerValues = Partial<typeof customers.$inferInsert>;

export async function insertCustomer(db: Executor, values: typeof customers.$inferInsert) {
  const [row] = await db.insert(customers).values(values).returning();

  return row!;
}

export async function findCustomerRow(db: Executor, id: number): Promise<CustomerRow | undefined> {
  const [row] = await db.select().from(customers).where(eq(customers.id, id)).limit(1);

  return row;
}

/** The row locked until commit: state checks (members, network-owner flag) cannot race a concurrent change. */
export async function lockCustomerRow(db: Executor, id: number): Promise<CustomerRow | undefined> {
  const [row] = await db.select().from(customers).where(eq(customers.id, id)).for('update');

  return row;
}

export async function updateCustomerRow(db: Executor, id: number, values: CustomerValues) {
  if (Object.keys(values).length === 0) return;
  await db.update(customers).set(values).where(eq(customers.id, id));
  announceAuthChange(db, { customerId: id });
}

export async function deleteCustomerRow(db: Executor, id: number) {
  await db.delete(customers).where(eq(customers.id, id));
  announceAuthChange(db, { customerId: id });
}

export async function countMembers(db: Executor, ownerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(customers).where(eq(customers.ownerSubresellerId, ownerId));

  return row?.n ?? 0;
}

/** Revokes every live token family of every user of the customer (restriction). */
export async function revokeAllFamiliesOfCustomer(db: Executor, customerId: number, reason: string) {
  await db
    .update(oauthTokenFamilies)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(
      and(
        isNull(oauthTokenFamilies.revokedAt),
        inArray(oauthTokenFamilies.userId, db.select({ id: users.id }).from(users).where(eq(users.customerId, customerId))),
      ),
    );
  announceAuthChange(db, { customerId });
}

/** Whether `customerId` is a member of the network owner `ownerId`. */
/** Whether a customer with this id exists (the tenant selector of an ADMIN names one). */
export async function customerExists(db: Executor, id: number): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id < 1) return false;
  const rows = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, id)).limit(1);

  return rows.length > 0;
}

export async function isNetworkMember(db: Executor, ownerId: number, customerId: number): Promise<boolean> {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.ownerSubresellerId, ownerId)))
    .limit(1);

  return rows.length > 0;
}

/** The ids of the network owner's member customers, as a subquery. */
export function networkMembersSql(ownerId: number): SQL {
  return sql`(select ${customers.id} from ${customers} where ${customers.ownerSubresellerId} = ${ownerId})`;
}

/** Whether `contentId` is a content item or playlist of `customerId` (the default emergency content must be). */
export async function isContentOf(db: Executor, customerId: number, contentId: string): Promise<boolean> {
  const rows = await db
    .select({ id: deviceContents.id })
    .from(deviceContents)
    .where(and(eq(deviceContents.customerId, customerId), uuidEquals(deviceContents.id, contentId.toLowerCase())))
    .limit(1);

  return rows.length > 0;
}
