#!/usr/bin/env node
// Builds if needed, starts the production server on a free port with a fresh database (embedded, or a new one on the
// PostgreSQL server of E2E_DATABASE_URL), waits until it is ready, runs Playwright against it and exits with
// Playwright's code.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startMailSink } from './e2e-mail-sink.mjs';
import { ensureProductionBuild } from './production-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const secret = (bytes) => randomBytes(bytes).toString('base64url');

async function waitForReady(url, timeoutMs, server) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A new, empty database on the server of `serverUrl` (the server migrates it at boot), and how to drop it. */
async function createDatabase(serverUrl) {
  const name = `signage_e2e_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  console.log(`[e2e] on PostgreSQL, database ${name}`);

  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function main() {
  const built = await ensureProductionBuild('e2e');
  if (built !== 0) return built;

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'signage-e2e-'));
  const adminPassword = `E2e-${secret(18)}`;
  const clientSecret = secret(24);
  // The service's outgoing mail lands in mailDir, where the tests read their links.
  const mailDir = mkdtempSync(join(tmpdir(), 'signage-e2e-mail-'));
  const mailSink = await startMailSink(mailDir);
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: adminPassword,
    AUTH_SECRET: secret(36).slice(0, 48),
    OAUTH_DEFAULT_CLIENT_SECRET: clientSecret,
    OAUTH_SHORT_LIVED_CLIENT_SECRET: secret(24),
    NEXTAUTH_URL: baseUrl,
    SMTP_URL: mailSink.url,
    // Every screen of the suite registers from 127.0.0.1: more than the 30 an hour one address may by default.
    DEVICE_REGISTRATIONS_PER_HOUR: '1000',
    // A screen that goes dark turns OFFLINE 25 s after it was last seen instead of 150 s (the alert story waits for it).
    DEVICE_HEARTBEAT_SECONDS: '10',
    // Datasource specs serve their feeds from 127.0.0.1 (spec 5 §1 refuses loopback unless this is set).
    ALLOW_PRIVATE_NETWORK_FETCH: 'true',
    // Access logs of every request drown the test report; E2E_LOG_LEVEL=info shows them.
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  };
  // The embedded PGlite database by default; E2E_DATABASE_URL (a PostgreSQL server) gets a fresh database of its own,
  // dropped afterwards. DATABASE_URL is never used: it may name a database the API suite or a person is using.
  delete env.DATABASE_URL;
  delete env.NEXTAUTH_SECRET;
  const database = process.env.E2E_DATABASE_URL ? await createDatabase(process.env.E2E_DATABASE_URL) : undefined;
  if (database) env.DATABASE_URL = database.url;

  console.log(`[e2e] starting the server on ${baseUrl} (data in ${dataDir})`);
  const server = spawn(process.execPath, ['dist/server/main.mjs'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const onSignal = () => void stop(server).then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let code = 1;
  try {
    await waitForReady(`${baseUrl}/readyz`, 180_000, server);
    console.log('[e2e] server ready; running Playwright');
    code = await run(npx, ['playwright', 'test', ...process.argv.slice(2)], {
      env: {
        ...process.env,
        E2E_BASE_URL: baseUrl,
        E2E_ADMIN_EMAIL: env.ADMIN_EMAIL,
        E2E_ADMIN_PASSWORD: adminPassword,
        E2E_CLIENT_SECRET: clientSecret,
        // Lets the tests read the refresh token inside the session cookie to prove sign-out revoked it.
        E2E_AUTH_SECRET: env.AUTH_SECRET,
        E2E_MAIL_DIR: mailDir,
      },
    });
  } catch (err) {
    console.error(`[e2e] ${err instanceof Error ? err.message : err}`);
  } finally {
    await stop(server);
    await mailSink.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDir, { recursive: true, force: true });
    await database?.drop();
  }

  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
