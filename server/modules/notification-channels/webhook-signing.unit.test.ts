import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { newWebhookSecret, openSecret, sealSecret, signature, signedHeaders } from './webhook-signing';

const config = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'unit-test-auth-secret-that-is-long-enough-012345' });
const otherConfig = parseConfig({ NODE_ENV: 'test', AUTH_SECRET: 'another-auth-secret-that-is-long-enough-0123456' });

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, each new', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('open only on their own channel and under the same AUTH_SECRET; the sealed text does not hold the secret', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret(config, 12, secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret(config, 12, sealed)).toBe(secret);
    expect(openSecret(config, 13, sealed)).toBeUndefined();
    expect(openSecret(otherConfig, 12, sealed)).toBeUndefined();
    expect(openSecret(config, 12, null)).toBeUndefined();
    expect(openSecret(config, 12, 'a.b.c.d')).toBeUndefined();
  });
});

describe('Standard Webhooks signatures', () => {
  it('verify with the standardwebhooks package, each of two secrets on its own', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: { alertId: null } });
    const headers = signedHeaders({ id: '0190a6a2-0000-7000-8000-000000000001', now: new Date(), body, secrets: [current, previous] });
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toMatchObject({ type: 'test' });
    expect(new Webhook(previous).verify(body, headers)).toMatchObject({ type: 'test' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('sign id.timestamp.body with the decoded key', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const wh = new Webhook(secret);
    const at = new Date('2026-11-29T08:00:00Z');
    expect(signature(secret, { id: 'msg_1', timestamp: at.getTime() / 1000, body: '{}' })).toBe(wh.sign('msg_1', at, '{}'));
  });
});
