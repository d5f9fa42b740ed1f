import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * Every environment variable the service reads, validated once at start (DECISIONS §1).
 * A bad value stops the start with a message naming the variable.
 */
const booleanString = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyAsUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: opt(z.url()),
  NEXTAUTH_URL: opt(z.url()),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: opt(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')),
  DATABASE_POOL_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(200).default(10)),
  S3_BUCKET: opt(z.string()),
  S3_ENDPOINT: opt(z.url()),
  S3_REGION: opt(z.string()),
  S3_ACCESS_KEY_ID: opt(z.string()),
  S3_SECRET_ACCESS_KEY: opt(z.string()),
  S3_FORCE_PATH_STYLE: opt(booleanString),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  ADMIN_PASSWORD: opt(z.string().min(8, 'must be at least 8 characters')),
  ROOT_CUSTOMER_NAME: z.string().min(1).default('Operator'),
  OAUTH_DEFAULT_CLIENT_SECRET: opt(z.string().min(16, 'must be at least 16 characters')),
  OAUTH_SHORT_LIVED_CLIENT_SECRET: opt(z.string().min(16, 'must be at least 16 characters')),
  AUTH_SECRET: opt(z.string().min(32, 'must be at least 32 characters')),
  JWT_PRIVATE_KEY: opt(z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' })),
  CAPTCHA_SECRET: opt(z.string()),
  CAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  AUTH_MAX_FAILURES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(10)),
  AUTH_FAILURE_WINDOW_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(900)),
  AUTH_CACHE_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000).default(10_000)),
  DEVICE_PING_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(300).default(30)),
  DEVICE_HEARTBEAT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(10).max(3600).default(60)),
  DEVICE_FRAME_RATE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(10)),
  DEVICE_FRAME_BURST: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(200)),
  DEVICE_SOCKETS_PER_DEVICE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).default(3)),
  DEVICE_REGISTRATIONS_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(30)),
  ANONYMOUS_WRITES_PER_ADDRESS_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(120)),
  ANONYMOUS_WRITES_PER_DATASOURCE_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(600)),
  ALLOW_PRIVATE_NETWORK_FETCH: opt(booleanString),
  // The reverse proxies whose X-Forwarded-For names the client (server/http/client-address.ts): addresses or CIDRs.
  TRUSTED_PROXIES: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((entries) => entries.every((entry) => ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry)), {
        message: 'must be IP addresses or CIDR ranges separated by commas, e.g. 10.0.0.0/8,127.0.0.1',
      })
      .default([]),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JOBS_ENABLED: opt(booleanString),
  // The messages name no value: the URL carries the SMTP password.
  SMTP_URL: opt(z.string().refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL with a host')),
  MAIL_FROM: z
    .string()
    .refine(isMailbox, 'must be an e-mail address, optionally as "Name <address>"')
    .default('Signage <no-reply@localhost>'),
  // SMS gateway of notification channels (spec 5 §5): the service POSTs `{to, text}` there; unset, SMS is not offered.
  SMS_WEBHOOK_URL: opt(z.url({ protocol: /^https?$/ })),
  // GET /metrics (Prometheus): with this bearer token on the main port, or without one on METRICS_PORT; neither: not served.
  METRICS_TOKEN: opt(z.string().min(16, 'must be at least 16 characters')),
  METRICS_PORT: opt(z.coerce.number().int().min(1).max(65535)),
  // SIGTERM/SIGINT (server/shutdown.ts): the whole stop is bounded by the grace, and stays under 15 s with the final close.
  SHUTDOWN_GRACE_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(12).default(10)),
  SHUTDOWN_DELAY_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10).default(2)),
});

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);

    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isMailbox(value: string): boolean {
  const address = /^[^<>]*<([^<>]+)>$/.exec(value.trim())?.[1] ?? value.trim();

  return /^[^\s@<>"]+@[^\s@<>"]+$/.test(address);
}

type Env = z.infer<typeof envSchema>;

// Development defaults only; production refuses to start without real values.
const DEV_DEFAULT_CLIENT_SECRET = 'dev-default-client-secret';
const DEV_SHORT_LIVED_CLIENT_SECRET = 'dev-short-lived-client-secret';

