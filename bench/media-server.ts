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
 * Started by scripts/bench-media.mjs with `node --import tsx bench/media-server.ts`; prints one JSON
 * line (`{"benchServer":"media",...}`) when ready. Listens on 127.0.0.1 only; never part of the product.
 */
import { eq, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '@/server/db/client';
import { createLogger } from '@/server/logger';
import { insertInitialFolders } from '@/server/modules/customers/customers.queries';
import { customers } from '@/server/modules/customers/customers.table';
import { users } from '@/server/modules/users/users.table';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';

const BENCH_TENANT = 'Bench Media';

type Statement = { sql: string; params: unknown[] };
type SeedResult = { customerId: number; files: number; folders: number; seconds: number; level1FolderIds: string[] };

const FOLDER_WORDS = ['Campaigns', 'Stores', 'Brand', 'Events', 'Menus', 'Lobby', 'Seasonal', 'Archive', 'Regional', 'Partners'];
// Names are `<word>-<word>-<n>.<ext>`, words picked by hash: `name:sale` keeps about 1/12, `tags:promo` about 1/16.
const NAME_WORDS = ['summer', 'winter', 'promo', 'menu', 'logo', 'banner', 'lobby', 'intro', 'sale', 'event', 'news', 'weather'];
const NAME_WORDS_2 = ['final', 'v2', 'hd', 'portrait', 'landscape', 'draft', 'approved', 'loop', 'teaser'];
const TAGS = ['promo', 'menu', 'brand', 'seasonal', 'lobby', 'outdoor', 'video', 'still', 'retail', 'hq', 'north', 'south', 'east', 'west', 'kids', 'sport'];

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
  const customerId = await benchTenant(handle);
  const seed = await seedFiles(handle, config.admin.email, customerId, {
    files: Number(process.env.BENCH_SEED_FILES ?? 0),
    folders: Number(process.env.BENCH_SEED_FOLDERS ?? 1000),
  });
  setReady(true);
  process.stdout.write(`${JSON.stringify({ benchServer: 'media', port: config.port, driver: handle.driver, pid: process.pid, customerId, seed })}\n`);
}

/** The benchmark's tenant, created like any customer (with its root folders); the administrator reaches it via `customerId`. */
async function benchTenant(handle: DatabaseHandle): Promise<number> {
  const [found] = await handle.db.select({ id: customers.id }).from(customers).where(eq(customers.name, BENCH_TENANT)).limit(1);
  if (found) return found.id;
  const [row] = await handle.db.insert(customers).values({ name: BENCH_TENANT }).returning({ id: customers.id });
  await insertInitialFolders(handle.db, row!.id);

  return row!.id;
}

/**
 * Folders 1..F of the admin's customer: 1–10 under the root, 11–100 under those, the rest under
 * 11–100 (ids md5-derived, so the files' join finds their folder's path). Files 1..N are spread
 * round-robin over the folders; names, types, sizes and tags vary with the file number.
 */
