import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { getConfig, requireAuthSecret } from '@/server/config';

type SigningKey = { alg: 'EdDSA' | 'ES256' | 'RS256'; privateKey: KeyObject; publicKey: KeyObject; kid: string; jwk: JWK };

// PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

let signingKey: Promise<SigningKey> | undefined;

/**
 * The JWT signing key: JWT_PRIVATE_KEY when given, otherwise an Ed25519 key derived
 * from AUTH_SECRET with HKDF, so every instance sharing the secret signs alike.
 */
function getSigningKey(): Promise<SigningKey> {
  signingKey ??= loadSigningKey();

  return signingKey;
}

/** Forget the cached key (tests that change the configuration). */
export function resetSigningKey(): void {
  signingKey = undefined;
  verifiedWebhookKeys.clear();
}

async function loadSigningKey(): Promise<SigningKey> {
  const config = getConfig();
  let privateKey: KeyObject;
  if (config.jwtPrivateKey) {
    privateKey = createPrivateKey(config.jwtPrivateKey);
  } else {
    const seed = Buffer.from(hkdfSync('sha256', requireAuthSecret(config), 'signage-jwt', 'ed25519-signing-key', 32));
    privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }
  const publicKey = createPublicKey(privateKey);
  const alg = algorithmFor(privateKey);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);

  return { alg, privateKey, publicKey, kid, jwk: { ...jwk, kid, alg, use: 'sig' } };
}

function algorithmFor(key: KeyObject): SigningKey['alg'] {
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return 'EdDSA';
    case 'ec':
      if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('JWT_PRIVATE_KEY: only P-256 EC keys are supported');

      return 'ES256';
    case 'rsa':
      return 'RS256';
    default:
      throw new Error(`JWT_PRIVATE_KEY: unsupported key type ${key.asymmetricKeyType}`);
  }
}

export type AccessTokenClaims = { sub: string; email: string; role: string; customer_id: number; jti: string; exp: number };

export async function signAccessJwt(claims: AccessTokenClaims): Promise<string> {
  const key = await getSigningKey();
  const { exp, jti, sub, ...rest } = claims;

  return new SignJWT(rest)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setSubject(sub)
    .setJti(jti)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key.privateKey);
}

/** Verifies signature and expiry; returns undefined for anything that is not a valid token of ours. */
export async function verifyAccessJwt(token: string): Promise<AccessTokenClaims | undefined> {
  const key = await getSigningKey();
  try {
    const { payload } = await jwtVerify(token, key.publicKey, { algorithms: [key.alg] });
    // Webhook API keys are signed by the same key but carry an audience: never an access token.
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || payload.aud !== undefined) return undefined;

    return payload as unknown as AccessTokenClaims;
  } catch {
    return undefined;
  }
}

/** The audience of webhook API keys: it keeps them apart from access tokens signed by the same key. */
const WEBHOOK_AUDIENCE = 'webhook';

export type WebhookKeyClaims = { jti: string; customer_id: number; scope: string[] };

/**
 * A webhook API key (DECISIONS §5): a JWT with scope `WEBHOOK_CALL`, `customer_id` and the key's id as `jti`, without
 * expiry (deleting the key's row revokes it).
 */
export async function signWebhookKeyJwt(claims: WebhookKeyClaims): Promise<string> {
  const key = await getSigningKey();

  return new SignJWT({ customer_id: claims.customer_id, scope: claims.scope })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setSubject(`webhookApiKey:${claims.jti}`)
    .setAudience(WEBHOOK_AUDIENCE)
    .setJti(claims.jti)
    .setIssuedAt()
    .sign(key.privateKey);
}

/**
 * Webhook keys whose signature was verified lately, by their exact text: a key's signature is checked once a minute
 * at most instead of on every trigger (an EdDSA verification was ~7 % of a trigger's CPU, `npm run bench:webhooks`).
 * Only the signature is remembered: whether the key still exists is read by every trigger, so deleting it revokes at
 * once. Bounded in time and in number (the oldest go first).
 */
const verifiedWebhookKeys = new Map<string, { claims: WebhookKeyClaims; until: number }>();
const VERIFIED_KEY_MS = 60_000;
const VERIFIED_KEYS_MAX = 4_096;

/** Verifies a webhook API key's signature and shape; undefined for anything else (an access token included). */
export async function verifyWebhookKeyJwt(token: string): Promise<WebhookKeyClaims | undefined> {
  const known = verifiedWebhookKeys.get(token);
  if (known && known.until > Date.now()) return known.claims;
  if (!looksLikeJwt(token)) return undefined;
  const key = await getSigningKey();
  let claims: WebhookKeyClaims;
  try {
    const { payload } = await jwtVerify(token, key.publicKey, { algorithms: [key.alg], audience: WEBHOOK_AUDIENCE });
    const { jti, customer_id: customerId, scope } = payload;
    if (typeof jti !== 'string' || typeof customerId !== 'number' || !Array.isArray(scope) || !scope.every((s) => typeof s === 'string'))
      return undefined;
    claims = { jti, customer_id: customerId, scope: scope as string[] };
  } catch {
    return undefined;
  }
  verifiedWebhookKeys.delete(token);
  if (verifiedWebhookKeys.size >= VERIFIED_KEYS_MAX) verifiedWebhookKeys.delete(verifiedWebhookKeys.keys().next().value!);
  verifiedWebhookKeys.set(token, { claims, until: Date.now() + VERIFIED_KEY_MS });

  return claims;
}

export async function jwks(): Promise<{ keys: JWK[] }> {
  const key = await getSigningKey();

  return { keys: [key.jwk] };
}

/** A JWT has three base64url segments; opaque tokens have none. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
