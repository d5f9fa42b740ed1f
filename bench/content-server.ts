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
import { and, eq, inArray, isNull, not, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '@/server/db/client';
import { createLogger } from '@/server/logger';
import { playlistReferences, slideReferences } from '@/server/modules/content/content-data.rules';
import { PlaylistData, SlideData } from '@/server/modules/content/content-data.schemas';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { users } from '@/server/modules/users/users.table';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { baseline, benchTenant, benchUuid, driverTrace, hashPick, NAME_WORDS, NAME_WORDS_2, percentile, seededFileId, seedFiles, TAGS, textArray, type AppFetch } from './server-lib';

const BENCH_TENANT = 'Bench Content';
const FOLDER_WORDS = ['Campaigns', 'Stores', 'Brand', 'Events', 'Menus', 'Lobby', 'Seasonal', 'Archive', 'Regional', 'Partners'];
const TOP_FOLDERS = 10;

type ContentSeed = { contents: number; playlists: number; groups: number; references: number; seconds: number; topGroupIds: string[]; leafGroupId: string };

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
  process.stdout.write(`${JSON.stringify({ benchServer: 'content', port: config.port, driver: handle.driver, pid: process.pid, customerId, files, content })}\n`);
}

/**
 * Content folders 1..G of customer `c`: 1–10 under the root, the rest spread over those; items 1..N
 * round-robin over the folders (so each top folder holds a tenth of them). Every fifth item is portrait;
 * names are `<Word> <word> <n>` from 12 × 9 words (`name~sale` keeps about 1/12); 0–2 tags of 16.
 */
