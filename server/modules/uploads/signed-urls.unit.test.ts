import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { parseRange } from '@/server/http/byte-range';
import { signPath, verifyPathToken } from './signed-urls';

const config = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'unit-test-secret-that-is-long-enough-0123456789' });
const other = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'another-secret-that-is-long-enough-0123456789' });
const VALID = { status: 'valid' };
const EXPIRED = { status: 'expired' };
const INVALID = { status: 'invalid' };

describe('signed path tokens', () => {
  const path = '/api/storage/customer/1/files/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11';
  const expiresAt = new Date(Date.now() + 60_000);

  it('verify for the same method, path and secret until they expire', () => {
    const token = signPath(config, { method: 'GET', path, expiresAt });
    expect(verifyPathToken(config, { method: 'GET', path, token })).toEqual(VALID);
    expect(verifyPathToken(config, { method: 'GET', path, token, now: new Date(expiresAt.getTime() + 1000) })).toEqual(EXPIRED);
  });

  it('refuse another path, method, secret, a changed expiry or garbage', () => {
    const token = signPath(config, { method: 'GET', path, expiresAt });
    expect(verifyPathToken(config, { method: 'GET', path: `${path}.tmb`, token })).toEqual(INVALID);
    expect(verifyPathToken(config, { method: 'PUT', path, token })).toEqual(INVALID);
    expect(verifyPathToken(other, { method: 'GET', path, token })).toEqual(INVALID);
    const [expiry, mac] = token.split('.');
    expect(verifyPathToken(config, { method: 'GET', path, token: `${Number(expiry) + 1000}.${mac}` })).toEqual(INVALID);
    expect(verifyPathToken(config, { method: 'GET', path, token: 'nonsense' })).toEqual(INVALID);
  });

  it('for a device name it, under the HMAC: another device, no device or a user token for the same path do not pass as it', () => {
    const deviceId = '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a12';
    const token = signPath(config, { method: 'GET', path, expiresAt, deviceId });
    expect(token).toMatch(new RegExp(`^\\d+\\.${deviceId}\\.[A-Za-z0-9_-]{43}$`));
    expect(verifyPathToken(config, { method: 'GET', path, token })).toEqual({ status: 'valid', deviceId });
    expect(verifyPathToken(config, { method: 'GET', path, token, now: new Date(expiresAt.getTime() + 1000) })).toEqual(EXPIRED);
    const [expiry, , mac] = token.split('.');
    expect(verifyPathToken(config, { method: 'GET', path, token: `${expiry}.${mac}` })).toEqual(INVALID);
    expect(verifyPathToken(config, { method: 'GET', path, token: `${expiry}.0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a13.${mac}` })).toEqual(
      INVALID,
    );
    const [userExpiry, userMac] = signPath(config, { method: 'GET', path, expiresAt }).split('.');
    expect(verifyPathToken(config, { method: 'GET', path, token: `${userExpiry}.${deviceId}.${userMac}` })).toEqual(INVALID);
    expect(signPath(config, { method: 'GET', path, expiresAt })).not.toBe(token);
  });

  it('remember what they signed per secret: the same token again, another secret its own, a new expiry a new token', () => {
    const token = signPath(config, { method: 'GET', path, expiresAt });
    expect(signPath(config, { method: 'get', path, expiresAt })).toBe(token);
    const byOther = signPath(other, { method: 'GET', path, expiresAt });
    expect(byOther).not.toBe(token);
    expect(verifyPathToken(other, { method: 'GET', path, token: byOther })).toEqual(VALID);
    const later = signPath(config, { method: 'GET', path, expiresAt: new Date(expiresAt.getTime() + 5_000) });
    expect(later).not.toBe(token);
    expect(verifyPathToken(config, { method: 'GET', path, token: later })).toEqual(VALID);
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
