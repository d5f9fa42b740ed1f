/**
 * Benchmark server: the same Hono app as production (`createApp`) on a bare `@hono/node-server`
 * `serve()`, without Next.js and without the job queue. Started by scripts/bench.mjs with
 * `node --import tsx bench/hono-server.ts`.
 *
 * Environment: the production variables (PORT, HOST, DATA_DIR or DATABASE_URL, ADMIN_EMAIL,
 * ADMIN_PASSWORD, AUTH_SECRET, OAUTH_*_SECRET, LOG_LEVEL) plus
 *   BENCH_SEED_USERS  number of extra users to make sure exist (for the list benchmark), default 0.
 *
 * Start-up mirrors server/main.ts: resolveStartupConfig → openDatabase → createApp → listen →
 * runMigrations → ensureFirstAdmin → ready. GET /readyz answers 200 once everything is done.
 */
import { randomBytes } from 'node:crypto';
import { eq, like, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '@/server/db/client';
import { createLogger } from '@/server/logger';
import { users } from '@/server/modules/users/users.table';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';

const SEED_EMAIL_PREFIX = 'bench-user-';
const SEED_ROLES = ['ADMIN', 'EDITOR', 'VIEWER', 'DEVICE_USER'] as const;

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, prepare, setReady } = await createService(config, log);

  await serveForBenchmark({ config, handle, fetch: app.fetch, setReady });

  await prepare();
  const seeded = await seedUsers(handle.db, config.admin.email, Number(process.env.BENCH_SEED_USERS ?? 0));
  setReady(true);
  process.stdout.write(`${JSON.stringify({ benchServer: 'hono', port: config.port, driver: handle.driver, seeded })}\n`);
}

/**
 * Makes sure `count` users named `bench-user-*` exist in the first administrator's customer:
 * a third of them called "Acme …" (so the benchmark search matches some), roles rotating over
 * ADMIN/EDITOR/VIEWER/DEVICE_USER. They share the admin's password hash (no 200 argon2 runs).
 */
async function seedUsers(db: Database, adminEmail: string, count: number): Promise<number> {
  if (!Number.isFinite(count) || count <= 0) return 0;
  const [admin] = await db.select().from(users).where(eq(users.email, adminEmail.toLowerCase())).limit(1);
  if (!admin) throw new Error(`the administrator ${adminEmail} does not exist`);
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(like(users.email, `${SEED_EMAIL_PREFIX}%`));
  const missing = count - n;
  if (missing <= 0) return n;
  const rows = Array.from({ length: missing }, (_, k) => {
    const i = n + k;
    const tag = randomBytes(3).toString('hex');
    const acme = i % 3 === 0;

    return {
      id: uuidv7(),
      customerId: admin.customerId,
      email: `${SEED_EMAIL_PREFIX}${i}-${tag}@${acme ? 'acme.example' : 'example.com'}`,
      name: acme ? `Acme Person ${i}` : `Person ${i}`,
      role: SEED_ROLES[i % SEED_ROLES.length]!,
      passwordHash: admin.passwordHash,
    };
  });
  for (let i = 0; i < rows.length; i += 100) await db.insert(users).values(rows.slice(i, i + 100));

  return count;
}

main().catch((err) => {
  process.stderr.write(`bench hono server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
