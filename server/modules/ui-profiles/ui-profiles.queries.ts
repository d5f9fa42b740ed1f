import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { Executor } from '@/server/db/client';
import { users } from '@/server/modules/users/users.table';
import { uiProfiles } from './ui-profiles.table';

export type UiProfileRow = typeof uiProfiles.$inferSelect;

/** The profile with `id` inside the tenant scope. */
export async function findUiProfile(db: Executor, scope: TenantScope, id: number): Promise<UiProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(uiProfiles)
    .where(and(eq(uiProfiles.id, id), scopeCondition(scope, uiProfiles.customerId)))
    .limit(1);

  return row;
}

export async function insertUiProfile(db: Executor, values: typeof uiProfiles.$inferInsert): Promise<UiProfileRow> {
  const [row] = await db.insert(uiProfiles).values(values).returning();

  return row!;
}

export async function updateUiProfile(db: Executor, customerId: number, id: number, values: Partial<typeof uiProfiles.$inferInsert>): Promise<void> {
  await db.update(uiProfiles).set(values).where(and(eq(uiProfiles.id, id), eq(uiProfiles.customerId, customerId)));
  // Users show their profile's name in their own view.
  announceAuthChange(db, { customerId });
}

export async function deleteUiProfile(db: Executor, customerId: number, id: number): Promise<void> {
  await db.delete(uiProfiles).where(and(eq(uiProfiles.id, id), eq(uiProfiles.customerId, customerId)));
}

/** The ids among `userIds` that are not users of `customerId` (unknown or another tenant's). */
export async function findForeignUserIds(db: Executor, customerId: number, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.customerId, customerId)));
  const own = new Set(rows.map((r) => r.id));

  return userIds.filter((id) => !own.has(id));
}

/** Assigns the profile to users of its tenant; answers the ids whose profile changed. */
export async function assignUiProfile(db: Executor, profile: { id: number; customerId: number }, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .update(users)
    .set({ uiProfileId: profile.id })
    .where(
      and(
        inArray(users.id, userIds),
        eq(users.customerId, profile.customerId),
        sql`${users.uiProfileId} is distinct from ${profile.id}`,
      ),
    )
    .returning({ id: users.id });
  for (const { id } of rows) announceAuthChange(db, { userId: id });

  return rows.map((r) => r.id);
}

/** Removes the profile from those of `userIds` that have it; answers the ids that had it. */
export async function unassignUiProfile(db: Executor, profileId: number, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .update(users)
    .set({ uiProfileId: null })
    .where(and(inArray(users.id, userIds), eq(users.uiProfileId, profileId)))
    .returning({ id: users.id });
  for (const { id } of rows) announceAuthChange(db, { userId: id });

  return rows.map((r) => r.id);
}

export async function countUsersWithUiProfile(db: Executor, profileId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.uiProfileId, profileId));

  return Number(row?.count ?? 0);
}

/** How many uiProfiles the tenant has (its resource-limit usage). */
export async function countUiProfilesOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(uiProfiles).where(eq(uiProfiles.customerId, customerId));

  return row?.n ?? 0;
}
