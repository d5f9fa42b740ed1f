import { createHash, randomBytes } from 'node:crypto';

/** A new opaque token: 256 random bits, base64url. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
