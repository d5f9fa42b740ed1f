import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@/server/config';
import { retryDelayMs } from './mail.service';
import { safeErrorText } from './mail.transport';

const parse = (env: Record<string, string>) => parseConfig(env as NodeJS.ProcessEnv);

describe('mail configuration', () => {
  it('defaults: no SMTP (messages wait), a local sender', () => {
    expect(parse({}).mail).toEqual({ smtpUrl: undefined, from: 'Signage <no-reply@localhost>' });
  });

  it('reads smtp:// and smtps:// URLs and a sender with or without a name', () => {
    const config = parse({ SMTP_URL: 'smtps://user:p%40ss@mail.example.com:465', MAIL_FROM: 'ops@example.com' });
    expect(config.mail).toEqual({ smtpUrl: 'smtps://user:p%40ss@mail.example.com:465', from: 'ops@example.com' });
    expect(parse({ SMTP_URL: '', MAIL_FROM: 'Ops Team <ops@example.com>' }).mail).toEqual({
      smtpUrl: undefined,
      from: 'Ops Team <ops@example.com>',
    });
  });

  it('refuses other URLs and bad senders without echoing the value (it may hold the password)', () => {
    for (const bad of ['http://user:hunter22@mail.example.com', 'not a url', 'smtp://']) {
      let message = '';
      try {
        parse({ SMTP_URL: bad });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toContain('SMTP_URL');
      expect(message).not.toContain('hunter22');
    }
    expect(() => parse({ MAIL_FROM: 'Ops <not-an-address>' })).toThrow(/MAIL_FROM/);
  });
});

describe('delivery helpers', () => {
  it('doubles the wait from one minute, capped at six hours', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(30)).toBe(6 * 60 * 60_000);
  });

  it('removes the SMTP password from errors and bounds their length', () => {
    const url = 'smtp://mailer:s3cr%21t@mail.example.com:587';
    expect(safeErrorText(new Error('535 auth failed for mailer:s3cr!t and s3cr%21t'), url)).toBe(
      '535 auth failed for mailer:[redacted] and [redacted]',
    );
    expect(safeErrorText(new Error('x'.repeat(2000)), url)).toHaveLength(500);
  });
});