async function seedContent(handle: DatabaseHandle, adminEmail: string, c: number, wanted: { contents: number; groups: number; files: number }): Promise<ContentSeed | undefined> {
  if (!Number.isFinite(wanted.contents) || wanted.contents <= 0) return undefined;
  if (wanted.files < 200) throw new Error('content seeding needs at least 200 seeded files (BENCH_SEED_FILES)');
  const { db } = handle;
  const started = performance.now();
  const [admin] = await db.select().from(users).where(eq(users.email, adminEmail.toLowerCase())).limit(1);
  if (!admin) throw new Error(`the administrator ${adminEmail} does not exist`);
  const [root] = await db
    .select({ id: contentGroups.id })
    .from(contentGroups)
    .where(and(eq(contentGroups.customerId, c), isNull(contentGroups.parentId), not(contentGroups.isTemplateGroup)))
    .limit(1);
  if (!root) throw new Error(`customer ${c} has no root content folder`);
  const G = Math.max(TOP_FOLDERS + 1, Math.floor(wanted.groups));
  const N = Math.floor(wanted.contents);
  const F = wanted.files;
  const groupId = (n: unknown) => benchUuid(sql`'bench-group-' || ${c}::text || '-' || (${n})::text`);
  const parentOf = (n: unknown) => sql`1 + ((${n}) - ${TOP_FOLDERS + 1}) % ${TOP_FOLDERS}`;

  await db.execute(sql`insert into content_group (id, customer_id, parent_id, name, path)
    select ${groupId(sql`n`)}, ${c}::bigint,
      case when n <= ${TOP_FOLDERS} then ${root.id}::uuid else ${groupId(parentOf(sql`n`))} end,
      (${textArray(FOLDER_WORDS)})[1 + n % 10] || ' ' || n,
      case when n <= ${TOP_FOLDERS} then array[${root.id}::uuid, ${groupId(sql`n`)}]
        else array[${root.id}::uuid, ${groupId(parentOf(sql`n`))}, ${groupId(sql`n`)}] end
    from generate_series(1, ${G}::int) n`);

  const h = hashPick;
  const fileId = (n: unknown) => seededFileId(c, n);
  const batch = 10_000;
  for (let from = 1; from <= N; from += batch) {
    const to = Math.min(N, from + batch - 1);
    await db.execute(sql`insert into device_content (id, customer_id, device_content_type, structure_type, simple_loop_type, content_group_id, group_path,
        name, version, tags, data, created_date, last_saved, last_saved_by_id, last_saved_by_email, last_saved_by_name)
      select ${benchUuid(sql`'bench-content-' || ${c}::text || '-' || i::text`)}, ${c}::bigint,
        case when x.playlist then 'simpleLoop' else 'content' end,
        case when x.playlist then null else 'SLIDE' end,
        case when x.playlist then 'NORMAL' end,
        g.id, g.path, x.name,
        case when x.playlist then '2.0' else '1.0' end,
        case when ${h('e', 4)} = 0 then '{}'::text[]
          else array[(${textArray(TAGS)})[1 + ${h('t', 16)}]] || case when ${h('x', 3)} = 0 then array[(${textArray(TAGS)})[1 + (${h('t', 16)} + 1 + ${h('u', 15)}) % 16]] else '{}'::text[] end end,
        case when x.playlist then jsonb_build_object(
            'loopData', jsonb_build_object('resolution', jsonb_build_object('width', x.w, 'height', x.h), 'defaultImageFit', 'contain', 'defaultVideoFit', 'contain', 'defaultDurationMs', 10000),
            'slides', (select jsonb_agg(jsonb_build_object('key', 'item-' || k, 'type', 'FILE', 'id', ${fileId(sql`(i * 7 + k * 13) % ${F}::int + 1`)}, 'durationMs', 8000) order by k)
              from generate_series(1, 5 + i % 11) k))
          else jsonb_build_object('pages', jsonb_build_array(jsonb_build_object(
            'name', 'Default', 'tags', '[]'::jsonb, 'pageStyle', '{}'::jsonb,
            'pageData', jsonb_build_object('screenSize', jsonb_build_object('width', x.w, 'height', x.h)),
            'widgets', jsonb_build_array(
              jsonb_build_object('id', 'picture', 'type', 'image', 'x', 0, 'y', 0, 'width', x.w, 'height', x.h, 'zIndex', 1, 'fileId', ${fileId(sql`i % ${F}::int + 1`)}, 'fit', 'cover'),
              jsonb_build_object('id', 'title', 'type', 'text', 'x', 80, 'y', 60, 'width', 900, 'height', 160, 'zIndex', 2, 'text', x.name))))) end,
        now() - make_interval(mins => i), now() - make_interval(secs => i),
        ${admin.id}::uuid, ${admin.email}, ${admin.name}
      from generate_series(${from}::int, ${to}::int) i
      cross join lateral (select i % 10 < 3 as playlist,
        case when i % 5 = 0 then 1080 else 1920 end as w, case when i % 5 = 0 then 1920 else 1080 end as h,
        initcap((${textArray(NAME_WORDS)})[1 + ${h('n', 12)}]) || ' ' || (${textArray(NAME_WORDS_2)})[1 + ${h('m', 9)}] || ' ' || i as name) x
      join content_group g on g.id = ${groupId(sql`1 + (i - 1) % ${G}::int`)}`);
  }
  // The references the service derives from each document on write (content-data.rules.ts), here in SQL.
  await db.execute(sql`insert into content_reference (content_id, customer_id, target_type, target_id)
    select distinct d.id, d.customer_id, 'file', (e->>'id')::uuid
      from device_content d cross join lateral jsonb_array_elements(d.data->'slides') e
      where d.customer_id = ${c} and d.device_content_type = 'simpleLoop' and e->>'type' = 'FILE'
    union
    select distinct d.id, d.customer_id, 'file', (w->>'fileId')::uuid
      from device_content d cross join lateral jsonb_array_elements(d.data->'pages') p cross join lateral jsonb_array_elements(p->'widgets') w
      where d.customer_id = ${c} and d.device_content_type = 'content' and w->>'type' in ('image', 'video')`);
  await db.execute(sql`insert into tag (customer_id, tag_type, tag)
    select distinct ${c}::bigint, 'CONTENT', t from device_content cross join lateral unnest(tags) t where customer_id = ${c}
    on conflict do nothing`);

  const counted = (await db.execute(sql`select (select count(*) from device_content where customer_id = ${c})::int as contents,
      (select count(*) from device_content where customer_id = ${c} and device_content_type = 'simpleLoop')::int as playlists,
      (select count(*) from content_group where customer_id = ${c})::int as groups,
      (select count(*) from content_reference where customer_id = ${c})::int as refs`)) as unknown as { rows: { contents: number; playlists: number; groups: number; refs: number }[] };
  const got = counted.rows[0];
  // The tenant's root and Templates folders come with the customer.
  if (got?.contents !== N || got.groups !== G + 2) throw new Error(`seeding made ${JSON.stringify(got)}, expected ${N} items and ${G + 2} content folders`);
  await checkSample(handle, c);
  // VACUUM too: it merges the GIN indexes' pending lists (as autovacuum would soon after a bulk load), which ANALYZE leaves.
  for (const table of ['device_content', 'content_reference', 'content_group', 'tag']) await db.execute(sql.raw(`vacuum analyze ${table}`));
  const tops = await db.execute(sql`select ${groupId(sql`n`)}::text as id from generate_series(1, ${TOP_FOLDERS}) n order by n`);

  return {
    contents: N,
    playlists: got.playlists,
    groups: G,
    references: got.refs,
    seconds: (performance.now() - started) / 1000,
    topGroupIds: (tops as unknown as { rows: { id: string }[] }).rows.map((r) => r.id),
    leafGroupId: (await db.execute(sql`select ${groupId(G)}::text as id`) as unknown as { rows: { id: string }[] }).rows[0]!.id,
  };
}

