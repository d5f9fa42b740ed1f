import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import type { Actor } from '@/server/http/context';
import { customers } from '@/server/modules/customers/customers.table';
import { users } from '@/server/modules/users/users.table';
import { looksLikeJwt, verifyAccessJwt } from './jwt';
import { hashToken } from './opaque-token';
import { oauthAccessTokens, oauthTokenFamilies } from './tokens.table';

export type AuthenticatedUser = { actor: Actor; customerRestricted: boolean };

/**
 * Resolves an access token (opaque or its JWT form) to the caller. Both forms are checked
 * against the stored token, so revocation takes effect immediately for either.
 */
export async function authenticateAccessToken(
  db: Executor,
  token: string,
  via: 'bearer' | 'cookie',
): Promise<AuthenticatedUser | undefined> {
  let match;
  let resolvedVia: Actor['via'] = via;
  if (looksLikeJwt(token)) {
    const claims = await verifyAccessJwt(token);
    if (!claims) return undefined;
    match = eq(oauthAccessTokens.id, claims.jti);
    resolvedVia = 'jwt';
  } else {
    if (token.length < 20 || token.length > 200) return undefined;
    match = eq(oauthAccessTokens.tokenHash, hashToken(token));
  }
  const rows = await db
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
    })
    .from(oauthAccessTokens)
    .innerJoin(oauthTokenFamilies, eq(oauthTokenFamilies.id, oauthAccessTokens.familyId))
    .innerJoin(users, eq(users.id, oauthTokenFamilies.userId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(and(match, gt(oauthAccessTokens.expiresAt, new Date()), isNull(oauthTokenFamilies.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;

  return {
    actor: {
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
