import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, requireAuthSecret } from './config';

/** parseConfig over a literal environment (not process.env). */
const parse = (env: Record<string, string>) => parseConfig(env as NodeJS.ProcessEnv);

const SECRETS = {
  OAUTH_DEFAULT_CLIENT_SECRET: 'prod-default-client-secret-0123',
  OAUTH_SHORT_LIVED_CLIENT_SECRET: 'prod-short-lived-secret-012345',
  AUTH_SECRET: 'a'.repeat(32),
};

function errorOf(env: Record<string, string>): ConfigError {
  try {
    parse(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);

    return err as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('parseConfig defaults', () => {
  it('answers the documented defaults for an empty environment', () => {
    const config = parse({});
    expect(config).toMatchObject({
      env: 'development',
      isProduction: false,
      port: 3000,
      host: '0.0.0.0',
      publicUrl: undefined,
      dataDir: './data',
      databaseUrl: undefined,
      databasePoolSize: 10,
      s3: undefined,
      admin: { email: 'admin@example.com', password: undefined, rootCustomerName: 'Operator' },
      authSecret: undefined,
      captcha: undefined,
      authRateLimit: { maxFailures: 10, windowSeconds: 900 },
      allowPrivateNetworkFetch: false,
      logLevel: 'info',
      jobsEnabled: true,
      deviceRegistrationsPerHour: 30,
      anonymousWritesPerMinute: { perAddress: 120, perDatasource: 600 },
      sms: { webhookUrl: undefined },
      metrics: { token: undefined, port: undefined },
      shutdown: { graceSeconds: 10, delaySeconds: 2 },
    });
    // Development client secrets exist so a fresh checkout starts.
    expect(config.oauthClientSecrets['default-client']).toEqual(expect.any(String));
    expect(config.oauthClientSecrets['short-lived']).toEqual(expect.any(String));
  });

  it('treats empty strings as unset', () => {
    const config = parse({ DATABASE_URL: '', AUTH_SECRET: '  ', PUBLIC_URL: '', S3_BUCKET: '' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.authSecret).toBeUndefined();
    expect(config.publicUrl).toBeUndefined();
    expect(config.s3).toBeUndefined();
  });

  it('treats an empty PORT as unset (default 3000), not as port 0', () => {
    expect(parse({ PORT: '' }).port).toBe(3000);
  });

  it('reads values', () => {
    const config = parse({
      PORT: '8080',
      DATABASE_URL: 'postgresql://u:p@db:5432/signage',
      PUBLIC_URL: 'https://signage.example.com',
      ALLOW_PRIVATE_NETWORK_FETCH: 'yes',
      JOBS_ENABLED: '0',
      CAPTCHA_SECRET: 'cap',
      ...SECRETS,
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgresql://u:p@db:5432/signage',
      publicUrl: 'https://signage.example.com',
      allowPrivateNetworkFetch: true,
      jobsEnabled: false,
      authSecret: SECRETS.AUTH_SECRET,
      captcha: { secret: 'cap', verifyUrl: expect.stringMatching(/^https:\/\//) },
      oauthClientSecrets: { 'default-client': SECRETS.OAUTH_DEFAULT_CLIENT_SECRET, 'short-lived': SECRETS.OAUTH_SHORT_LIVED_CLIENT_SECRET },
    });
  });

  it('falls back to NEXTAUTH_URL for the public URL', () => {
    expect(parse({ NEXTAUTH_URL: 'http://console.example' }).publicUrl).toBe('http://console.example');
    expect(parse({ NEXTAUTH_URL: 'http://a.example', PUBLIC_URL: 'http://b.example' }).publicUrl).toBe('http://b.example');
  });
});

describe('parseConfig refuses bad values, naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://db/signage'],
    ['DATABASE_URL', 'just-a-path'],
    ['AUTH_SECRET', 'short'],
    ['AUTH_SECRET', 'a'.repeat(31)],
    ['OAUTH_DEFAULT_CLIENT_SECRET', 'short'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['ADMIN_PASSWORD', 'short'],
    ['PUBLIC_URL', 'not a url'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'verbose'],
    ['JOBS_ENABLED', 'maybe'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DEVICE_FRAME_RATE', '0'],
    ['DEVICE_FRAME_BURST', 'many'],
    ['DEVICE_SOCKETS_PER_DEVICE', '0'],
    ['DEVICE_HEARTBEAT_SECONDS', '9'],
    ['DEVICE_HEARTBEAT_SECONDS', '3601'],
    ['DEVICE_REGISTRATIONS_PER_HOUR', '0'],
    ['DEVICE_REGISTRATIONS_PER_HOUR', '2.5'],
    ['ANONYMOUS_WRITES_PER_ADDRESS_PER_MINUTE', '0'],
    ['ANONYMOUS_WRITES_PER_DATASOURCE_PER_MINUTE', 'lots'],
    ['JWT_PRIVATE_KEY', 'not a pem'],
    ['SMS_WEBHOOK_URL', 'ftp://sms.example.com/send'],
    ['METRICS_TOKEN', 'a'.repeat(15)],
    ['METRICS_PORT', '0'],
    ['METRICS_PORT', '65536'],
    ['METRICS_PORT', 'nine'],
    ['METRICS_PORT', '9100.5'],
    ['TRUSTED_PROXIES', 'proxy.internal'],
    ['TRUSTED_PROXIES', '10.0.0.0/8,10.0.0.0/33'],
    ['SHUTDOWN_GRACE_SECONDS', '0'],
    ['SHUTDOWN_GRACE_SECONDS', '13'],
    ['SHUTDOWN_GRACE_SECONDS', '2.5'],
    ['SHUTDOWN_DELAY_SECONDS', '-1'],
    ['SHUTDOWN_DELAY_SECONDS', 'soon'],
  ])('%s=%s', (name, value) => {
    const err = errorOf({ [name]: value });
    expect(err.message).toMatch(new RegExp(`(^|\\s)${name}:`, 'm'));
  });

  it('reads TRUSTED_PROXIES as a list of addresses and ranges, none by default', () => {
    expect(parse({}).trustedProxies).toEqual([]);
    expect(parse({ TRUSTED_PROXIES: ' 10.0.0.0/8, 127.0.0.1,,::1 ' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
  });

  it('names every bad variable at once', () => {
    const err = errorOf({ PORT: 'abc', DATABASE_URL: 'mysql://x', AUTH_SECRET: 'short' });
    for (const name of ['PORT', 'DATABASE_URL', 'AUTH_SECRET']) expect(err.message).toContain(`${name}:`);
  });

  it('does not echo the secret value', () => {
    expect(errorOf({ AUTH_SECRET: 'tiny-secret-value' }).message).not.toContain('tiny-secret-value');
  });

  it('does not echo a short METRICS_TOKEN', () => {
    expect(errorOf({ METRICS_TOKEN: 'short-token' }).message).not.toContain('short-token');
  });

  it('refuses a METRICS_PORT equal to PORT, naming it', () => {
    expect(errorOf({ PORT: '8080', METRICS_PORT: '8080' }).message).toMatch(/^\s+METRICS_PORT: must differ from PORT$/m);
    expect(errorOf({ METRICS_PORT: '3000' }).message).toContain('METRICS_PORT:');
  });

  it('reads METRICS_TOKEN and METRICS_PORT', () => {
    expect(parse({ METRICS_TOKEN: 'a'.repeat(16), METRICS_PORT: '9100' }).metrics).toEqual({ token: 'a'.repeat(16), port: 9100 });
    expect(parse({ METRICS_TOKEN: '', METRICS_PORT: ' ' }).metrics).toEqual({ token: undefined, port: undefined });
  });

  it('reads the shutdown grace and delay, and refuses a delay that leaves no time to drain', () => {
    expect(parse({ SHUTDOWN_GRACE_SECONDS: '12', SHUTDOWN_DELAY_SECONDS: '0' }).shutdown).toEqual({ graceSeconds: 12, delaySeconds: 0 });
    expect(errorOf({ SHUTDOWN_GRACE_SECONDS: '3', SHUTDOWN_DELAY_SECONDS: '3' }).message).toMatch(
      /^\s+SHUTDOWN_DELAY_SECONDS: must be less than SHUTDOWN_GRACE_SECONDS$/m,
    );
  });

  it('requires the S3 keys with S3_BUCKET', () => {
    const err = errorOf({ S3_BUCKET: 'bucket' });
    expect(err.message).toContain('S3_ACCESS_KEY_ID');
    expect(err.message).toContain('S3_SECRET_ACCESS_KEY');
  });
});

describe('production', () => {
  it('without the three secrets is an error naming each', () => {
    const err = errorOf({ NODE_ENV: 'production' });
    for (const name of ['OAUTH_DEFAULT_CLIENT_SECRET', 'OAUTH_SHORT_LIVED_CLIENT_SECRET', 'AUTH_SECRET']) {
      expect(err.message).toMatch(new RegExp(`${name}: required`));
    }
  });

  it.each(Object.keys(SECRETS))('without only %s is an error naming just that one', (missing) => {
    const env: Record<string, string> = { NODE_ENV: 'production', ...SECRETS };
    delete env[missing];
    const err = errorOf(env);
    expect(err.message).toContain(`${missing}:`);
    for (const other of Object.keys(SECRETS).filter((k) => k !== missing)) expect(err.message).not.toContain(`${other}:`);
  });

  it('with the three secrets starts, without development defaults', () => {
    const config = parse({ NODE_ENV: 'production', ...SECRETS });
    expect(config.isProduction).toBe(true);
    expect(config.oauthClientSecrets['default-client']).toBe(SECRETS.OAUTH_DEFAULT_CLIENT_SECRET);
    expect(requireAuthSecret(config)).toBe(SECRETS.AUTH_SECRET);
  });
});

describe('requireAuthSecret', () => {
  it('throws a ConfigError naming AUTH_SECRET when none was resolved', () => {
    expect(() => requireAuthSecret(parse({}))).toThrow(ConfigError);
    expect(() => requireAuthSecret(parse({}))).toThrow(/AUTH_SECRET/);
  });
});
