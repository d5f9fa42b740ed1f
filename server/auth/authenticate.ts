import type { Logger } from 'pino';
import type { UserActor } from '@/server/context/actor';
import type { Database } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';
import { authCacheOf } from './auth-cache';
import { looksLikeJwt, verifyAccessJwt } from './jwt';
import { hashToken } from './opaque-token';

export type AuthenticatedUser = { actor: UserActor; customerRestricted: boolean };

/** Who a live (unexpired, unrevoked) access token stands for, as its stored rows say. */
export type CallerRecord = {
  familyId: string;
  userId: string;
  email: string;
  name: string;
  role: UserActor['role'];
  userRestricted: boolean;
  customerId: number;
  customerName: string;
  customerRestricted: boolean;
  isSubreseller: boolean;
  /** The user's last recorded activity is older than the activity interval (or absent). */
  activityDue: boolean;
  lastActivity: Date | null;
  expiresAt: Date;
};

/**
 * Where tokens and users live: the OAuth module implements it (its manifest plugs it in), so authentication
 * names no module table.
 */
export type CallerDirectory = {
  byTokenHash: (db: Database, tokenHash: string) => Promise<CallerRecord | undefined>;
  byTokenId: (db: Database, tokenId: string) => Promise<CallerRecord | undefined>;
  /** Records an authenticated request as the user's activity (a no-op within the interval). */
  recordActivity: (db: Database, userId: string) => Promise<void>;
  /** How often activity is recorded per user, in seconds. */
  activityIntervalSeconds: number;
};

export const callerDirectories = definePlugPoint<CallerDirectory>('callerDirectory', () => 'callerDirectory');

function callerDirectory(): CallerDirectory {
  const directory = callerDirectories.items()[0];
  if (!directory) throw new Error('No caller directory is installed (the OAuth module plugs it in)');

  return directory;
}

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
  const directory = callerDirectory();
  const cached = cache?.get(key, now);
  if (cached) {
    if (now - cached.activityRecordedAt >= directory.activityIntervalSeconds * 1000 && !cached.customerRestricted) {
      cached.activityRecordedAt = now;
      await recordActivity(directory, db, cached.actor.userId, log);
    }

    return { actor: { ...cached.actor, via: isJwt ? 'jwt' : via }, customerRestricted: cached.customerRestricted };
  }
  const generation = cache?.begin() ?? 0;
  let row: CallerRecord | undefined;
  let expiresAt = Number.POSITIVE_INFINITY;
  if (isJwt) {
    const claims = await verifyAccessJwt(token);
    if (!claims) return undefined;
    row = await directory.byTokenId(db, claims.jti);
    if (typeof claims.exp === 'number') expiresAt = claims.exp * 1000;
  } else {
    row = await directory.byTokenHash(db, hashToken(token));
  }
  if (!row) return undefined;
  if (row.activityDue && !row.customerRestricted) await recordActivity(directory, db, row.userId, log);
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
  cache?.store(
    key,
    { actor, customerRestricted: row.customerRestricted, expiresAt: Math.min(expiresAt, row.expiresAt.getTime()), activityRecordedAt },
    generation,
  );

  return { actor, customerRestricted: row.customerRestricted };
}

/** Awaited: one short write a minute per user, and the row is current when the response leaves (no write outlives the request). */
async function recordActivity(directory: CallerDirectory, db: Database, userId: string, log: Pick<Logger, 'warn'>): Promise<void> {
  await directory.recordActivity(db, userId).catch((error: unknown) => log.warn({ err: error, userId }, 'recording user activity failed'));
}
