import { and, count, eq } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { Executor } from '@/server/db/client';
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

export async function updateUiProfile(
  db: Executor,
  customerId: number,
  id: number,
  values: Partial<typeof uiProfiles.$inferInsert>,
): Promise<void> {
  await db
    .update(uiProfiles)
    .set(values)
    .where(and(eq(uiProfiles.id, id), eq(uiProfiles.customerId, customerId)));
  // Users show their profile's name in their own view.
  announceAuthChange(db, { customerId });
}

export async function deleteUiProfile(db: Executor, customerId: number, id: number): Promise<void> {
  await db.delete(uiProfiles).where(and(eq(uiProfiles.id, id), eq(uiProfiles.customerId, customerId)));
}

/** How many uiProfiles the tenant has (its resource-limit usage). */
export async function countUiProfilesOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(uiProfiles).where(eq(uiProfiles.customerId, customerId));

  return row?.n ?? 0;
}
