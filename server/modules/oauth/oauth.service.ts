import { timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import { withTransaction, type Transaction } from '@/server/db/transaction';
import { claimAttempt, MAX_WINDOW_SECONDS } from '@/server/auth/failure-limit';
import { signAccessJwt } from '@/server/auth/jwt';
import { hashToken, newOpaqueToken } from '@/server/auth/opaque-token';
import { consumeTotp } from '@/server/auth/totp';
import { verifyAgainstDummy, verifyPassword } from '@/server/auth/password';
import type { OAuthClientId } from './oauth.table';
import type { DeviceTokenResponse } from './oauth.schemas';
import { deviceGrant } from './device-grants';
import { writeAudit } from '@/server/modules/audit-log';
import type { UserRow } from '@/server/modules/users/users.table';
import * as q from './oauth.queries';

/** The two built-in clients of spec 1 "Authentication" item 6. */
const OAUTH_CLIENTS: Record<OAuthClientId, { accessSeconds: number; refreshSeconds: number }> = {
  'default-client': { accessSeconds: 20 * 60, refreshSeconds: 30 * 24 * 3600 },
  'short-lived': { accessSeconds: 20 * 60, refreshSeconds: 30 * 60 },
};

/** An RFC 6749 §5.2 error; the handler answers it as `{error, error_description}`. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'unauthorized_client',
    readonly description: string,
    readonly status: 400 | 401 | 429 = 400,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }
}

export type TokenResponse = {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  refresh_total_validity_seconds: number;
  jwt_access_token: string;
  customer_id: number;
};

/** The HTTP Basic credentials of the token and revocation endpoints (RFC 6749 §2.3.1: each part form-encoded). */
function basicCredentials(authorization: string | undefined): { clientId: string; secret: string } {
  const match = authorization ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization) : null;
  if (!match) throw new OAuthError('invalid_client', 'Client authentication with HTTP Basic is required', 401);
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'Malformed client credentials', 401);

  return { clientId: safeDecode(decoded.slice(0, colon)), secret: safeDecode(decoded.slice(colon + 1)) };
}

/** Basic client authentication (RFC 6749 §2.3.1); the secrets are compared in constant time. */
export function authenticateClient(config: Config, authorization: string | undefined): OAuthClientId {
  const { clientId, secret } = basicCredentials(authorization);
  const expected = (config.oauthClientSecrets as Record<string, string>)[clientId];
  if (!expected || !constantTimeEqual(expected, secret)) throw new OAuthError('invalid_client', 'Unknown client or wrong secret', 401);

  return clientId as OAuthClientId;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);

  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The device token (spec 4 §2): `client_credentials` where the client is a device, authenticated with
 * HTTP Basic `deviceId:deviceSecret`. The console's OAuth clients may not use this grant.
 */
export async function clientCredentialsGrant(
  db: Database,
  config: Config,
  authorization: string | undefined,
): Promise<DeviceTokenResponse> {
  const { clientId, secret } = basicCredentials(authorization);
  if (Object.hasOwn(config.oauthClientSecrets, clientId)) {
    authenticateClient(config, authorization);
    throw new OAuthError('unauthorized_client', 'This client may not use the client_credentials grant');
  }
  const result = await deviceGrant().grant(db, { deviceId: clientId, secret });
  if (result === 'invalidClient') throw new OAuthError('invalid_client', 'Unknown device or wrong secret', 401);
  if (result === 'customerRestricted') throw new OAuthError('invalid_client', 'The device’s customer is restricted', 401);

  return result;
}

export type PasswordGrantInput = { clientId: OAuthClientId; username: string; password: string; totp?: string; address: string };

