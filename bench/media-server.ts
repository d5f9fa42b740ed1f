/**
 * Benchmark server for the media library: the production Hono app (`createApp`) on a bare
 * `@hono/node-server` `serve()`, like bench/hono-server.ts, plus two things only a process that owns
 * the database can do (PGlite is single-process):
 *
 *   - seeding: BENCH_SEED_FILES files in BENCH_SEED_FOLDERS folders (three levels) of the first
 *     administrator's customer, with set-based SQL (generate_series), then ANALYZE;
 *   - `POST /__bench/baseline` `{path, authorization, runs}`: runs `path` once through the app
 *     in-process with drizzle's logger capturing the statements it sends, then times the statements
 *     on `file` directly on the driver (PGlite `query` / node-postgres `pool.query`) plus
 *     `JSON.stringify` of the rows, N sequential runs; answers the timings, the SQL and EXPLAIN ANALYZE.
 *
 * Both come from bench/server-lib.ts, which bench/content-server.ts shares.
 *
 * Started by scripts/bench-media.mjs with `node --import tsx bench/media-server.ts`; prints one JSON
 * line (`{"benchServer":"media",...}`) when ready. Listens on 127.0.0.1 only; never part of the product.
 */
import { createLogger } from '@/server/logger';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { baseline, benchTenant, seedFiles } from './server-lib';

const BENCH_TENANT = 'Bench Media';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, prepare, setReady } = await createService(config, log);

  // `env` carries @hono/node-server's raw request and response (streamed uploads use them).
  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === '/__bench/baseline' && request.method === 'POST') {
      const body = (await request.json()) as { path: string; authorization: string; runs?: number };
      return Response.json(await baseline(handle, app.fetch, body));
    }
    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady });

  await prepare();
  const customerId = await benchTenant(handle, BENCH_TENANT);
  const seed = await seedFiles(handle, config.admin.email, customerId, {
    files: Number(process.env.BENCH_SEED_FILES ?? 0),
    folders: Number(process.env.BENCH_SEED_FOLDERS ?? 1000),
  });
  setReady(true);
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'media', port: config.port, driver: handle.driver, pid: process.pid, customerId, seed })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench media server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
