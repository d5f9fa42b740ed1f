import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { announceAuthChange } from '@/server/auth/auth-cache';
import type { CallerRecord } from '@/server/auth/authenticate';
import type { Database, Executor } from '@/server/db/client';
import { deleteOldFailureWindows } from '@/server/auth/failure-limit.queries';
import { oauthAccessTokens, oauthRefreshTokens, oauthTokenFamilies, type OAuthClientId } from './oauth.table';
import { customers } from '@/server/tenant/customers.table';
import { activityDue, recordSignIn } from '@/server/modules/users';
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
export async function findFamilyOfToken(
  db: Executor,
  tokenHash: string,
): Promise<{ familyId: string; clientId: OAuthClientId } | undefined> {
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

/** Removes what can no longer authenticate: families past their lifetime and old failure windows. */
export async function deleteExpiredTokens(db: Executor, failureWindowSeconds: number) {
  const families = await db
    .delete(oauthTokenFamilies)
    .where(lt(oauthTokenFamilies.expiresAt, sql`now()`))
    .returning({ id: oauthTokenFamilies.id });
  // Access tokens of live families expire after 20 minutes; drop them early.
  await db.delete(oauthAccessTokens).where(lt(oauthAccessTokens.expiresAt, sql`now() - interval '1 hour'`));
  await deleteOldFailureWindows(db, failureWindowSeconds);

  return families.length;
}

/**
 * The two lookups run on every authenticated request, so they are prepared statements: on
 * PostgreSQL that measured 0.76 → 0.21 ms per lookup (no re-planning, no query building).
 * Prepared statements belong to one database object; each gets its own.
 */
function prepareLookups(db: Database) {
  const lookup = (match: 'hash' | 'id') =>
    db
      .select({
        familyId: oauthTokenFamilies.id,
        userId: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        userRestricted: users.restricted,
        customerId: customers.id,
        customerName: customers.name,
        customerRestricted: customers.restricted,
        isSubreseller: customers.isSubreseller,
        activityDue,
        lastActivity: users.lastActivity,
        expiresAt: oauthAccessTokens.expiresAt,
      })
      .from(oauthAccessTokens)
      .innerJoin(oauthTokenFamilies, eq(oauthTokenFamilies.id, oauthAccessTokens.familyId))
      .innerJoin(users, eq(users.id, oauthTokenFamilies.userId))
      .innerJoin(customers, eq(customers.id, users.customerId))
      .where(
        and(
          match === 'hash' ? eq(oauthAccessTokens.tokenHash, sql.placeholder('value')) : eq(oauthAccessTokens.id, sql.placeholder('value')),
          gt(oauthAccessTokens.expiresAt, sql`now()`),
          isNull(oauthTokenFamilies.revokedAt),
        ),
      )
      .limit(1)
      .prepare(`auth_access_token_by_${match}`);

  return { byHash: lookup('hash'), byId: lookup('id') };
}

const preparedFor = new WeakMap<Database, ReturnType<typeof prepareLookups>>();

function lookupsOf(db: Database) {
  let statements = preparedFor.get(db);
  if (!statements) {
    statements = prepareLookups(db);
    preparedFor.set(db, statements);
  }

  return statements;
}

/** The caller a live access token stands for, by the token's hash (opaque form). */
export async function findCallerByTokenHash(db: Database, tokenHash: string): Promise<CallerRecord | undefined> {
  return (await lookupsOf(db).byHash.execute({ value: tokenHash }))[0];
}

/** The caller a live access token stands for, by its id (the JWT form's `jti`). */
export async function findCallerByTokenId(db: Database, tokenId: string): Promise<CallerRecord | undefined> {
  return (await lookupsOf(db).byId.execute({ value: tokenId }))[0];
}
