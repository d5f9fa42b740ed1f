import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseConfig, setConfig, type Config } from './config';

/**
 * Resolves the configuration for a server start: validates the environment, supplies the
 * development-only generated AUTH_SECRET (persisted in DATA_DIR so sessions survive restarts),
 * and exports the values next-auth reads from the environment.
 */
export function resolveStartupConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = parseConfig(env);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!config.authSecret) config.authSecret = developmentSecret(config.dataDir);
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  config.publicUrl = publicUrl;
  env.AUTH_SECRET = config.authSecret;
  env.NEXTAUTH_SECRET = config.authSecret;
  env.NEXTAUTH_URL = publicUrl;
  env.OAUTH_DEFAULT_CLIENT_SECRET = config.oauthClientSecrets['default-client'];
  setConfig(config);

  return config;
}

function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, '.auth-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    fs.writeFileSync(file, secret, { mode: 0o600 });

    return secret;
  }
}