async function seedFiles(handle: DatabaseHandle, adminEmail: string, c: number, wanted: { files: number; folders: number }): Promise<SeedResult | undefined> {
  if (!Number.isFinite(wanted.files) || wanted.files <= 0) return undefined;
  const { db } = handle;
  const started = performance.now();
  const [admin] = await db.select().from(users).where(eq(users.email, adminEmail.toLowerCase())).limit(1);
  if (!admin) throw new Error(`the administrator ${adminEmail} does not exist`);
  const F = Math.max(100, Math.floor(wanted.folders));
  const N = Math.floor(wanted.files);
  const folderId = (n: unknown) => sql`md5('bench-folder-' || ${c}::text || '-' || (${n})::text)::uuid`;
  const arr = (values: readonly string[]) => sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

  await db.execute(sql`insert into file_folder (id, customer_id, parent_id, name, path)
    select ${folderId(sql`n`)}, ${c}::bigint,
      case when n <= 10 then root.id when n <= 100 then ${folderId(sql`1 + (n - 11) % 10`)} else ${folderId(sql`11 + (n - 101) % 90`)} end,
      (${arr(FOLDER_WORDS)})[1 + n % 10] || ' ' || n,
      case when n <= 10 then array[root.id, ${folderId(sql`n`)}]
        when n <= 100 then array[root.id, ${folderId(sql`1 + (n - 11) % 10`)}, ${folderId(sql`n`)}]
        else array[root.id, ${folderId(sql`1 + ((n - 101) % 90) % 10`)}, ${folderId(sql`11 + (n - 101) % 90`)}, ${folderId(sql`n`)}] end
    from generate_series(1, ${F}::int) n,
      (select id from file_folder where customer_id = ${c} and parent_id is null limit 1) root`);

  // Independent pseudo-random picks per file: hashtext of a salted file number, mapped to 0..k-1.
  const h = (salt: string, k: number) => sql.raw(`((hashtext('${salt}' || i::text)::bigint + 2147483648) % ${k})`);
  const batch = 25_000;
  for (let from = 1; from <= N; from += batch) {
    const to = Math.min(N, from + batch - 1);
    await db.execute(sql`insert into file (id, customer_id, file_folder_id, folder_path, name, content_type, size, crc_check_sum,
        width, height, created_date, creator_id, creator_email, creator_name, tags)
      select md5('bench-file-' || ${c}::text || '-' || i::text)::uuid, ${c}::bigint, f.id, f.path,
        (${arr(NAME_WORDS)})[1 + ${h('n', 12)}] || '-' || (${arr(NAME_WORDS_2)})[1 + ${h('m', 9)}] || '-' || i || (array['.jpg', '.png', '.mp4', '.pdf'])[1 + i % 4],
        (array['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'])[1 + i % 4],
        10000 + ${h('s', 50_000_000)},
        lpad(to_hex(i), 8, '0'),
        case when i % 4 < 3 then 1920 end, case when i % 4 < 3 then 1080 end,
        now() - make_interval(mins => i),
        ${admin.id}::uuid, ${admin.email}, ${admin.name},
        case when ${h('e', 4)} = 0 then '{}'::text[]
          else array[(${arr(TAGS)})[1 + ${h('t', 16)}]] || case when ${h('x', 3)} = 0 then array[(${arr(TAGS)})[1 + (${h('t', 16)} + 1 + ${h('u', 15)}) % 16]] else '{}'::text[] end end
      from generate_series(${from}::int, ${to}::int) i
      join file_folder f on f.id = ${folderId(sql`1 + (i - 1) % ${F}::int`)}`);
  }
  const counted = (await db.execute(sql`select (select count(*) from file where customer_id = ${c})::int as files,
      (select count(*) from file_folder where customer_id = ${c})::int as folders`)) as unknown as { rows: { files: number; folders: number }[] };
  const got = counted.rows[0];
  if (got?.files !== N || got.folders !== F + 1) throw new Error(`seeding made ${JSON.stringify(got)}, expected ${N} files and ${F + 1} folders`);
  await db
    .update(customers)
    .set({ usedStorageSize: sql`${customers.usedStorageSize} + (select coalesce(sum(size), 0) from file where customer_id = ${c})` })
    .where(eq(customers.id, c));
  await db.execute(sql`analyze file`);
  await db.execute(sql`analyze file_folder`);
  const level1 = await db.execute(sql`select ${folderId(sql`n`)}::text as id from generate_series(1, 10) n order by n`);

  return {
    customerId: c,
    files: N,
    folders: F,
    seconds: (performance.now() - started) / 1000,
    level1FolderIds: (level1 as unknown as { rows: { id: string }[] }).rows.map((r) => r.id),
  };
}

type DrizzleLogger = { logQuery: (query: string, params: unknown[]) => void };
type SessionWithLogger = { logger: DrizzleLogger; options?: { logger?: DrizzleLogger } };

/** Runs `path` once in-process and answers the statements drizzle sent meanwhile. */
async function captureStatements(handle: DatabaseHandle, fetch: (r: Request) => Response | Promise<Response>, path: string, authorization: string) {
  const session = (handle.db as unknown as { session: SessionWithLogger }).session;
  const captured: Statement[] = [];
  const logger: DrizzleLogger = { logQuery: (query, params) => captured.push({ sql: query, params: [...params] }) };
  const previous = session.logger;
  const previousOption = session.options?.logger;
  session.logger = logger;
  if (session.options) session.options.logger = logger;
  let status: number;
  let bytes: number;
  try {
    const res = await fetch(new Request(`http://127.0.0.1${path}`, { headers: { authorization } }));
    status = res.status;
    bytes = Buffer.byteLength(await res.text());
  } finally {
    session.logger = previous;
    if (session.options) session.options.logger = previousOption;
  }

  return { captured, status, bytes };
}