export type Config = {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  s3:
    | { bucket: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean }
    | undefined;
  admin: { email: string; password: string | undefined; rootCustomerName: string };
  oauthClientSecrets: { 'default-client': string; 'short-lived': string };
  /** Undefined only in development before the data directory supplied a generated one (see ensureDevSecret). */
  authSecret: string | undefined;
  jwtPrivateKey: string | undefined;
  captcha: { secret: string; verifyUrl: string } | undefined;
  authRateLimit: { maxFailures: number; windowSeconds: number };
  /** Verified tokens kept in memory (0: every request looks its token up in the database). */
  authCacheSize: number;
  /** Protocol-level ping of device WebSockets; a connection that misses one is closed, the rest are seen (ONLINE). */
  devicePingSeconds: number;
  /** The heartbeat interval a device is given when it registers; it turns OFFLINE 2.5 intervals after it was last seen. */
  deviceHeartbeatSeconds: number;
  /**
   * What one device WebSocket may cost: frames a second it may send on average (`frameRate`) and at once
   * (`frameBurst`), a token bucket; past it the connection is closed (1008). Connections one device may hold
   * on this instance (`socketsPerDevice`): a new one closes the oldest.
   */
  deviceSockets: { frameRate: number; frameBurst: number; socketsPerDevice: number };
  /**
   * Player registrations one client address may make an hour (spec 4 §1: 30). Raised for a roll-out where many
   * screens register from behind one address (a venue's NAT, a staging bench, the browser test suite).
   */
  deviceRegistrationsPerHour: number;
  /**
   * Writes without credentials (a datasource's `set`/`merge`, the calendar event writes on a datasource that is
   * `editableByDisplay`) a minute, per client address and per datasource; users and devices are not counted.
   */
  anonymousWritesPerMinute: { perAddress: number; perDatasource: number };
  /**
   * The reverse proxies in front of this instance (addresses or CIDR ranges): a request from one of them is counted
   * and logged under the client its `X-Forwarded-For` names. Empty: the connection's own address (no proxy trusted).
   */
  trustedProxies: readonly string[];
  allowPrivateNetworkFetch: boolean;
  logLevel: Env['LOG_LEVEL'];
  jobsEnabled: boolean;
  /** Outbound e-mail; without `smtpUrl` messages wait in the outbox. */
  mail: { smtpUrl: string | undefined; from: string };
  /** The SMS gateway of notification channels; without it SMS channels are refused. */
  sms: { webhookUrl: string | undefined };
  /**
   * Who may read GET /metrics: on the main port a caller with `token` (bearer); on `port` (a listener of its own on
   * HOST that serves only /metrics) anyone who reaches it. Neither set: /metrics answers 404.
   */
  metrics: { token: string | undefined; port: number | undefined };
  /**
   * A stop (SIGTERM/SIGINT, server/shutdown.ts): `/readyz` answers 503 at once; the instance keeps serving for
   * `delaySeconds` (a proxy's health check notices), then stops listening and drains; `graceSeconds` after the
   * signal whatever is still open is cut.
   */
  shutdown: { graceSeconds: number; delaySeconds: number };
};

export class ConfigError extends Error {}

export function parseConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (isProduction) {
    const missing = (['OAUTH_DEFAULT_CLIENT_SECRET', 'OAUTH_SHORT_LIVED_CLIENT_SECRET', 'AUTH_SECRET'] as const).filter((k) => !e[k]);
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: required when NODE_ENV=production`).join('\n')}`);
    }
  }
  if (e.S3_BUCKET && (!e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required when S3_BUCKET is set');
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT');
  }
  if (e.SHUTDOWN_DELAY_SECONDS >= e.SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError('Invalid configuration:\n  SHUTDOWN_DELAY_SECONDS: must be less than SHUTDOWN_GRACE_SECONDS');
  }

  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? e.NEXTAUTH_URL,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
        }
      : undefined,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, rootCustomerName: e.ROOT_CUSTOMER_NAME },
    oauthClientSecrets: {
      'default-client': e.OAUTH_DEFAULT_CLIENT_SECRET ?? DEV_DEFAULT_CLIENT_SECRET,
      'short-lived': e.OAUTH_SHORT_LIVED_CLIENT_SECRET ?? DEV_SHORT_LIVED_CLIENT_SECRET,
    },
    authSecret: e.AUTH_SECRET,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    captcha: e.CAPTCHA_SECRET ? { secret: e.CAPTCHA_SECRET, verifyUrl: e.CAPTCHA_VERIFY_URL } : undefined,
    authRateLimit: { maxFailures: e.AUTH_MAX_FAILURES, windowSeconds: e.AUTH_FAILURE_WINDOW_SECONDS },
    authCacheSize: e.AUTH_CACHE_SIZE,
    devicePingSeconds: e.DEVICE_PING_SECONDS,
    deviceHeartbeatSeconds: e.DEVICE_HEARTBEAT_SECONDS,
    deviceSockets: { frameRate: e.DEVICE_FRAME_RATE, frameBurst: e.DEVICE_FRAME_BURST, socketsPerDevice: e.DEVICE_SOCKETS_PER_DEVICE },
    deviceRegistrationsPerHour: e.DEVICE_REGISTRATIONS_PER_HOUR,
    trustedProxies: e.TRUSTED_PROXIES,
    anonymousWritesPerMinute: {
      perAddress: e.ANONYMOUS_WRITES_PER_ADDRESS_PER_MINUTE,
      perDatasource: e.ANONYMOUS_WRITES_PER_DATASOURCE_PER_MINUTE,
    },
    allowPrivateNetworkFetch: e.ALLOW_PRIVATE_NETWORK_FETCH ?? false,
    logLevel: e.LOG_LEVEL,
    jobsEnabled: e.JOBS_ENABLED ?? true,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    sms: { webhookUrl: e.SMS_WEBHOOK_URL },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    shutdown: { graceSeconds: e.SHUTDOWN_GRACE_SECONDS, delaySeconds: e.SHUTDOWN_DELAY_SECONDS },
  };
}

let current: Config | undefined;

/** The process-wide configuration; parsed on first use. */
export function getConfig(): Config {
  current ??= parseConfig();

  return current;
}

/** Replaces the process-wide configuration (start-up after defaults were resolved, tests). */
export function setConfig(config: Config): void {
  current = config;
}

/** The secret used for signing; throws when start-up did not resolve one. */
export function requireAuthSecret(config: Config = getConfig()): string {
  if (!config.authSecret) throw new ConfigError('AUTH_SECRET is not configured');

  return config.authSecret;
}
