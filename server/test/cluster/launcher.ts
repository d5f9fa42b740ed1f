import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startTestS3Server, type TestS3Server } from '@/server/test/s3-server';
import { startTestProxy, type TestProxy } from './test-proxy';

/*
 * The cluster on real processes (issue 34): a fresh PostgreSQL database, the S3 protocol server, N production server
 * processes (`npm start`'s scripts/start.mjs on the build) with the same environment but PORT, and the test proxy in
 * front (PUBLIC_URL is the proxy's). For the cluster test and a later `npm run bench:cluster`: start it, kill (SIGKILL)
 * or terminate (SIGTERM) one instance, stop everything.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));

type InstanceExit = { code: number | null; signal: NodeJS.Signals | null; afterMs: number };

type ClusterInstance = {
  /** `A`, `B`, … in start order. */
  name: string;
  port: number;
  /** Its process (for a benchmark's CPU and memory readings). */
  pid: number;
  /** The instance itself, bypassing the proxy. */
  url: string;
  readonly running: boolean;
  /** What the process printed (its log at LOG_LEVEL), for a failing test's message. */
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<InstanceExit>;
};

export type Cluster = {
  /** The proxy's URL: PUBLIC_URL of every instance. */
  url: string;
  proxy: TestProxy;
  instances: ClusterInstance[];
  instance: (name: string) => ClusterInstance;
  /** The database every instance shares (a benchmark seeds it). */
  databaseUrl: string;
  /** The database every instance shares, for assertions on what they stored. */
  query: <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<T[]>;
  admin: { email: string; password: string; clientSecret: string };
  /** SIGKILL: the process dies at once (no drain); resolves when it has exited. */
  kill: (name: string) => Promise<InstanceExit>;
  /** SIGTERM: resolves when the process has exited, with its code and how long after the signal. */
  terminate: (name: string) => Promise<InstanceExit>;
  /** Starts an instance that exited again (same port and environment); resolves once it is ready and in the proxy's rotation. */
  restart: (name: string) => Promise<ClusterInstance>;
  /** Stops every instance still running, the proxy and the S3 server, and drops the database. */
  stop: () => Promise<void>;
};

export type ClusterOptions = {
  /** A PostgreSQL server URL (any database on it): a new database is created there and dropped by `stop`. */
  serverUrl: string;
  instances?: number;
  /** Added to (or overriding) every instance's environment. */
  env?: Record<string, string>;
  /** Prefix of the database's name (issue 34's helpers name theirs after their branch). */
  databasePrefix?: string;
  /** How long an instance may take to answer /readyz 200. */
  readyTimeoutMs?: number;
  /** Each line an instance prints, with its name (default: kept, printed only by a caller that asks `output()`). */
  onOutput?: (instance: string, line: string) => void;
};

