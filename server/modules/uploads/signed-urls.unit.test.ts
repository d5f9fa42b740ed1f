import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { parseRange } from '@/server/http/byte-range';
import { signPath, verifyPathToken } from './signed-urls';

const config = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'unit-test-secret-that-is-long-enough-0123456789' });
const other = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'another-secret-that-is-long-enough-0123456789' });

describe('signed path tokens', () => {
  const path = '/api/storage/customer/1/files/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11';
  const expiresAt = new Date(Date.now() + 60_000);

  it('verify for the same method, path and secret until they expire', () => {
    const token = signPath(config, { method: 'GET', path, expiresAt });
    expect(verifyPathToken(config, { method: 'GET', path, token })).toBe('valid');
    expect(verifyPathToken(config, { method: 'GET', path, token, now: new Date(expiresAt.getTime() + 1000) })).toBe('expired');
  });

  it('refuse another path, method, secret, a changed expiry or garbage', () => {
    const token = signPath(config, { method: 'GET', path, expiresAt });
    expect(verifyPathToken(config, { method: 'GET', path: `${path}.tmb`, token })).toBe('invalid');
    expect(verifyPathToken(config, { method: 'PUT', path, token })).toBe('invalid');
    expect(verifyPathToken(other, { method: 'GET', path, token })).toBe('invalid');
    const [expiry, mac] = token.split('.');
    expect(verifyPathToken(config, { method: 'GET', path, token: `${Number(expiry) + 1000}.${mac}` })).toBe('invalid');
    expect(verifyPathToken(config, { method: 'GET', path, token: 'nonsense' })).toBe('invalid');
  });

  it('remember what they signed per secret: the same token again, another secret its own, a new expiry a new token', () => {
    const token = signPath(config, { method: 'GET', path, expiresAt });
    expect(signPath(config, { method: 'get', path, expiresAt })).toBe(token);
    const byOther = signPath(other, { method: 'GET', path, expiresAt });
    expect(byOther).not.toBe(token);
    expect(verifyPathToken(other, { method: 'GET', path, token: byOther })).toBe('valid');
    const later = signPath(config, { method: 'GET', path, expiresAt: new Date(expiresAt.getTime() + 5_000) });
    expect(later).not.toBe(token);
    expect(verifyPathToken(config, { method: 'GET', path, token: later })).toBe('valid');
    // Past the bound the oldest are forgotten; every token still verifies.
    for (let i = 0; i < 20_100; i++) signPath(config, { method: 'GET', path: `${path}/${i}`, expiresAt });
    expect(signPath(config, { method: 'GET', path, expiresAt })).toBe(token);
  });
});

describe('parseRange', () => {
  it('reads single ranges as HTTP defines them', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=2-', 10)).toEqual({ start: 2, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
  });

  it('ignores what it cannot serve as one range, and marks ranges past the end unsatisfiable', () => {
    expect(parseRange('bytes=0-1,4-5', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
    expect(parseRange('bytes=5-2', 10)).toBeUndefined();
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
  });
});
