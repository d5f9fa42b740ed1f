/**
 * Benchmark server for channels and schedules (campaigns) at scale: the production service (`createService`:
 * the Hono app and its device WebSocket, as bench/devices-server.ts) on a bare `@hono/node-server`, plus what
 * only the process that owns the database can do (PGlite is single-process):
 *
 *   - seeding at start, set-based (generate_series), in the "Bench Channels" tenant: BENCH_SEED_FILES files in
 *     100 file folders and BENCH_SEED_CONTENT content items in 50 content folders (bench/server-lib.ts, as the
 *     media and content benchmarks seed them); BENCH_CHANNELS_FOLDERS device folders (10 under the root, 90
 *     under those, the rest under the 90); BENCH_CHANNELS_DEVICES devices round-robin over the folders, 0–2 tags
 *     of 16, time zones of five kinds (UTC, Berlin, New York, Tokyo, Sydney), device `i` with the access token
 *     `<BENCH_TOKEN_SEED>-<i>`. A second tenant, "Bench Channels Empty", holds one device (token
 *     `<BENCH_TOKEN_SEED>-empty-1`) and no campaign: the manifest baseline;
 *   - `POST /__bench/campaigns` `{authorization, count}`: ten templates created through `POST /api/campaign` in
 *     process (five kinds — CONTENT, CONTENT_DYNAMIC, ASSETS_STATIC, ASSETS_DYNAMIC channels and a TOP
 *     schedule — each plain and with time rules: affectedHours, affectedDays, affectedDateRanges), then `count`
 *     campaigns cloned from them in SQL (their columns are the API's own) with assignment rows as the API
 *     writes them and varied targeting, then the templates deleted through `DELETE /api/campaign/{id}`;
 *   - `POST /__bench/resolve` `{devices: [i…], validate?}`: the manifest resolution of each device timed in
 *     parts in process (the device's row, the loader `loadPlayback` (facts and rules side by side), the pure
 *     resolver, the content closure and its files), with the first device's `GET /api/display/manifest`
 *     through `app.fetch` parsed with the manifest schema when `validate`;
 *   - `POST /__bench/baseline` `{path, authorization, runs, table}`: the GET baseline of bench/server-lib.ts.
 *
 * Started by scripts/bench-channels.mjs with `node --import tsx bench/channels-server.ts`; prints one JSON
 * line (`{"benchServer":"channels",...}`) when ready. Listens on 127.0.0.1 only; never part of the product.
 */
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '@/server/db/client';
import { execRows, uuidEquals } from '@/server/db/sql';
import { createLogger } from '@/server/logger';
import { ManifestSchema } from '@/server/modules/display/display.schemas';
import { manifestPeriod, readManifestGraph } from '@/server/modules/display/manifest';
import { findPlaybackDevice } from '@/server/modules/display/manifest.queries';
import { closureOf } from '@/server/modules/display/manifest-closure';
import { loadPlayback, segmentContentIds, segmentFileIds } from '@/server/modules/display/playback';
import { devices } from '@/server/modules/devices/devices.table';
import { resolveSegments, targetedRules } from '@/server/playback/resolver';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import {
  baseline,
  benchTenant,
  benchUuid,
  hashPick,
  seededDeviceId,
  seededFileId,
  seedContent,
  seedDevices,
  seedFiles,
  TAGS,
  textArray,
  type AppFetch,
} from './server-lib';

const BENCH_TENANT = 'Bench Channels';
const EMPTY_TENANT = 'Bench Channels Empty';
const TIME_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
const FILE_FOLDERS = 100;
const CONTENT_GROUPS = 50;

