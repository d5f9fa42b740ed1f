import { and, asc, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { Executor } from '@/server/db/client';
import { revokeAllFamiliesOfUser } from './user-sessions';
import { customers } from '@/server/tenant/customers.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { userProfilePictures, users, type UserRow } from './users.table';

export { revokeAllFamiliesOfUser };

/** A user by (lower-cased) e-mail inside the tenant scope. */
export async function findUserByEmail(db: Executor, scope: TenantScope, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email.trim().toLowerCase()), scopeCondition(scope, users.customerId)))
    .limit(1);

  return row;
}

/** Whether any user of any tenant has the e-mail: e-mails are unique across tenants (they sign in with it). */
export async function isEmailTaken(db: Executor, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);

  return rows.length > 0;
}

/** The caller's own user row (`actor.userId` within `actor.customerId`). */
export async function findOwnUser(db: Executor, actor: { userId: string; customerId: number }): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, actor.userId), eq(users.customerId, actor.customerId)))
    .limit(1);

  return row;
}

export async function findCustomerFlags(db: Executor, customerId: number) {
  const [row] = await db
    .select({ id: customers.id, name: customers.name, force2FA: customers.force2FA })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);

  return row;
}

export async function listSimpleUsers(db: Executor, scope: TenantScope) {
  return db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(scopeCondition(scope, users.customerId))
    .orderBy(asc(users.name), asc(users.id));
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();

  return row!;
}

export async function updateUser(
  db: Executor,
  user: { id: string; customerId: number },
  values: Partial<typeof users.$inferInsert>,
): Promise<void> {
  await db
    .update(users)
    .set(values)
    .where(and(eq(users.id, user.id), eq(users.customerId, user.customerId)));
  announceAuthChange(db, { userId: user.id });
}

/** Deletes the user; token families and the picture go by cascade, team memberships here (no FK). */
export async function deleteUser(db: Executor, user: { id: string; customerId: number }): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, user.customerId),
        eq(teamAssignments.resourceType, 'user'),
        eq(teamAssignments.resourceId, user.id),
      ),
    );
  await db.delete(users).where(and(eq(users.id, user.id), eq(users.customerId, user.customerId)));
  announceAuthChange(db, { userId: user.id });
}

export async function countAdmins(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.role, 'ADMIN'));

  return Number(row?.count ?? 0);
}

export async function countOwnersOfCustomer(db: Executor, customerId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.customerId, customerId), eq(users.role, 'OWNER')));

  return Number(row?.count ?? 0);
}

export async function upsertProfilePicture(db: Executor, values: { userId: string; contentType: string; data: Buffer }): Promise<void> {
  await db
    .insert(userProfilePictures)
    .values(values)
    .onConflictDoUpdate({
      target: userProfilePictures.userId,
      set: { contentType: values.contentType, data: values.data, updatedAt: sql`now()` },
    });
  announceAuthChange(db, { userId: values.userId });
}

export async function deleteProfilePicture(db: Executor, userId: string): Promise<boolean> {
  const rows = await db
    .delete(userProfilePictures)
    .where(eq(userProfilePictures.userId, userId))
    .returning({ userId: userProfilePictures.userId });
  announceAuthChange(db, { userId });

  return rows.length > 0;
}

/** The picture of a user inside the tenant scope condition (on the user's customer). */
export async function findProfilePicture(db: Executor, scope: TenantScope, userId: string) {
  const [row] = await db
    .select({ contentType: userProfilePictures.contentType, data: userProfilePictures.data, updatedAt: userProfilePictures.updatedAt })
    .from(userProfilePictures)
    .innerJoin(users, eq(users.id, userProfilePictures.userId))
    .where(and(eq(userProfilePictures.userId, userId), scopeCondition(scope, users.customerId)))
    .limit(1);

  return row;
}

/** How many users the tenant has (its resource-limit usage). */
export async function countUsersOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.customerId, customerId));

  return row?.n ?? 0;
}

/** The advisory lock key of the last-manager check (any constant no other lock uses). */
const LAST_MANAGER_LOCK = 727_002;

/** Serialises the last-OWNER/ADMIN check of concurrent account deletions until the transaction ends. */
export async function lockLastManagerCheck(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LAST_MANAGER_LOCK})`);
}

/** Whether the user uses a second factor, and its secret (protected operations ask for a code then). */
export async function findSecondFactor(db: Executor, userId: string): Promise<{ use2FA: boolean; totpSecret: string | null } | undefined> {
  const [row] = await db.select({ use2FA: users.use2FA, totpSecret: users.totpSecret }).from(users).where(eq(users.id, userId)).limit(1);

  return row;
}

/** Spends a one-time code's time step (RFC 6238 §5.2): accepted once, in one conditional write, under any concurrency. */
export async function spendTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const spent = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });

  return spent.length > 0;
}
