import { and, eq, inArray, sql } from 'drizzle-orm';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { Executor } from '@/server/db/client';
import { users } from './users.table';

// The users a UI profile is assigned to (users.ui_profile_id): what the ui-profiles module's `uiProfileHolders` asks.

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
      and(inArray(users.id, userIds), eq(users.customerId, profile.customerId), sql`${users.uiProfileId} is distinct from ${profile.id}`),
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