async function rawQuery(handle: DatabaseHandle, statement: Statement): Promise<Record<string, unknown>[]> {
  if (handle.pglite) return (await handle.pglite.query<Record<string, unknown>>(statement.sql, statement.params)).rows;
  if (handle.pool) return (await handle.pool.query(statement.sql, statement.params)).rows as Record<string, unknown>[];
  throw new Error('no raw driver');
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

type Query = (text: string, params?: unknown[], options?: unknown) => Promise<unknown>;

/**
 * Every statement the driver ran during `fn` (prepared ones included, which drizzle's logger misses),
 * with its time: where an API request spends its time beyond the list statement.
 */
async function driverTrace(handle: DatabaseHandle, fn: () => Promise<unknown>) {
  const target = (handle.pglite ?? handle.pool) as unknown as { query: Query } | undefined;
  if (!target) return undefined;
  const original = target.query;
  const statements: { sql: string; ms: number }[] = [];
  target.query = async function traced(this: unknown, text: string | { text: string }, ...rest: unknown[]) {
    const t0 = performance.now();
    try {
      return await (original as (...args: unknown[]) => Promise<unknown>).call(this, text, ...rest);
    } finally {
      const query = typeof text === 'string' ? text : text.text;
      statements.push({ sql: query.replace(/\s+/g, ' ').slice(0, 120), ms: performance.now() - t0 });
    }
  } as Query;
  const t0 = performance.now();
  try {
    await fn();
  } finally {
    target.query = original;
  }
  const total = performance.now() - t0;

  return { total, inDriver: statements.reduce((n, q) => n + q.ms, 0), statements };
}

async function baseline(
  handle: DatabaseHandle,
  fetch: (r: Request) => Response | Promise<Response>,
  input: { path: string; authorization: string; runs?: number },
) {
  const runs = Math.max(1, Math.floor(input.runs ?? 200));
  const { captured, status, bytes } = await captureStatements(handle, fetch, input.path, input.authorization);
  // The list statements: those reading the `file` table (token and user look-ups are the auth layer's).
  const statements = captured.filter((s) => /\bfrom "file"/.test(s.sql));
  if (statements.length === 0) return { status, bytes, error: 'no statement on "file" was captured', captured: captured.map((s) => s.sql) };

  const once = async () => {
    const t0 = performance.now();
    const results: Record<string, unknown>[][] = [];
    for (const s of statements) results.push(await rawQuery(handle, s));
    const t1 = performance.now();
    const json = JSON.stringify(results.length === 1 ? results[0] : results);
    const t2 = performance.now();
    return { query: t1 - t0, serialise: t2 - t1, total: t2 - t0, rows: results.reduce((n, r) => n + r.length, 0), jsonBytes: json.length };
  };
  const inProcess = async () => {
    const t0 = performance.now();
    const res = await fetch(new Request(`http://127.0.0.1${input.path}`, { headers: { authorization: input.authorization } }));
    await res.text();
    return performance.now() - t0;
  };
  for (let i = 0; i < Math.min(20, runs); i++) await once();
  const samples: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  for (let i = 0; i < Math.min(20, runs); i++) await inProcess();
  const app: number[] = [];
  for (let i = 0; i < runs; i++) app.push(await inProcess());

  const trace = await driverTrace(handle, () => inProcess());
  const plans: string[] = [];
  for (const s of statements) {
    const rows = await rawQuery(handle, { sql: `explain (analyze, buffers, costs off) ${s.sql}`, params: s.params });
    plans.push(rows.map((r) => String(Object.values(r)[0])).join('\n'));
  }
  const pick = (k: 'query' | 'serialise' | 'total') => samples.map((s) => s[k]);

  return {
    status,
    bytes,
    runs,
    statements: statements.map((s) => ({ sql: s.sql, params: s.params })),
    otherStatements: captured.length - statements.length,
    rows: samples[0]?.rows,
    jsonBytes: samples[0]?.jsonBytes,
    p50: { query: percentile(pick('query'), 50), serialise: percentile(pick('serialise'), 50), total: percentile(pick('total'), 50) },
    p99: { total: percentile(pick('total'), 99) },
    appInProcess: { p50: percentile(app, 50), p99: percentile(app, 99) },
    trace,
    plans,
  };
}

main().catch((err) => {
  process.stderr.write(`bench media server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
