import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken, newOpaqueToken } from '@/server/auth/opaque-token';
import { requireAuthSecret, type Config } from '@/server/config';

/*
 * The proof-of-play link token (spec 2 "Proof-of-play links object"): base64url of `<advertiserId>:<secret>`,
 * the secret being 256 random bits (newOpaqueToken). The database keeps the secret's SHA-256 (hashToken,
 * as for device secrets), which is all a check needs, and the secret sealed with AES-256-GCM under a key
 * derived from AUTH_SECRET, so getProofOfPlayLinks can show the URL again. Changing AUTH_SECRET leaves the
 * links working (the hash still matches) but unshowable until they are enabled again.
 */

const LINK_EXPORT_PATH = '/public-api/adv/proof-of-play/history/export/csv';

const keys = new Map<string, Buffer>();

function keyFor(config: Config): Buffer {
  const secret = requireAuthSecret(config);
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'signage-proof-of-play', 'advertiser-link-secret', 32));
    keys.set(secret, key);
  }

  return key;
}

export type LinkSecret = { secret: string; hash: string; sealed: string };

/** A new secret (CSPRNG), its hash and its sealed form, bound to the advertiser. */
export function newLinkSecret(config: Config, advertiserId: string): LinkSecret {
  const secret = newOpaqueToken();

  return { secret, hash: hashToken(secret), sealed: seal(config, advertiserId, secret) };
}

export function encodeLinkToken(advertiserId: string, secret: string): string {
  return Buffer.from(`${advertiserId}:${secret}`, 'utf8').toString('base64url');
}

const TOKEN_TEXT = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([A-Za-z0-9_-]{43})$/i;

/** The advertiser and secret a token carries; undefined for anything that is not such a token. */
export function decodeLinkToken(token: string): { advertiserId: string; secret: string } | undefined {
  // Standard base64 (`+`, `/`, `=` padding) decodes too: a client may have re-encoded the token.
  if (!/^[A-Za-z0-9_+/-]{1,200}={0,2}$/.test(token)) return undefined;
  const match = TOKEN_TEXT.exec(Buffer.from(token, 'base64url').toString('utf8'));

  return match ? { advertiserId: match[1]!.toLowerCase(), secret: match[2]! } : undefined;
}

/** Constant-time comparison of the presented secret's hash with the stored one. */
export function secretMatches(secret: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const presented = Buffer.from(hashToken(secret));
  const stored = Buffer.from(storedHash);

  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** The export URL of a token, under `baseUrl` (the request's origin). */
export function exportUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${LINK_EXPORT_PATH}?token=${token}`;
}

/** `iv.tag.ciphertext` (base64url), the advertiser id as associated data: a sealed secret opens only on its own row. */
function seal(config: Config, advertiserId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(config), iv);
  cipher.setAAD(Buffer.from(advertiserId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);

  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** The sealed secret, or undefined when it does not open (another AUTH_SECRET, another row). */
export function openSealedSecret(config: Config, advertiserId: string, sealed: string | null): string | undefined {
  const [iv, tag, body, ...rest] = (sealed ?? '').split('.');
  if (!iv || !tag || !body || rest.length > 0) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(config), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(advertiserId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));

    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
