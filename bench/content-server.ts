/**
 * Benchmark server for content (slides, interactive content, playlists): the production Hono app
 * (`createApp`) on a bare `@hono/node-server` `serve()`, like bench/media-server.ts, plus what only the
 * process that owns the database can do (PGlite is single-process):
 *
 *   - seeding, with set-based SQL (generate_series) then VACUUM ANALYZE: BENCH_SEED_FILES files (the media
 *     benchmark's seeding) and, in the first administrator's "Bench Content" tenant, BENCH_SEED_GROUPS
 *     content folders (10 under the root, the rest under those) holding BENCH_SEED_CONTENT items: three in
 *     ten playlists of 5–15 file items, the rest one-page slides with a text and an image widget. Rows are
 *     what the API writes: documents valid against the `data` schemas (a sample is parsed to check),
 *     `content_reference` rows derived from the documents, tags registered, `lastSavedBy` set;
 *   - `POST /__bench/baseline` `{path, authorization, runs, table}`: the GET baseline of bench/server-lib.ts
 *     (the request's statements on `table` run directly on the driver, plus `JSON.stringify`);
 *   - `POST /__bench/playlist` `{id, customerId, authorization, name, documents, runs}`: the save of a playlist
 *     timed three ways in-process — the raw write (one transaction: the document, then its file references
 *     deleted and inserted, as the service does), the `data` schema's parse of the body, and the same
 *     `PUT /api/simpleLoop/{id}` through `app.fetch` — alternating between the given documents.
 *
 * Started by scripts/bench-content.mjs with `node --import tsx bench/content-server.ts`; prints one JSON
 * line (`{"benchServer":"content",...}`) when ready. Listens on 127.0.0.1 only; never part of the product.
 */
import { eq, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '@/server/db/client';
import { createLogger } from '@/server/logger';
import { PlaylistData } from '@/server/modules/content/content-data.schemas';
import { contentReferences } from '@/server/modules/content/content.table';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { baseline, benchTenant, driverTrace, percentile, seedContent, seedFiles, type AppFetch } from './server-lib';

const BENCH_TENANT = 'Bench Content';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, prepare, setReady } = await createService(config, log);

  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === '/__bench/baseline' && request.method === 'POST') {
      const body = (await request.json()) as { path: string; authorization: string; runs?: number; table?: string };
      return Response.json(await baseline(handle, app.fetch, body));
    }
    if (url.pathname === '/__bench/playlist' && request.method === 'POST') {
      return Response.json(await playlistSave(handle, app.fetch, (await request.json()) as PlaylistSaveInput));
    }
    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady });

  await prepare();
  const customerId = await benchTenant(handle, BENCH_TENANT);
  const files = await seedFiles(handle, config.admin.email, customerId, {
    files: Number(process.env.BENCH_SEED_FILES ?? 0),
    folders: Number(process.env.BENCH_SEED_FOLDERS ?? 100),
  });
  const content = await seedContent(handle, config.admin.email, customerId, {
    contents: Number(process.env.BENCH_SEED_CONTENT ?? 0),
    groups: Number(process.env.BENCH_SEED_GROUPS ?? 500),
    files: files?.files ?? 0,
  });
  setReady(true);
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'content', port: config.port, driver: handle.driver, pid: process.pid, customerId, files, content })}\n`,
  );
}

type PlaylistSaveInput = {
  id: string;
  customerId: number;
  authorization: string;
  name: string;
  documents: unknown[];
  runs?: number;
  warm?: number;
  detail?: boolean;
};

/**
 * The save of playlist `id` three ways, `runs` times each after `warm` unmeasured (10), alternating `documents`:
 *   - raw write: in one transaction, the document (`JSON.stringify`, then `update … set data`), the file
 *     references deleted and inserted (one `unnest` insert), as the service's write does;
 *   - the `data` schema's parse of the document (what validation costs, part of the API's save);
 *   - the API's `PUT /api/simpleLoop/{id}` through `app.fetch` (no socket), with one driver trace.
 */
async function playlistSave(handle: DatabaseHandle, fetch: AppFetch, input: PlaylistSaveInput) {
  const runs = Math.max(1, Math.floor(input.runs ?? 100));
  const warm = Math.max(0, Math.floor(input.warm ?? Math.min(10, runs)));
  const docs = input.documents;
  const fileIdsOf = (doc: unknown) => [...new Set((doc as PlaylistData).slides.filter((s) => s.type === 'FILE').map((s) => s.id))];
  // A uuid[] literal: both drivers take it as a text parameter.
  const ids = docs.map((doc) => `{${fileIdsOf(doc).join(',')}}`);
  const write = async (n: number) => {
    const doc = docs[n % docs.length];
    const t0 = performance.now();
    const text = JSON.stringify(doc);
    const statements = [
      {
        sql: 'update device_content set name = $1, data = $2::jsonb, last_saved = now() where id = $3 and customer_id = $4',
        params: [input.name, text, input.id, input.customerId],
      },
      { sql: 'delete from content_reference where content_id = $1', params: [input.id] },
      {
        sql: "insert into content_reference (content_id, customer_id, target_type, target_id) select $1::uuid, $2::bigint, 'file', unnest($3::uuid[])",
        params: [input.id, input.customerId, ids[n % docs.length]],
      },
    ];
    if (handle.pglite) {
      await handle.pglite.transaction(async (tx) => {
        for (const s of statements) await tx.query(s.sql, s.params);
      });
    } else if (handle.pool) {
      const client = await handle.pool.connect();
      try {
        await client.query('begin');
        for (const s of statements) await client.query(s.sql, s.params);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      } finally {
        client.release();
      }
    }
    return performance.now() - t0;
  };
  const parse = (n: number) => {
    const t0 = performance.now();
    const r = PlaylistData.safeParse(docs[n % docs.length]);
    if (!r.success) throw new Error(`document ${n % docs.length} is invalid: ${r.error.message}`);
    return performance.now() - t0;
  };
  const put = async (n: number) => {
    const t0 = performance.now();
    const res = await fetch(
      new Request(`http://127.0.0.1/api/simpleLoop/${input.id}`, {
        method: 'PUT',
        headers: { authorization: input.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: input.name, data: docs[n % docs.length] }),
      }),
    );
    const text = await res.text();
    if (res.status !== 200) throw new Error(`PUT /api/simpleLoop/${input.id} in-process answered ${res.status}: ${text.slice(0, 500)}`);
    return performance.now() - t0;
  };
  const measure = async (fn: (n: number) => number | Promise<number>) => {
    for (let i = 0; i < warm; i++) await fn(i);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await fn(i));
    return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), samples: times };
  };
  const raw = await measure(write);
  const validation = await measure(parse);
  const app = await measure(put);
  const trace = input.detail === false ? undefined : await driverTrace(handle, () => put(0));
  // The reference rows after the last save (the API's own): the script checks them against the document.
  const stored = (
    await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contentReferences)
      .where(eq(contentReferences.contentId, input.id))
  )[0]?.n;

  return {
    runs,
    bodyBytes: Buffer.byteLength(JSON.stringify({ name: input.name, data: docs[0] })),
    references: stored,
    raw,
    validation,
    appInProcess: app,
    trace,
  };
}

main().catch((err) => {
  process.stderr.write(`bench content server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