export async function passwordGrant(db: Database, config: Config, input: PasswordGrantInput): Promise<TokenResponse> {
  const email = input.username.trim().toLowerCase();
  const account = `account:${email}`;
  // Counted before the password is checked (server/auth/failure-limit.ts): concurrent guesses cannot overrun the limit.
  const claim = await claimAttempt(db, config, [account, `address:${input.address}`]);
  if (!claim.allowed)
    throw new OAuthError('invalid_grant', 'Too many failed sign-in attempts; try again later', 429, claim.retryAfterSeconds);
  const { attempt } = claim;

  const found = await q.findUserForSignIn(db, email);
  const user = found?.user;
  const passwordOk = user ? await verifyPassword(user.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  // A wrong password (or unknown account) keeps its claimed slot: that is the counted failure.
  if (!user || !passwordOk) throw new OAuthError('invalid_grant', 'Bad credentials');
  // Refusals for other reasons are no failed guess: the slots go back.
  const refuse = async (description: string): Promise<never> => {
    await attempt.release(db);
    throw new OAuthError('invalid_grant', description);
  };
  if (!user.usernamePasswordLoginEnabled || !user.oauthPasswordFlowEnabled || user.authProvider !== 'LOCAL') {
    return refuse('Password sign-in is disabled for this user');
  }
  if (found.customerRestricted) return refuse('The customer account is restricted');
  if (user.use2FA && user.totpSecret) {
    if (!input.totp) return refuse('totp_required');
    // A wrong code keeps the slot, as a wrong password does.
    if (!(await consumeTotp(db, user.id, user.totpSecret, input.totp))) throw new OAuthError('invalid_grant', 'totp_invalid');
  }

  return withTransaction(db, async (tx) => {
    await attempt.release(tx, { clear: [account] });
    const familyId = uuidv7();
    const familyExpiresAt = new Date(Date.now() + OAUTH_CLIENTS[input.clientId].refreshSeconds * 1000);
    await q.insertFamily(tx, { id: familyId, userId: user.id, clientId: input.clientId, expiresAt: familyExpiresAt });
    await q.touchLastLogin(tx, user.id);
    await writeAudit(
      tx,
      { kind: 'user', userId: user.id, email: user.email },
      {
        action: 'signIn',
        entityType: 'user',
        entityId: user.id,
        entityName: user.email,
        customerId: user.customerId,
        customerName: found.customerName,
        message: `${user.email} signed in (${input.clientId})`,
      },
    );

    return issueTokens(tx, user, input.clientId, familyId, familyExpiresAt);
  });
}

export async function refreshGrant(db: Database, input: { clientId: OAuthClientId; refreshToken: string }): Promise<TokenResponse> {
  const tokenHash = hashToken(input.refreshToken);
  const outcome = await withTransaction(db, async (tx) => {
    const found = await q.findRefreshToken(tx, tokenHash);
    if (!found) return { error: 'Unknown refresh token' } as const;
    const { family, user } = found;
    if (family.revokedAt) return { error: 'The refresh token was revoked' } as const;
    if (family.expiresAt.getTime() <= Date.now()) return { error: 'The refresh token has expired' } as const;
    if (family.clientId !== input.clientId) return { error: 'The refresh token was issued to another client' } as const;
    if (found.usedAt || !(await q.markRefreshTokenUsed(tx, tokenHash))) {
      // A retired refresh token came back: someone holds a copy. Revoke the whole family.
      await q.revokeFamily(tx, family.id, 'refresh_token_reuse');

      return { error: 'The refresh token was already used; the session is revoked', commit: true } as const;
    }
    if (found.customerRestricted) return { error: 'The customer account is restricted' } as const;

    return { tokens: await issueTokens(tx, user, input.clientId, family.id, family.expiresAt) } as const;
  });
  if ('tokens' in outcome && outcome.tokens) return outcome.tokens;
  throw new OAuthError('invalid_grant', 'error' in outcome && outcome.error ? outcome.error : 'Invalid refresh token');
}

/** RFC 7009: revokes the family of the given access or refresh token; unknown tokens are ignored. */
export async function revokeToken(db: Database, input: { clientId: OAuthClientId; token: string }): Promise<void> {
  await withTransaction(db, async (tx) => {
    const family = await q.findFamilyOfToken(tx, hashToken(input.token));
    if (!family || family.clientId !== input.clientId) return;
    await q.revokeFamily(tx, family.familyId, 'logout');
  });
}

async function issueTokens(
  tx: Transaction,
  user: UserRow,
  clientId: OAuthClientId,
  familyId: string,
  familyExpiresAt: Date,
): Promise<TokenResponse> {
  const accessToken = newOpaqueToken();
  const refreshToken = newOpaqueToken();
  const accessId = uuidv7();
  const { accessSeconds } = OAUTH_CLIENTS[clientId];
  const expiresAt = new Date(Date.now() + accessSeconds * 1000);
  await q.insertAccessToken(tx, { id: accessId, tokenHash: hashToken(accessToken), familyId, expiresAt });
  await q.insertRefreshToken(tx, { tokenHash: hashToken(refreshToken), familyId });
  const jwt = await signAccessJwt({
    sub: user.id,
    email: user.email,
    role: user.role,
    customer_id: user.customerId,
    jti: accessId,
    exp: Math.floor(expiresAt.getTime() / 1000),
  });

  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: accessSeconds,
    refresh_token: refreshToken,
    refresh_total_validity_seconds: Math.max(0, Math.floor((familyExpiresAt.getTime() - Date.now()) / 1000)),
    jwt_access_token: jwt,
    customer_id: user.customerId,
  };
}

export async function removeExpiredTokens(db: Database, config: Config): Promise<number> {
  // Failure windows of fixed policies (device registration: an hour) may outlast the sign-in window.
  return withTransaction(db, (tx) => q.deleteExpiredTokens(tx, Math.max(config.authRateLimit.windowSeconds, MAX_WINDOW_SECONDS)));
}
