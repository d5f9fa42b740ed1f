import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { requireAuthSecret, type Config } from '@/server/config';

/*
 * WEBHOOK channels' secrets and signatures (spec 5 §5, Standard Webhooks 1.0). A secret is `whsec_` and the base64
 * of 32 random bytes; the signature is `v1,` and the base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with
 * the decoded bytes. At rest a secret is sealed with AES-256-GCM under a key derived from AUTH_SECRET (as the
 * proof-of-play link secrets are), the channel id as associated data: a database dump alone reveals no secret, and
 * a sealed secret opens only on its own channel.
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

const keys = new Map<string, Buffer>();

function keyFor(config: Config): Buffer {
  const secret = requireAuthSecret(config);
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'signage-notification-channel', 'webhook-signing-secret', 32));
    keys.set(secret, key);
  }

  return key;
}

/** A new signing secret (CSPRNG). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** `iv.tag.ciphertext` (base64url) of `secret`, bound to the channel. */
export function sealSecret(config: Config, channelId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(config), iv);
  cipher.setAAD(Buffer.from(`notification-channel:${channelId}`));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);

  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** The sealed secret, or undefined when it does not open (another AUTH_SECRET, another channel, nothing sealed). */
export function openSecret(config: Config, channelId: number, sealed: string | null): string | undefined {
  const [iv, tag, body, ...rest] = (sealed ?? '').split('.');
  if (!iv || !tag || !body || rest.length > 0) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(config), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`notification-channel:${channelId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));

    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** One Standard Webhooks signature (`v1,<base64>`) of a message with `secret`. */
export function signature(secret: string, input: { id: string; timestamp: number; body: string }): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${input.id}.${input.timestamp}.${input.body}`).digest('base64');

  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers of one attempt: the delivery's id, the attempt's time in seconds and a
 * signature per secret (the new one first, then the previous one during its 24 hours), separated by spaces.
 */
export function signedHeaders(input: { id: string; now: Date; body: string; secrets: string[] }): Record<string, string> {
  const timestamp = Math.floor(input.now.getTime() / 1000);

  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': input.secrets.map((secret) => signature(secret, { id: input.id, timestamp, body: input.body })).join(' '),
  };
}
