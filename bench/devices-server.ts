/**
 * Benchmark server for the device WebSocket: the production service (`createService`: the Hono app and its
 * `upgrade` listener, so `GET /api/display/ws` is the product's endpoint with its ping round, LISTEN/NOTIFY
 * feed and sessions) on a bare `@hono/node-server`, like the other benchmark servers, plus what only the
 * process that owns the database can do (PGlite is single-process):
 *
 *   - seeding, with set-based SQL at start: BENCH_SEED_DEVICES devices of the "Bench Devices" tenant in its
 *     root device folder (claimed: customer, folder, name; never connected, OFFLINE; heartbeat 60 s), device
 *     `i` with an access token `<BENCH_TOKEN_SEED>-<i>` stored as `hashToken` stores it (SHA-256, base64url),
 *     valid two hours. Devices 1–100 carry the tag `hundred` (the small fan-out's search). Registering
 *     through the API instead would meet the per-address registration limit (30 an hour);
 *   - `GET /__bench/memory`: `process.memoryUsage()`;
 *   - `POST /__bench/acked` `{since, name}`: how many `name` commands issued since `since` (epoch ms) exist and
 *     are acknowledged, and the last acknowledgement's time;
 *   - `POST /__bench/silence` `{devices: [i…], seconds}`: sets those devices' `last_seen` `seconds` back
 *     (as if they had stopped heartbeating that long ago);
 *   - `POST /__bench/sweep`: one pass of the offline sweep (devices.jobs.ts `sweepOfflineDevices`), timed;
 *   - `GET /__bench/status`: the tenant's devices by status;
 *   - `POST /__bench/trace` `{ms}`: every statement the driver ran during the next `ms` (bench/server-lib.ts
 *     `driverTrace`), grouped by text with their count.
 *
 * No job queue runs (the sweep runs only when asked). Started by scripts/bench-devices.mjs with
 * `node --import tsx bench/devices-server.ts`; prints one JSON line (`{"benchServer":"devices",...}`) when
 * ready. Listens on 127.0.0.1 only; never part of the product.
 */
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { execRows } from '@/server/db/sql';
import { createLogger } from '@/server/logger';
import { sweepOfflineDevices } from '@/server/modules/devices/devices.jobs';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { benchTenant, driverTrace, seededDeviceId, seedDevices } from './server-lib';

const BENCH_TENANT = 'Bench Devices';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, upgrade, prepare, setReady } = await createService(config, log);
  let customerId = 0;

  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === '/__bench/memory') return Response.json(process.memoryUsage());
    if (url.pathname === '/__bench/status') {
      const rows = await execRows<{ status: string; n: number }>(
        handle.db,
        sql`select device_status as status, count(*)::int as n from device where customer_id = ${customerId} group by 1`,
      );
      return Response.json(Object.fromEntries(rows.map((r) => [r.status, r.n])));
    }
    if (url.pathname === '/__bench/acked' && request.method === 'POST') {
      const body = (await request.json()) as { since: number; name: string };
      const [row] = await execRows<{
        total: number;
        acked: number;
        last_ack: string | number | null;
        first_issued: string | number | null;
      }>(
        handle.db,
        sql`select count(*)::int as total, count(acknowledged_at)::int as acked,
            (extract(epoch from max(acknowledged_at)) * 1000)::float8 as last_ack,
            (extract(epoch from min(issued_at)) * 1000)::float8 as first_issued
          from device_command where customer_id = ${customerId} and name = ${body.name}
            and issued_at >= to_timestamp(${body.since / 1000}::float8)`,
      );
      return Response.json({
        total: row!.total,
        acked: row!.acked,
        lastAck: row!.last_ack === null ? null : Number(row!.last_ack),
        firstIssued: row!.first_issued === null ? null : Number(row!.first_issued),
      });
    }
    if (url.pathname === '/__bench/silence' && request.method === 'POST') {
      const body = (await request.json()) as { devices: number[]; seconds: number };
      const rows = await execRows<{ n: number }>(
        handle.db,
        sql`with t as (update device set last_seen = now() - make_interval(secs => ${body.seconds}::int)
            where id in (select ${seededDeviceId(sql`i`)} from unnest(${`{${body.devices.join(',')}}`}::int[]) i) returning 1)
          select count(*)::int as n from t`,
      );
      return Response.json({ updated: rows[0]!.n });
    }
    if (url.pathname === '/__bench/sweep' && request.method === 'POST') {
      const t0 = performance.now();
      const offline = await sweepOfflineDevices(handle.db, new Date(), log);
      return Response.json({ offline, ms: performance.now() - t0 });
    }
    if (url.pathname === '/__bench/trace' && request.method === 'POST') {
      const body = (await request.json()) as { ms: number };
      const trace = await driverTrace(handle, () => new Promise((resolve) => setTimeout(resolve, body.ms)));
      const byText = new Map<string, { sql: string; count: number; ms: number }>();
      for (const s of trace?.statements ?? []) {
        const key = s.sql.replace(/\s+/g, ' ').trim();
        const entry = byText.get(key) ?? { sql: key, count: 0, ms: 0 };
        entry.count++;
        entry.ms += s.ms;
        byText.set(key, entry);
      }
      return Response.json({ statements: trace?.statements.length ?? 0, kinds: [...byText.values()].sort((a, b) => b.count - a.count) });
    }
    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady, upgrade });

  await prepare();
  customerId = await benchTenant(handle, BENCH_TENANT);
  const seed = await seedDevices(handle, customerId, {
    devices: Number(process.env.BENCH_SEED_DEVICES ?? 0),
    tokenSeed: process.env.BENCH_TOKEN_SEED ?? '',
  });
  setReady(true);
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'devices', port: config.port, driver: handle.driver, pid: process.pid, customerId, seed, pingSeconds: config.devicePingSeconds })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench devices server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