/** Every 97th item is parsed with the content schemas and its reference rows compared with what the service would derive. */
async function checkSample(handle: DatabaseHandle, c: number): Promise<void> {
  const { db } = handle;
  const sample = await db
    .select({ id: deviceContents.id, type: deviceContents.deviceContentType, data: deviceContents.data })
    .from(deviceContents)
    .where(and(eq(deviceContents.customerId, c), sql`hashtext(${deviceContents.id}::text) % 97 = 0`))
    .limit(200);
  if (!sample.some((s) => s.type === 'simpleLoop') || !sample.some((s) => s.type === 'content')) throw new Error('the seeded sample lacks a kind');
  const refs = await db
    .select({ contentId: contentReferences.contentId, targetId: contentReferences.targetId })
    .from(contentReferences)
    .where(inArray(contentReferences.contentId, sample.map((s) => s.id)));
  for (const item of sample) {
    const parsed = item.type === 'simpleLoop' ? PlaylistData.safeParse(item.data) : SlideData.safeParse(item.data);
    if (!parsed.success) throw new Error(`seeded ${item.type} ${item.id} is not a valid document: ${parsed.error.message}`);
    const derived = item.type === 'simpleLoop' ? playlistReferences(parsed.data as PlaylistData) : slideReferences(parsed.data as SlideData, 'SLIDE');
    const expected = [...new Set(derived.files.map((r) => r.id))].sort().join();
    const stored = refs.filter((r) => r.contentId === item.id).map((r) => r.targetId).sort().join();
    if (expected !== stored || derived.fileFolders.length + derived.contents.length > 0) throw new Error(`seeded ${item.id}: references ${stored} differ from its document's ${expected}`);
  }
}

type PlaylistSaveInput = { id: string; customerId: number; authorization: string; name: string; documents: unknown[]; runs?: number; warm?: number; detail?: boolean };

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
  const stored = (await handle.db.select({ n: sql<number>`count(*)::int` }).from(contentReferences).where(eq(contentReferences.contentId, input.id)))[0]?.n;

  return { runs, bodyBytes: Buffer.byteLength(JSON.stringify({ name: input.name, data: docs[0] })), references: stored, raw, validation, appInProcess: app, trace };
}

main().catch((err) => {
  process.stderr.write(`bench content server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
