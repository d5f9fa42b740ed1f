import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { Executor } from '@/server/db/client';
import { authFailures, oauthAccessTokens, oauthRefreshTokens, oauthTokenFamilies, type OAuthClientId } from '@/server/auth/tokens.table';
import { customers } from '@/server/modules/customers/customers.table';
import { recordSignIn } from '@/server/modules/users/user-activity.queries';
import { users } from '@/server/modules/users/users.table';

export async function findUserForSignIn(db: Executor, email: string) {
  const rows = await db
    .select({ user: users, customerRestricted: customers.restricted, customerName: customers.name })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);

  return rows[0];
}

export async function insertFamily(db: Executor, values: { id: string; userId: string; clientId: OAuthClientId; expiresAt: Date }) {
  await db.insert(oauthTokenFamilies).values(values);
}

export async function insertAccessToken(db: Executor, values: { id: string; tokenHash: string; familyId: string; expiresAt: Date }) {
  await db.insert(oauthAccessTokens).values(values);
}

export async function insertRefreshToken(db: Executor, values: { tokenHash: string; familyId: string }) {
  await db.insert(oauthRefreshTokens).values(values);
}

/** The refresh token with its family, user and customer, locked for rotation. */
export async function findRefreshToken(db: Executor, tokenHash: string) {
  const rows = await db
    .select({
      usedAt: oauthRefreshTokens.usedAt,
      family: oauthTokenFamilies,
      user: users,
      customerRestricted: customers.restricted,
    })
    .from(oauthRefreshTokens)
    .innerJoin(oauthTokenFamilies, eq(oauthTokenFamilies.id, oauthRefreshTokens.familyId))
    .innerJoin(users, eq(users.id, oauthTokenFamilies.userId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
    .limit(1)
    .for('update', { of: oauthRefreshTokens });

  return rows[0];
}

/** Marks a refresh token used; false when it already was (a concurrent or repeated use). */
export async function markRefreshTokenUsed(db: Executor, tokenHash: string): Promise<boolean> {
  const rows = await db
    .update(oauthRefreshTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(oauthRefreshTokens.tokenHash, tokenHash), isNull(oauthRefreshTokens.usedAt)))
    .returning({ tokenHash: oauthRefreshTokens.tokenHash });

  return rows.length === 1;
}

export async function revokeFamily(db: Executor, familyId: string, reason: string) {
  await db
    .update(oauthTokenFamilies)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(oauthTokenFamilies.id, familyId), isNull(oauthTokenFamilies.revokedAt)));
  announceAuthChange(db, { familyId });
}

/** Revokes every live token family of a user (password change, delete, restriction). */
export async function revokeAllFamiliesOfUser(db: Executor, userId: string, reason: string) {
  await db
    .update(oauthTokenFamilies)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(oauthTokenFamilies.userId, userId), isNull(oauthTokenFamilies.revokedAt)));
  announceAuthChange(db, { userId });
}

/** The family a token (access or refresh, by hash) belongs to. */
export async function findFamilyOfToken(db: Executor, tokenHash: string): Promise<{ familyId: string; clientId: OAuthClientId } | undefined> {
  const access = await db
    .select({ familyId: oauthAccessTokens.familyId, clientId: oauthTokenFamilies.clientId })
    .from(oauthAccessTokens)
    .innerJoin(oauthTokenFamilies, eq(oauthTokenFamilies.id, oauthAccessTokens.familyId))
    .where(eq(oauthAccessTokens.tokenHash, tokenHash))
    .limit(1);
  if (access[0]) return access[0];
  const refresh = await db
    .select({ familyId: oauthRefreshTokens.familyId, clientId: oauthTokenFamilies.clientId })
    .from(oauthRefreshTokens)
    .innerJoin(oauthTokenFamilies, eq(oauthTokenFamilies.id, oauthRefreshTokens.familyId))
    .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
    .limit(1);

  return refresh[0];
}

/** A successful sign-in (the password grant; a refresh continues a session): counts the login, sets lastLogin and lastActivity. */
export async function touchLastLogin(db: Executor, userId: string) {
  await recordSignIn(db, userId);
}

/**
 * Claims one attempt slot of `subject` in one statement: a new window when the old one has passed,
 * else one more in it. The count stops at `limit + 1`, which means "over the limit" (the claim is
 * refused and takes nothing). The row lock serialises concurrent claims of one subject.
 */
export async function claimFailureSlot(db: Executor, input: { subject: string; limit: number; windowSeconds: number }) {
  const expired = sql`${authFailures.windowStart} <= now() - make_interval(secs => ${input.windowSeconds})`;
  const rows = await db
    .insert(authFailures)
    .values({ subject: input.subject, failures: 1, windowStart: sql`now()` })
    .onConflictDoUpdate({
      target: authFailures.subject,
      set: {
        failures: sql`case when ${expired} then 1 else least(${authFailures.failures} + 1, ${input.limit + 1}::int) end`,
        windowStart: sql`case when ${expired} then now() else ${authFailures.windowStart} end`,
      },
    })
    .returning({ failures: authFailures.failures, windowStart: authFailures.windowStart });

  return rows[0]!;
}

/**
 * Gives a claimed slot back, in the window it was claimed in only. A count past the limit stands for
 * the limit (refused claims took nothing), so giving back after a refusal still counts right.
 */
export async function releaseFailureSlot(db: Executor, input: { subject: string; limit: number; windowStart: Date }) {
  await db
    .update(authFailures)
    .set({ failures: sql`greatest(least(${authFailures.failures}, ${input.limit}::int) - 1, 0)` })
    .where(and(eq(authFailures.subject, input.subject), eq(authFailures.windowStart, input.windowStart)));
}

export async function clearFailures(db: Executor, subject: string) {
  await db.delete(authFailures).where(eq(authFailures.subject, subject));
}

/** Removes what can no longer authenticate: families past their lifetime and old failure windows. */
export async function deleteExpiredTokens(db: Executor, failureWindowSeconds: number) {
  const families = await db
    .delete(oauthTokenFamilies)
    .where(lt(oauthTokenFamilies.expiresAt, sql`now()`))
    .returning({ id: oauthTokenFamilies.id });
  // Access tokens of live families expire after 20 minutes; drop them early.
  await db.delete(oauthAccessTokens).where(lt(oauthAccessTokens.expiresAt, sql`now() - interval '1 hour'`));
  await db.delete(authFailures).where(lt(authFailures.windowStart, sql`now() - make_interval(secs => ${failureWindowSeconds})`));

  return families.length;
}