const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function waitForReady(instance: ClusterInstance, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!instance.running) throw new Error(`instance ${instance.name} exited before it was ready:\n${instance.output()}`);
    try {
      const res = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`instance ${instance.name} did not answer /readyz 200 within ${timeoutMs / 1000} s:\n${instance.output()}`);
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.instances ?? 2;
  const databaseName = `${options.databasePrefix ?? 'signage_cluster'}_${process.pid}_${Date.now().toString(36)}`;
  await onServer(options.serverUrl, `create database ${databaseName}`);
  const databaseUrl = new URL(options.serverUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2 });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signage-cluster-'));
  const children = new Map<string, ChildProcess>();
  /** When each instance was started, then signalled: its exit's `afterMs` counts from there. */
  const signalledAt = new Map<string, number>();
  let s3: TestS3Server | undefined;
  let proxy: TestProxy | undefined;

  const stop = async () => {
    await Promise.all([...children.values()].map((child) => stopChild(child)));
    await proxy?.close();
    await s3?.stop();
    await pool.end();
    rmSync(dataDir, { recursive: true, force: true });
    await onServer(options.serverUrl, `drop database if exists ${databaseName} with (force)`);
  };

  try {
    s3 = await startTestS3Server({ bucket: 'signage-cluster' });
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const names = ports.map((_, i) => String.fromCharCode(65 + i));
    proxy = await startTestProxy(names.map((name, i) => ({ name, url: `http://127.0.0.1:${ports[i]}` })));
    const admin = { email: 'admin@example.com', password: `Cluster-${secret(18)}`, clientSecret: secret(24) };
    // Every instance gets the same environment but PORT: the secrets, PUBLIC_URL and the storage must be equal.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PUBLIC_URL: proxy.url,
      NEXTAUTH_URL: undefined,
      NEXTAUTH_SECRET: undefined,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl.toString(),
      ...s3.env,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      AUTH_SECRET: secret(36).slice(0, 48),
      OAUTH_DEFAULT_CLIENT_SECRET: admin.clientSecret,
      OAUTH_SHORT_LIVED_CLIENT_SECRET: secret(24),
      // The proxy, as docs/deploying.md has it: its X-Forwarded-For names the client. Every screen of the test is on
      // this machine, so still one address for the registration limit.
      TRUSTED_PROXIES: '127.0.0.1',
      DEVICE_REGISTRATIONS_PER_HOUR: '100000',
      // As scripts/e2e.mjs: a dark screen turns OFFLINE after 25 s, and live ones beat every 10 s.
      DEVICE_HEARTBEAT_SECONDS: '10',
      LOG_LEVEL: process.env.CLUSTER_LOG_LEVEL ?? 'warn',
      ...options.env,
    };
    const spawnInstance = (name: string, port: number): ClusterInstance => {
      signalledAt.set(name, Date.now());
      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: root,
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.set(name, child);
      let output = '';
      const collect = (chunk: Buffer) => {
        const text = chunk.toString();
        // The last 64 kB are enough to say why an instance failed.
        output = (output + text).slice(-65_536);
        if (options.onOutput) for (const line of text.split('\n').filter(Boolean)) options.onOutput(name, line);
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      const exited = new Promise<InstanceExit>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal, afterMs: Date.now() - signalledAt.get(name)! })),
      );

      return {
        name,
        port,
        pid: child.pid!,
        url: `http://127.0.0.1:${port}`,
        get running() {
          return child.exitCode === null && child.signalCode === null;
        },
        output: () => output,
        exited,
      };
    };
    const instances = names.map((name, i) => spawnInstance(name, ports[i]!));
    await Promise.all(instances.map((instance) => waitForReady(instance, options.readyTimeoutMs ?? 180_000)));
    for (const name of names) await proxy.waitForRotation(name, true);

    const byName = (name: string) => {
      const found = instances.find((i) => i.name === name);
      if (!found) throw new Error(`no instance ${name}`);

      return found;
    };
    const signal = async (name: string, sig: NodeJS.Signals) => {
      const instance = byName(name);
      // `afterMs` of the exit counts from the signal.
      signalledAt.set(name, Date.now());
      children.get(name)!.kill(sig);

      return instance.exited;
    };

    return {
      url: proxy.url,
      databaseUrl: databaseUrl.toString(),
      proxy,
      instances,
      instance: byName,
      query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => (await pool.query<T>(text, values)).rows,
      admin,
      kill: (name) => signal(name, 'SIGKILL'),
      async restart(name) {
        const index = instances.findIndex((i) => i.name === name);
        if (index < 0) throw new Error(`no instance ${name}`);
        if (instances[index]!.running) throw new Error(`instance ${name} is still running`);
        const instance = spawnInstance(name, instances[index]!.port);
        instances[index] = instance;
        await waitForReady(instance, options.readyTimeoutMs ?? 180_000);
        await proxy!.waitForRotation(name, true);

        return instance;
      },
      terminate: (name) => signal(name, 'SIGTERM'),
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** SIGTERM, then SIGKILL after 20 s (beyond the 15 s a drain may take). */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
