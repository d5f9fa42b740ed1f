import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { requireAuthSecret, type Config } from '@/server/config';

/**
 * Short-lived signed `token` query parameters (DECISIONS §7) for URLs that must work without a
 * bearer token: downloads in `<img>`/`<video>` tags and devices, and the local part-upload URLs.
 * A token is `<expiry epoch seconds>.<HMAC-SHA256>` over the method, the exact path and the expiry,
 * so it opens that one path for that one method until it expires. A token for a device (the manifest's
 * file URLs) names it, `<expiry>.<device id>.<HMAC>` with the id under the HMAC too: it is one of the
 * device's credentials, and the route that serves it refuses it once the device is gone or its customer
 * restricted (spec 4 §1). The key is derived from AUTH_SECRET (like the JWT key), so changing the secret
 * invalidates every URL.
 */

const keys = new Map<string, Buffer>();

function keyFor(config: Config): Buffer {
  const secret = requireAuthSecret(config);
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'signage-signed-url', 'storage-and-upload-urls', 32));
    keys.set(secret, key);
  }

  return key;
}

function mac(config: Config, method: string, path: string, expires: number, deviceId: string | undefined): Buffer {
  return createHmac('sha256', keyFor(config))
    .update(`${method.toUpperCase()}\n${path}\n${expires}${deviceId === undefined ? '' : `\n${deviceId}`}`)
    .digest();
}

/** The most tokens `signPath` remembers per key (oldest forgotten first). */
const SIGNED_MAX = 20_000;
const signedTokens = new WeakMap<Buffer, Map<string, string>>();

/**
 * A token for the path and method until `expiresAt`. Remembered: a manifest signs the same file URLs for every
 * screen of a tenant all day (period-aligned expiry), and an HMAC each cost more than the rest of the file entry.
 */
export function signPath(config: Config, input: { method: string; path: string; expiresAt: Date; deviceId?: string }): string {
  const expires = Math.floor(input.expiresAt.getTime() / 1000);
  const key = keyFor(config);
  let tokens = signedTokens.get(key);
  if (!tokens) signedTokens.set(key, (tokens = new Map()));
  const device = input.deviceId?.toLowerCase();
  const what = `${input.method.toUpperCase()}\n${input.path}\n${expires}\n${device ?? ''}`;
  let token = tokens.get(what);
  if (token === undefined) {
    token = `${expires}.${device === undefined ? '' : `${device}.`}${mac(config, input.method, input.path, expires, device).toString('base64url')}`;
    if (tokens.size >= SIGNED_MAX) tokens.delete(tokens.keys().next().value!);
    tokens.set(what, token);
  }

  return token;
}

/** A token's verdict; a valid one may name the device it was signed for (whose state the route checks). */
export type TokenCheck = { status: 'valid'; deviceId?: string } | { status: 'expired' | 'invalid' };

const TOKEN = /^(\d{1,12})\.(?:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.)?([A-Za-z0-9_-]{43})$/;

export function verifyPathToken(config: Config, input: { method: string; path: string; token: string; now?: Date }): TokenCheck {
  const match = TOKEN.exec(input.token);
  if (!match) return { status: 'invalid' };
  const expires = Number(match[1]);
  const deviceId = match[2];
  const given = Buffer.from(match[3]!, 'base64url');
  const expected = mac(config, input.method, input.path, expires, deviceId);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 'invalid' };
  if (expires * 1000 <= (input.now ?? new Date()).getTime()) return { status: 'expired' };

  return deviceId === undefined ? { status: 'valid' } : { status: 'valid', deviceId };
}

/** `path?token=…` (HEAD requests are allowed wherever GET is signed); with `deviceId`, a credential of that device. */
export function signedUrl(
  config: Config,
  input: { method: string; path: string; expiresAt: Date; baseUrl?: string; deviceId?: string },
): string {
  return `${input.baseUrl ?? ''}${input.path}?token=${signPath(config, input)}`;
}
