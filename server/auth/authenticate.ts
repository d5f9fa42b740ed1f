import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '@/server/db/client';
import type { UserActor } from '@/server/context/actor';
import { customers } from '@/server/modules/customers/customers.table';
import { activityDue, recordRequestActivity } from '@/server/modules/users/user-activity';
import { users } from '@/server/modules/users/users.table';
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
 * Resolves an access token (opaque or its JWT form) to the caller. Both forms are checked
 * against the stored token, so revocation takes effect immediately for either. It also records the
 * user's activity, at most once a minute (`activityDue` comes with the lookup, so most requests only read).
 */
export async function authenticateAccessToken(
  db: Database,
  token: string,
  via: 'bearer' | 'cookie',
  log: Pick<Logger, 'warn'>,
): Promise<AuthenticatedUser | undefined> {
  let statements = preparedFor.get(db);
  if (!statements) {
    statements = prepareLookups(db);
    preparedFor.set(db, statements);
  }
  let rows;
  let resolvedVia: UserActor['via'] = via;
  if (looksLikeJwt(token)) {
    const claims = await verifyAccessJwt(token);
    if (!claims) return undefined;
    rows = await statements.byId.execute({ value: claims.jti });
    resolvedVia = 'jwt';
  } else {
    if (token.length < 20 || token.length > 200) return undefined;
    rows = await statements.byHash.execute({ value: hashToken(token) });
  }
  const row = rows[0];
  if (!row) return undefined;
  if (row.activityDue && !row.customerRestricted) {
    // Awaited: one short write a minute per user, and the row is current when the response leaves (no write outlives the request).
    await recordRequestActivity(db, row.userId).catch((error: unknown) => log.warn({ err: error, userId: row.userId }, 'recording user activity failed'));
  }

  return {
    actor: {
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
      via: resolvedVia,
    },
    customerRestricted: row.customerRestricted,
  };
}
