import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '@/server/db/client';
import type { UserActor } from '@/server/context/actor';
import { customers } from '@/server/modules/customers/customers.table';
import { ACTIVITY_WRITE_INTERVAL_SECONDS, activityDue, recordRequestActivity } from '@/server/modules/users/user-activity.queries';
import { users } from '@/server/modules/users/users.table';
import { authCacheOf } from './auth-cache';
import { looksLikeJwt, verifyAccessJwt } from './jwt';
import { hashToken } from './opaque-token';
import { oauthAccessTokens, oauthTokenFamilies } from './tokens.table';

export type AuthenticatedUser = { actor: UserActor; customerRestricted: boolean };

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

/**
 * Resolves an access token (opaque or its JWT form) to the caller. Both forms are checked against the
 * stored token, so revocation takes effect immediately for either: from the process's token cache when it
 * serves (every change that alters the answer evicts it, see auth-cache.ts), from the database otherwise.
 * It also records the user's activity, at most once a minute.
 */
export async function authenticateAccessToken(
  db: Database,
  token: string,
  via: 'bearer' | 'cookie',
  log: Pick<Logger, 'warn'>,
): Promise<AuthenticatedUser | undefined> {
  const isJwt = looksLikeJwt(token);
  if (!isJwt && (token.length < 20 || token.length > 200)) return undefined;
  const cache = authCacheOf(db);
  // The same string verified before: a JWT's signature and expiry were checked then, and the cached entry ends with it.
  const key = `${isJwt ? 'j' : 'o'}:${hashToken(token)}`;
  const now = Date.now();
  const cached = cache?.get(key, now);
  if (cached) {
    if (now - cached.activityRecordedAt >= ACTIVITY_WRITE_INTERVAL_SECONDS * 1000 && !cached.customerRestricted) {
      cached.activityRecordedAt = now;
      await recordActivity(db, cached.actor.userId, log);
    }

    return { actor: { ...cached.actor, via: isJwt ? 'jwt' : via }, customerRestricted: cached.customerRestricted };
  }
  const generation = cache?.begin() ?? 0;
  let statements = preparedFor.get(db);
  if (!statements) {
    statements = prepareLookups(db);
    preparedFor.set(db, statements);
  }
  let rows;
  let expiresAt = Number.POSITIVE_INFINITY;
  if (isJwt) {
    const claims = await verifyAccessJwt(token);
    if (!claims) return undefined;
    rows = await statements.byId.execute({ value: claims.jti });
    if (typeof claims.exp === 'number') expiresAt = claims.exp * 1000;
  } else {
    rows = await statements.byHash.execute({ value: hashToken(token) });
  }
  const row = rows[0];
  if (!row) return undefined;
  if (row.activityDue && !row.customerRestricted) await recordActivity(db, row.userId, log);
  const actor: UserActor = {
    kind: 'user',
    userId: row.userId,
    email: row.email,
    name: row.name,
    role: row.role,
    customerId: row.customerId,
    customerName: row.customerName,
    isNetworkOwner: row.isSubreseller,
    isRestrictedUser: row.userRestricted,
    tokenFamilyId: row.familyId,
    via: isJwt ? 'jwt' : via,
  };
  const activityRecordedAt = row.activityDue ? now : (row.lastActivity?.getTime() ?? now);
  cache?.store(key, { actor, customerRestricted: row.customerRestricted, expiresAt: Math.min(expiresAt, row.expiresAt.getTime()), activityRecordedAt }, generation);

  return { actor, customerRestricted: row.customerRestricted };
}

/** Awaited: one short write a minute per user, and the row is current when the response leaves (no write outlives the request). */
async function recordActivity(db: Database, userId: string, log: Pick<Logger, 'warn'>): Promise<void> {
  await recordRequestActivity(db, userId).catch((error: unknown) => log.warn({ err: error, userId }, 'recording user activity failed'));
}