type Seeded = { customerId: number; deviceFolders: number; devices: number; files: number; contents: number; contentGroups: number };

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, upgrade, prepare, setReady } = await createService(config, log);
  const tokenSeed = process.env.BENCH_TOKEN_SEED ?? '';
  const state: { seeded?: Seeded } = {};

  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === '/__bench/campaigns' && request.method === 'POST') {
      const body = (await request.json()) as { authorization: string; count: number };
      return Response.json(await seedCampaigns(handle, app.fetch, state.seeded!, body));
    }
    if (url.pathname === '/__bench/resolve' && request.method === 'POST') {
      const body = (await request.json()) as { devices: number[]; validate?: boolean };
      return Response.json(await resolveTimed(handle, app.fetch, tokenSeed, body));
    }
    if (url.pathname === '/__bench/baseline' && request.method === 'POST') {
      const body = (await request.json()) as { path: string; authorization: string; runs?: number; table?: string | string[] };
      return Response.json(await baseline(handle, app.fetch, body));
    }
    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady, upgrade });

  await prepare();
  const started = performance.now();
  const customerId = await benchTenant(handle, BENCH_TENANT);
  const wanted = {
    folders: Number(process.env.BENCH_CHANNELS_FOLDERS ?? 500),
    devices: Number(process.env.BENCH_CHANNELS_DEVICES ?? 10_000),
    files: Number(process.env.BENCH_SEED_FILES ?? 2_000),
    contents: Number(process.env.BENCH_SEED_CONTENT ?? 2_000),
  };
  const files = await seedFiles(handle, config.admin.email, customerId, { files: wanted.files, folders: FILE_FOLDERS });
  const content = await seedContent(handle, config.admin.email, customerId, {
    contents: wanted.contents,
    groups: CONTENT_GROUPS,
    files: files?.files ?? 0,
  });
  const folders = await seedDeviceFolders(handle, customerId, wanted.folders);
  const screens = await seedDevices(handle, customerId, {
    devices: wanted.devices,
    tokenSeed,
    placement: () => sql`select g.id as folder_id, g.path as folder_path,
        case when ${hashPick('e', 4)} = 0 then '{}'::text[]
          else array[(${textArray(TAGS)})[1 + ${hashPick('t', 16)}]] || case when ${hashPick('x', 3)} = 0 then array[(${textArray(TAGS)})[1 + (${hashPick('t', 16)} + 1 + ${hashPick('u', 15)}) % 16]] else '{}'::text[] end end as tags,
        (${textArray(TIME_ZONES)})[1 + ${hashPick('z', TIME_ZONES.length)}] as time_zone
      from device_group g where g.id = ${deviceFolderId(customerId, sql`1 + (i - 1) % ${folders}::int`)}`,
  });
  const emptyCustomerId = await benchTenant(handle, EMPTY_TENANT);
  await seedDevices(handle, emptyCustomerId, { devices: 1, tokenSeed: `${tokenSeed}-empty`, idPrefix: 'bench-empty-device' });
  const seeded = {
    customerId,
    deviceFolders: folders,
    devices: screens?.devices ?? 0,
    files: files?.files ?? 0,
    contents: content?.contents ?? 0,
    contentGroups: content?.groups ?? 0,
  };
  state.seeded = seeded;
  const seed = {
    ...seeded,
    seconds: (performance.now() - started) / 1000,
    filesSeconds: files?.seconds,
    contentSeconds: content?.seconds,
    devicesSeconds: screens?.seconds,
  };
  setReady(true);
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'channels', port: config.port, driver: handle.driver, pid: process.pid, customerId, emptyCustomerId, seed })}\n`,
  );
}

/** The id of seeded device folder `n` of customer `c`. */
const deviceFolderId = (c: number, n: unknown) => benchUuid(sql`'bench-device-folder-' || ${c}::text || '-' || (${n})::text`);

/** Device folders 1..F of customer `c`: 1–10 under the root, 11–100 under those, the rest under 11–100 (a tree three levels deep). */
async function seedDeviceFolders(handle: DatabaseHandle, c: number, wanted: number): Promise<number> {
  const F = Math.max(11, Math.floor(wanted));
  const id = (n: unknown) => deviceFolderId(c, n);
  const parentOf = sql`case when n <= 100 then 1 + (n - 11) % 10 else 11 + (n - 101) % 90 end`;
  await handle.db.execute(sql`insert into device_group (id, customer_id, parent_id, name, path)
    select ${id(sql`n`)}, ${c}::bigint, case when n <= 10 then root.id else ${id(parentOf)} end,
      'Screens ' || n,
      case when n <= 10 then array[root.id, ${id(sql`n`)}]
        when n <= 100 then array[root.id, ${id(parentOf)}, ${id(sql`n`)}]
        else array[root.id, ${id(sql`1 + ((n - 101) % 90) % 10`)}, ${id(parentOf)}, ${id(sql`n`)}] end
    from generate_series(1, ${F}::int) n,
      (select id from device_group where customer_id = ${c} and parent_id is null limit 1) root`);
  await handle.db.execute(sql`vacuum analyze device_group`);

  return F;
}

const DAYS = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false };

/** The campaign kinds the clones are made of: the body of a create of each (targeting and items are replaced per clone). */
function templates(ids: { content: string[]; contentGroup: string; files: string[]; fileFolder: string; rootFolder: string }) {
  const today = new Date().toISOString().slice(0, 10);
  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const targeting = { deviceGroupAssignment: { assignments: [{ deviceGroupId: ids.rootFolder }] } };
  const kinds: Record<string, unknown>[] = [
    {
      level: 'TOP',
      type: 'CONTENT',
      contentShuffleMode: 'SERIAL',
      contentAssignment: { assignments: [{ contentId: ids.content[0], weight: 1 }] },
      affectedDateRanges: { intervals: [{ from: today, to: inAMonth, isExcluded: false }] },
    },
    {
      level: 'WIDGET',
      type: 'CONTENT',
      contentShuffleMode: 'BALANCED',
      contentAssignment: { assignments: ids.content.map((contentId, k) => ({ contentId, weight: k + 1 })) },
    },
    {
      level: 'WIDGET',
      type: 'CONTENT_DYNAMIC',
      contentShuffleMode: 'BALANCED',
      orderingMode: 'DEFAULT',
      contentGroupAssignment: { assignments: [{ contentGroupId: ids.contentGroup }] },
      contentTagCondition: { tags: ['promo', 'menu'], operator: 'OR' },
    },
    {
      level: 'WIDGET',
      type: 'ASSETS_STATIC',
      defaultDuration: 10,
      orderingMode: 'ALPHABET',
      fileAssignment: { assignments: ids.files.map((fileId, k) => ({ fileId, weight: k + 1 })) },
    },
    {
      level: 'WIDGET',
      type: 'ASSETS_DYNAMIC',
      defaultDuration: 8,
      orderingMode: 'RANDOM',
      fileFolderAssignment: { assignments: [{ fileFolderId: ids.fileFolder }] },
    },
  ];
  const timed = {
    affectedHours: { allDay: false, from: '08:00', end: '20:00' },
    affectedDays: DAYS,
    affectedDateRanges: {
      intervals: [
        { from: today, to: inAMonth, isExcluded: false },
        { from: inAMonth, to: inAMonth, isExcluded: true },
      ],
    },
  };
  // Plain ones first (kinds 0–4), then the same with time rules (5–9).
  return [
    ...kinds.map((k) => ({ ...k })),
    ...kinds.map((k) => ({ ...k, ...timed, ...(k.level === 'TOP' ? { affectedDateRanges: k.affectedDateRanges } : {}) })),
  ].map((k, n) => ({
    name: `Bench template ${n}`,
    version: '2.0',
    ...targeting,
    ...k,
  }));
}

/**
 * `count` campaigns of the tenant, clone `i` (1..count, named `Bench channel <i>`) of template kind:
 * i % 10 = 0 a TOP schedule, 1–3 CONTENT, 4–5 CONTENT_DYNAMIC, 6–7 ASSETS_STATIC, 8–9 ASSETS_DYNAMIC; a quarter
 * with the template's time rules (clone 1 never: it is the channel the fan-out edits). Targeting: clone 1 and
 * every 50th the root folder (every screen); one in ten a STATIC list of 20 screens; the rest DYNAMIC over one
 * to three device folders (a tenth of them a top folder), a sixth of those with a device tag condition.
 */
async function seedCampaigns(handle: DatabaseHandle, fetch: AppFetch, s: Seeded, input: { authorization: string; count: number }) {
  const { db } = handle;
  const c = s.customerId;
  const N = Math.max(1, Math.floor(input.count));
  const started = performance.now();
  const [roots] = await execRows<{ device: string; file: string }>(
    db,
    sql`select (select id::text from device_group where customer_id = ${c} and parent_id is null) as device, (select id::text from file_folder where customer_id = ${c} and parent_id is null) as file`,
  );
  const one = async (q: ReturnType<typeof sql>) => (await execRows<{ id: string }>(db, q))[0]!.id;
  const contentId = (n: unknown) => benchUuid(sql`'bench-content-' || ${c}::text || '-' || (${n})::text`);
  const contentGroupId = (n: unknown) => benchUuid(sql`'bench-group-' || ${c}::text || '-' || (${n})::text`);
  const fileFolderId = (n: unknown) => benchUuid(sql`'bench-folder-' || ${c}::text || '-' || (${n})::text`);
  const ids = {
    content: [await one(sql`select ${contentId(1)}::text as id`), await one(sql`select ${contentId(2)}::text as id`)],
    contentGroup: await one(sql`select ${contentGroupId(s.contentGroups)}::text as id`),
    files: [await one(sql`select ${seededFileId(c, 1)}::text as id`), await one(sql`select ${seededFileId(c, 2)}::text as id`)],
    fileFolder: await one(sql`select ${fileFolderId(11)}::text as id`),
    rootFolder: roots!.device,
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers: { authorization: input.authorization, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const templateIds: number[] = [];
  for (const body of templates(ids)) templateIds.push(Number((await call('POST', `/api/campaign?customerId=${c}`, body)).id));

  const kind = sql.raw(`(case when i % 10 = 0 then 0 when i % 10 <= 3 then 1 when i % 10 <= 5 then 2 when i % 10 <= 7 then 3 else 4 end)`);
  const timed = sql`(i > 1 and ${hashPick('r', 4)} = 0)`;
  const isStatic = sql`(i > 1 and i % 50 <> 0 and ${hashPick('s', 10)} = 0)`;
  const scalar = [
    'level',
    'type',
    'version',
    'enabled',
    'weight',
    'saturation',
    'tags',
    'locked',
    'valid_from',
    'valid_to',
    'duration',
    'default_duration',
    'content_shuffle_mode',
    'ordering_mode',
    'skip_default_page',
    'skip_invalid_files',
    'affected_hours',
    'affected_days',
    'affected_date_ranges',
    'content_tag_condition',
    'file_tag_condition',
    'advertiser_id',
    'played_asset_team_access_list',
    'play_multiple_items_in_single_playback_slot',
    'play_all_items_in_single_playback_slot',
    'playback_slot_item_type',
    'playback_slot_duration',
    'playback_slot_number_of_elements_to_play',
    'content_quick_filter_id',
    'file_quick_filter_id',
    'device_quick_filter_id',
    'creator_id',
    'creator_email',
    'creator_name',
    'last_saved_by_id',
    'last_saved_by_email',
    'last_saved_by_name',
  ];
  await db.execute(sql`insert into campaign (customer_id, name, device_selection_mode, device_tag_condition, created_date, last_saved, ${sql.raw(scalar.join(', '))})
    select ${c}::bigint, 'Bench channel ' || lpad(i::text, 5, '0'),
      case when ${isStatic} then 'STATIC' else 'DYNAMIC' end,
      case when not ${isStatic} and i > 1 and i % 50 <> 0 and ${hashPick('d', 6)} = 0 then jsonb_build_object('tags', jsonb_build_array((${textArray(TAGS)})[1 + ${hashPick('g', 16)}]), 'operator', 'OR') end,
      now() - make_interval(mins => i), now() - make_interval(secs => i),
      ${sql.raw(scalar.map((col) => `t.${col}`).join(', '))}
    from generate_series(1, ${N}::int) i
    join campaign t on t.id = (${`{${templateIds.join(',')}}`}::bigint[])[1 + ${kind} + case when ${timed} then 5 else 0 end]`);
  const clones = sql`(select c.id, substring(c.name from '[0-9]+$')::int as i, c.type, c.device_selection_mode from campaign c where c.customer_id = ${c} and c.name like 'Bench channel %')`;
  const F = s.deviceFolders;
  // Device side: the root folder, a STATIC list of 20 screens, or one to three folders (a tenth a top folder).
  await db.execute(sql`insert into campaign_device_group_assignment (campaign_id, customer_id, device_group_id)
    select distinct x.id, ${c}::bigint, case when x.i = 1 or x.i % 50 = 0 then ${roots!.device}::uuid
        when k = 1 and ${hashPick('p', 10, 'x.i')} = 0 then ${deviceFolderId(c, sql`1 + x.i % 10`)}
        else ${deviceFolderId(c, sql`1 + (hashtext('f' || x.i || '-' || k)::bigint + 2147483648) % ${F}::int`)} end
      from ${clones} x cross join generate_series(1, 3) k
     where x.device_selection_mode = 'DYNAMIC' and (k = 1 or (x.i > 1 and x.i % 50 <> 0 and k <= 1 + ${hashPick('n', 3, 'x.i')}))`);
  await db.execute(sql`insert into campaign_device_assignment (campaign_id, customer_id, device_id)
    select distinct x.id, ${c}::bigint, ${seededDeviceId(sql`1 + (x.i * 97 + k * 31) % ${s.devices}::int`)}
      from ${clones} x cross join generate_series(1, 20) k where x.device_selection_mode = 'STATIC'`);
  // What they play: 1–5 content items, a content folder (a leaf, ~1/50 of the content), 1–8 files, a file folder.
  await db.execute(sql`insert into campaign_content_assignment (campaign_id, customer_id, content_id, weight)
    select x.id, ${c}::bigint, ${contentId(sql`1 + (x.i * 7 + k * 13) % ${s.contents}::int`)}, k
      from ${clones} x cross join generate_series(1, 5) k where x.type = 'CONTENT' and k <= 1 + x.i % 5`);
  await db.execute(sql`insert into campaign_content_group_assignment (campaign_id, customer_id, content_group_id)
    select x.id, ${c}::bigint, ${contentGroupId(sql`11 + x.i % ${s.contentGroups - 10}::int`)} from ${clones} x where x.type = 'CONTENT_DYNAMIC'`);
  await db.execute(sql`insert into campaign_file_assignment (campaign_id, customer_id, file_id, weight)
    select x.id, ${c}::bigint, ${seededFileId(c, sql`1 + (x.i * 11 + k * 17) % ${s.files}::int`)}, k
      from ${clones} x cross join generate_series(1, 8) k where x.type = 'ASSETS_STATIC' and k <= 1 + x.i % 8`);
  await db.execute(sql`insert into campaign_file_folder_assignment (campaign_id, customer_id, file_folder_id)
    select x.id, ${c}::bigint, ${fileFolderId(sql`11 + x.i % ${FILE_FOLDERS - 10}::int`)} from ${clones} x where x.type = 'ASSETS_DYNAMIC'`);
  for (const id of templateIds) await call('DELETE', `/api/campaign/${id}`);
  const tables = [
    'campaign',
    'campaign_device_group_assignment',
    'campaign_device_assignment',
    'campaign_content_assignment',
    'campaign_content_group_assignment',
    'campaign_file_assignment',
    'campaign_file_folder_assignment',
  ];
  for (const table of tables) await db.execute(sql.raw(`vacuum analyze ${table}`));
  const counts = await execRows<{ table: string; n: number }>(
    db,
    sql.join(
      tables.map((t) => sql`select ${t}::text as table, count(*)::int as n from ${sql.identifier(t)} where customer_id = ${c}`),
      sql` union all `,
    ),
  );
  const byKind = await execRows<{ level: string; type: string; mode: string; timed: boolean; n: number }>(
    db,
    sql`select level, type, device_selection_mode as mode, affected_hours is not null as timed, count(*)::int as n from campaign where customer_id = ${c} group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
  );
  const campaigns = Object.fromEntries(counts.map((r) => [r.table, r.n]))['campaign'];
  if (campaigns !== N) throw new Error(`seeding made ${campaigns} campaigns, expected ${N}`);
  // One of each kind (plain and timed) for the script to read back through the API; clone 1 targets the root folder.
  const samples = await execRows<{ id: number }>(
    db,
    sql`select min(x.id)::float8 as id from ${clones} x join campaign c on c.id = x.id group by c.level, c.type, c.affected_hours is null, x.device_selection_mode order by 1`,
  );
  const root = await execRows<{ id: number }>(db, sql`select x.id::float8 as id from ${clones} x where x.i = 1`);

  return {
    campaigns: N,
    rows: Object.fromEntries(counts.map((r) => [r.table, r.n])),
    byKind,
    sampleIds: samples.map((r) => Number(r.id)),
    rootChannelId: Number(root[0]!.id),
    extraContentId: await one(sql`select ${contentId(s.contents)}::text as id`),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The manifest resolution of each device (`bench-device-<i>`) in parts, as `GET /api/display/manifest` runs
 * it (manifest.ts `deviceManifest`): the device's row, the loader (facts and campaigns with their items), the pure
 * resolver over the manifest window, the content graph of the targeted campaigns (documents included) and the
 * segments' closure within it.
 */
async function resolveTimed(handle: DatabaseHandle, fetch: AppFetch, tokenSeed: string, input: { devices: number[]; validate?: boolean }) {
  const { db } = handle;
  const samples: {
    device: number;
    row: number;
    loader: number;
    resolver: number;
    closure: number;
    total: number;
    campaigns: number;
    segments: number;
    channels: number;
  }[] = [];
  for (const i of input.devices) {
    const [idRow] = await execRows<{ id: string }>(db, sql`select ${seededDeviceId(i)}::text as id`);
    const now = Date.now();
    const window = { from: now, to: manifestPeriod(now).validUntil };
    const t0 = performance.now();
    const device = await findPlaybackDevice(db, uuidEquals(devices.id, idRow!.id));
    if (!device) throw new Error(`device ${i} is not claimed`);
    const t1 = performance.now();
    const { facts, rules } = await loadPlayback(db, device);
    const t2 = performance.now();
    const targeted = targetedRules(rules, facts);
    const segments = resolveSegments(targeted.rules, facts, window);
    const t3 = performance.now();
    const roots = segmentContentIds(segments);
    const graph = await readManifestGraph(db, device.customerId, targeted.rules.campaigns, [facts], roots);
    closureOf(graph, roots, segmentFileIds(segments));
    const t4 = performance.now();
    samples.push({
      device: i,
      row: t1 - t0,
      loader: t2 - t1,
      resolver: t3 - t2,
      closure: t4 - t3,
      total: t4 - t0,
      campaigns: rules.campaigns.length,
      segments: segments.length,
      channels: Math.max(0, ...segments.map((x) => x.channels.length)),
    });
  }
  let manifest: { bytes: number; segments: number; contents: number; files: number; channels: number } | undefined;
  if (input.validate && input.devices.length > 0) {
    const res = await fetch(
      new Request('http://127.0.0.1/api/display/manifest', { headers: { authorization: `Bearer ${tokenSeed}-${input.devices[0]}` } }),
    );
    const text = await res.text();
    if (res.status !== 200)
      throw new Error(`GET /api/display/manifest of device ${input.devices[0]} answered ${res.status}: ${text.slice(0, 500)}`);
    const parsed = ManifestSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`the manifest of device ${input.devices[0]} does not validate: ${parsed.error.message}`);
    const m = parsed.data;
    manifest = {
      bytes: text.length,
      segments: m.segments.length,
      contents: Object.keys(m.contents).length,
      files: Object.keys(m.files).length,
      channels: Math.max(0, ...m.segments.map((x) => x.channels.length)),
    };
  }

  return { samples, manifest };
}

main().catch((err) => {
  process.stderr.write(`bench channels server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
