import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { decodeLinkToken, encodeLinkToken, exportUrl, newLinkSecret, openSealedSecret, secretMatches } from './proof-of-play-token';

const config = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'unit-test-auth-secret-0123456789abcdef' } as NodeJS.ProcessEnv);
const otherConfig = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'another-auth-secret-0123456789abcdef' } as NodeJS.ProcessEnv);
const ID = '01938a6e-1f2a-7b3c-8d4e-5f6a7b8c9d0e';
const OTHER_ID = '01938a6e-1f2a-7b3c-8d4e-000000000000';

describe('proof-of-play link tokens', () => {
  it('round-trips the advertiser and secret through the base64url token', () => {
    const { secret } = newLinkSecret(config, ID);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = encodeLinkToken(ID, secret);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeLinkToken(token)).toEqual({ advertiserId: ID, secret });
    expect(decodeLinkToken(Buffer.from(`${ID}:${secret}`).toString('base64'))).toEqual({ advertiserId: ID, secret });
  });

  it('refuses what is not a token', () => {
    for (const bad of [
      '',
      'garbage!',
      'AAAA',
      Buffer.from(`${ID}:short`).toString('base64url'),
      Buffer.from(`nope:${'a'.repeat(43)}`).toString('base64url'),
      'x'.repeat(300),
    ]) {
      expect(decodeLinkToken(bad), bad).toBeUndefined();
    }
  });

  it('matches the secret against its hash only', () => {
    const { secret, hash } = newLinkSecret(config, ID);
    expect(secretMatches(secret, hash)).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}x`, hash)).toBe(false);
    expect(secretMatches(secret, null)).toBe(false);
    expect(hash).not.toContain(secret);
  });

  it('opens a sealed secret only with the same AUTH_SECRET and advertiser', () => {
    const { secret, sealed } = newLinkSecret(config, ID);
    expect(sealed).not.toContain(secret);
    expect(openSealedSecret(config, ID, sealed)).toBe(secret);
    expect(openSealedSecret(otherConfig, ID, sealed)).toBeUndefined();
    expect(openSealedSecret(config, OTHER_ID, sealed)).toBeUndefined();
    expect(openSealedSecret(config, ID, null)).toBeUndefined();
    expect(openSealedSecret(config, ID, 'a.b.c')).toBeUndefined();
  });

  it('builds the export URL under the base URL', () => {
    expect(exportUrl('https://signage.example/', 'abc')).toBe(
      'https://signage.example/public-api/adv/proof-of-play/history/export/csv?token=abc',
    );
  });
});
