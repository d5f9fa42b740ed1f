/**
 * What the TypeScript benchmark servers (bench/*-server.ts) share: the benchmark tenant, set-based seeding
 * of files, content and devices (with their access tokens), and the in-process baseline of a GET request (its
 * statements captured through drizzle's logger, then run directly on the driver plus `JSON.stringify`),
 * with a driver trace of where one request spends its time. Never part of the product.
 */
import { and, eq, inArray, isNull, not, sql, type SQL } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { hashToken } from '@/server/auth/opaque-token';
import type { DatabaseHandle } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { playlistReferences, slideReferences } from '@/server/modules/content/content-data.rules';
import { PlaylistData, SlideDocument, type SlideData } from '@/server/modules/content/content-data.schemas';
import { slideDataOf, slideDocumentOf } from '@/server/modules/content/slide-document.schemas';
import { contentReferences, deviceContents } from '@/server/modules/content/content.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { insertInitialFolders } from '@/server/modules/folders/folders.queries';
import { customers } from '@/server/tenant/customers.table';
import { users } from '@/server/modules/users/users.table';

export type Statement = { sql: string; params: unknown[] };
export type SeedResult = { customerId: number; files: number; folders: number; seconds: number; level1FolderIds: string[] };
export type AppFetch = (r: Request) => Response | Promise<Response>;

const FOLDER_WORDS = ['Campaigns', 'Stores', 'Brand', 'Events', 'Menus', 'Lobby', 'Seasonal', 'Archive', 'Regional', 'Partners'];
// Names are `<word>-<word>-<n>.<ext>`, words picked by hash: `name:sale` keeps about 1/12, `tags:promo` about 1/16.
export const NAME_WORDS = ['summer', 'winter', 'promo', 'menu', 'logo', 'banner', 'lobby', 'intro', 'sale', 'event', 'news', 'weather'];
export const NAME_WORDS_2 = ['final', 'v2', 'hd', 'portrait', 'landscape', 'draft', 'approved', 'loop', 'teaser'];
export const TAGS = [
  'promo',
  'menu',
  'brand',
  'seasonal',
  'lobby',
  'outdoor',
  'video',
  'still',
  'retail',
  'hq',
  'north',
  'south',
  'east',
  'west',
  'kids',
  'sport',
];

/** A text[] literal of constants (the seeding statements pick words from it). */
export const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** A pseudo-random pick per row: hashtext of a salted row number `i`, mapped to 0..k-1. */
export const hashPick = (salt: string, k: number, column = 'i') =>
  sql.raw(`((hashtext('${salt}' || ${column}::text)::bigint + 2147483648) % ${k})`);

/**
 * A stable id for seeded row `text`: its md5 with the version-4 and RFC 4122 variant bits set, so that
 * the API's uuid validation accepts it wherever a request names the row (bench/lib.mjs computes the same).
 */
export const benchUuid = (text: unknown) => sql`overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

/** The id of seeded file number `n` of customer `c`. */
export const seededFileId = (c: number, n: unknown) => benchUuid(sql`'bench-file-' || ${c}::text || '-' || (${n})::text`);

/** The benchmark's tenant, created like any customer (with its root folders); the administrator reaches it via `customerId`. */
export async function benchTenant(handle: DatabaseHandle, name: string): Promise<number> {
  const [found] = await handle.db.select({ id: customers.id }).from(customers).where(eq(customers.name, name)).limit(1);
  if (found) return found.id;
  const [row] = await handle.db.insert(customers).values({ name }).returning({ id: customers.id });
  await insertInitialFolders(handle.db, row!.id);

  return row!.id;
}

/**
 * Folders 1..F of the admin's customer: 1–10 under the root, 11–100 under those, the rest under
 * 11–100 (ids md5-derived, so the files' join finds their folder's path). Files 1..N are spread
 * round-robin over the folders; names, types, sizes and tags vary with the file number.
 */
export async function seedFiles(
  handle: DatabaseHandle,
  adminEmail: string,
  c: number,
  wanted: { files: number; folders: number },
): Promise<SeedResult | undefined> {
  if (!Number.isFinite(wanted.files) || wanted.files <= 0) return undefined;
  const { db } = handle;
  const started = performance.now();
  const [admin] = await db.select().from(users).where(eq(users.email, adminEmail.toLowerCase())).limit(1);
  if (!admin) throw new Error(`the administrator ${adminEmail} does not exist`);
  const F = Math.max(100, Math.floor(wanted.folders));
  const N = Math.floor(wanted.files);
  const folderId = (n: unknown) => benchUuid(sql`'bench-folder-' || ${c}::text || '-' || (${n})::text`);

  await db.execute(sql`insert into file_folder (id, customer_id, parent_id, name, path)
    select ${folderId(sql`n`)}, ${c}::bigint,
      case when n <= 10 then root.id when n <= 100 then ${folderId(sql`1 + (n - 11) % 10`)} else ${folderId(sql`11 + (n - 101) % 90`)} end,
      (${textArray(FOLDER_WORDS)})[1 + n % 10] || ' ' || n,
      case when n <= 10 then array[root.id, ${folderId(sql`n`)}]
        when n <= 100 then array[root.id, ${folderId(sql`1 + (n - 11) % 10`)}, ${folderId(sql`n`)}]
        else array[root.id, ${folderId(sql`1 + ((n - 101) % 90) % 10`)}, ${folderId(sql`11 + (n - 101) % 90`)}, ${folderId(sql`n`)}] end
    from generate_series(1, ${F}::int) n,
      (select id from file_folder where customer_id = ${c} and parent_id is null limit 1) root`);

  // Independent pseudo-random picks per file.
  const h = hashPick;
  const batch = 25_000;
  for (let from = 1; from <= N; from += batch) {
    const to = Math.min(N, from + batch - 1);
    await db.execute(sql`insert into file (id, customer_id, file_folder_id, folder_path, name, content_type, size, crc_check_sum,
        width, height, created_date, creator_id, creator_email, creator_name, tags)
      select ${seededFileId(c, sql`i`)}, ${c}::bigint, f.id, f.path,
        (${textArray(NAME_WORDS)})[1 + ${h('n', 12)}] || '-' || (${textArray(NAME_WORDS_2)})[1 + ${h('m', 9)}] || '-' || i || (array['.jpg', '.png', '.mp4', '.pdf'])[1 + i % 4],
        (array['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'])[1 + i % 4],
        10000 + ${h('s', 50_000_000)},
        lpad(to_hex(i), 8, '0'),
        case when i % 4 < 3 then 1920 end, case when i % 4 < 3 then 1080 end,
        now() - make_interval(mins => i),
        ${admin.id}::uuid, ${admin.email}, ${admin.name},
        case when ${h('e', 4)} = 0 then '{}'::text[]
          else array[(${textArray(TAGS)})[1 + ${h('t', 16)}]] || case when ${h('x', 3)} = 0 then array[(${textArray(TAGS)})[1 + (${h('t', 16)} + 1 + ${h('u', 15)}) % 16]] else '{}'::text[] end end
      from generate_series(${from}::int, ${to}::int) i
      join file_folder f on f.id = ${folderId(sql`1 + (i - 1) % ${F}::int`)}`);
  }
  const counted = (await db.execute(sql`select (select count(*) from file where customer_id = ${c})::int as files,
      (select count(*) from file_folder where customer_id = ${c})::int as folders`)) as unknown as {
    rows: { files: number; folders: number }[];
  };
  const got = counted.rows[0];
  if (got?.files !== N || got.folders !== F + 1)
    throw new Error(`seeding made ${JSON.stringify(got)}, expected ${N} files and ${F + 1} folders`);
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

const TOP_FOLDERS = 10;

export type ContentSeed = {
  contents: number;
  playlists: number;
  groups: number;
  references: number;
  seconds: number;
  topGroupIds: string[];
  leafGroupId: string;
};

/**
 * Content folders 1..G of customer `c`: 1–10 under the root, the rest spread over those; items 1..N
 * round-robin over the folders (so each top folder holds a tenth of them). Every fifth item is portrait;
 * names are `<Word> <word> <n>` from 12 × 9 words (`name~sale` keeps about 1/12); 0–2 tags of 16.
 */
export async function seedContent(
  handle: DatabaseHandle,
  adminEmail: string,
  c: number,
  wanted: { contents: number; groups: number; files: number },
): Promise<ContentSeed | undefined> {
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
      (select count(*) from content_reference where customer_id = ${c})::int as refs`)) as unknown as {
    rows: { contents: number; playlists: number; groups: number; refs: number }[];
  };
  const got = counted.rows[0];
  // The tenant's root and Templates folders come with the customer.
  if (got?.contents !== N || got.groups !== G + 2)
    throw new Error(`seeding made ${JSON.stringify(got)}, expected ${N} items and ${G + 2} content folders`);
  await checkContentSample(handle, c);
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
    leafGroupId: ((await db.execute(sql`select ${groupId(G)}::text as id`)) as unknown as { rows: { id: string }[] }).rows[0]!.id,
  };
}

/** Every 97th item is parsed with the content schemas and its reference rows compared with what the service would derive. */
async function checkContentSample(handle: DatabaseHandle, c: number): Promise<void> {
  const { db } = handle;
  const sample = await db
    .select({ id: deviceContents.id, type: deviceContents.deviceContentType, data: deviceContents.data })
    .from(deviceContents)
    .where(and(eq(deviceContents.customerId, c), sql`hashtext(${deviceContents.id}::text) % 97 = 0`))
    .limit(200);
  if (!sample.some((s) => s.type === 'simpleLoop') || !sample.some((s) => s.type === 'content'))
    throw new Error('the seeded sample lacks a kind');
  const refs = await db
    .select({ contentId: contentReferences.contentId, targetId: contentReferences.targetId })
    .from(contentReferences)
    .where(
      inArray(
        contentReferences.contentId,
        sample.map((s) => s.id),
      ),
    );
  for (const item of sample) {
    // A slide is stored as its page list and validated in the form the API takes (keyed by page name).
    const parsed =
      item.type === 'simpleLoop' ? PlaylistData.safeParse(item.data) : SlideDocument.safeParse(slideDocumentOf(item.data as SlideData));
    if (!parsed.success) throw new Error(`seeded ${item.type} ${item.id} is not a valid document: ${parsed.error.message}`);
    const derived =
      item.type === 'simpleLoop'
        ? playlistReferences(parsed.data as PlaylistData)
        : slideReferences(slideDataOf(parsed.data as SlideDocument), 'SLIDE');
    const expected = [...new Set(derived.files.map((r) => r.id))].sort().join();
    const stored = refs
      .filter((r) => r.contentId === item.id)
      .map((r) => r.targetId)
      .sort()
      .join();
    if (expected !== stored || derived.fileFolders.length + derived.contents.length > 0)
      throw new Error(`seeded ${item.id}: references ${stored} differ from its document's ${expected}`);
  }
}

/** The id of seeded device `i` with id prefix `prefix` (bench/lib.mjs `benchUuid('<prefix>-<i>')` computes the same). */
export const seededDeviceId = (i: unknown, prefix = 'bench-device') => benchUuid(sql`${prefix} || '-' || (${i})::text`);

/**
 * Devices 1..n of customer `c`, each with the access token `<tokenSeed>-<i>` (stored as `hashToken` stores it:
 * SHA-256 of the UTF-8, base64url without padding; checked against it). By default in the tenant's root device
 * folder without tags or zone; `placement` gives, over `generate_series` row `i`, the folder (`folder_id`,
 * `folder_path`), `tags` and `time_zone` columns of a subquery joined per row.
 */
export async function seedDevices(
  handle: DatabaseHandle,
  c: number,
  input: { devices: number; tokenSeed: string; idPrefix?: string; namePrefix?: string; placement?: (root: string) => SQL },
) {
  const n = input.devices;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  const { tokenSeed, idPrefix = 'bench-device', namePrefix = 'Bench screen ' } = input;
  if (tokenSeed.length < 16) throw new Error('the device token seed must have 16 characters or more');
  const { db } = handle;
  const started = performance.now();
  const [root] = await execRows<{ id: string }>(
    db,
    sql`select id from device_group where customer_id = ${c} and parent_id is null limit 1`,
  );
  if (!root) throw new Error(`customer ${c} has no root device folder`);
  const placement =
    input.placement?.(root.id) ??
    sql`select ${root.id}::uuid as folder_id, array[${root.id}::uuid] as folder_path, case when i <= 100 then array['hundred'] else '{}'::text[] end as tags, null::text as time_zone`;
  const tokenHash = (i: unknown) =>
    sql`rtrim(translate(encode(sha256(convert_to(${tokenSeed} || '-' || (${i})::text, 'UTF8')), 'base64'), '+/', '-_'), '=')`;
  const batch = 5_000;
  for (let from = 1; from <= n; from += batch) {
    const to = Math.min(n, from + batch - 1);
    await db.execute(sql`insert into device (id, customer_id, device_group_id, group_path, name, tags, time_zone, device_status, platform, version, secret_hash, heartbeat_seconds)
      select ${seededDeviceId(sql`i`, idPrefix)}, ${c}::bigint, p.folder_id, p.folder_path, ${namePrefix} || lpad(i::text, 5, '0'),
        p.tags, p.time_zone, 'OFFLINE', 'BROWSER', 'bench-1.0', ${tokenHash(sql`i`)} || '-secret', 60
      from generate_series(${from}::int, ${to}::int) i cross join lateral (${placement}) p`);
    await db.execute(sql`insert into device_access_token (token_hash, device_id, expires_at)
      select ${tokenHash(sql`i`)}, ${seededDeviceId(sql`i`, idPrefix)}, now() + interval '2 hours'
      from generate_series(${from}::int, ${to}::int) i`);
  }
  const [check] = await execRows<{ hash: string; devices: number }>(
    db,
    sql`select ${tokenHash(1)} as hash, (select count(*)::int from device where customer_id = ${c}) as devices`,
  );
  if (check?.hash !== hashToken(`${tokenSeed}-1`))
    throw new Error(`the seeded token hash ${check?.hash} differs from hashToken's ${hashToken(`${tokenSeed}-1`)}`);
  if (check.devices !== n) throw new Error(`seeding made ${check.devices} devices, expected ${n}`);
  for (const table of ['device', 'device_access_token']) await db.execute(sql.raw(`vacuum analyze ${table}`));

  return { devices: n, seconds: (performance.now() - started) / 1000 };
}

type DrizzleLogger = { logQuery: (query: string, params: unknown[]) => void };
type SessionWithLogger = { logger: DrizzleLogger; options?: { logger?: DrizzleLogger } };

/** Runs `path` once in-process and answers the statements drizzle sent meanwhile. */
export async function captureStatements(handle: DatabaseHandle, fetch: AppFetch, path: string, authorization: string) {
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

export async function rawQuery(handle: DatabaseHandle, statement: Statement): Promise<Record<string, unknown>[]> {
  if (handle.pglite) return (await handle.pglite.query<Record<string, unknown>>(statement.sql, statement.params)).rows;
  if (handle.pool) return (await handle.pool.query(statement.sql, statement.params)).rows as Record<string, unknown>[];
  throw new Error('no raw driver');
}

type RawRun = (statement: Statement) => Promise<Record<string, unknown>[]>;

/**
 * Runs `fn` with a raw query function inside a transaction that first drops `indexes` and is always rolled back:
 * the same statements on the same data, planned as if those indexes did not exist (what they save, measured in the
 * same run). The transaction holds an exclusive lock on the indexes' tables meanwhile; the server is otherwise idle.
 */
export async function withoutIndexes<T>(handle: DatabaseHandle, indexes: readonly string[], fn: (run: RawRun) => Promise<T>): Promise<T> {
  const drops = indexes.map((name) => `drop index ${name.replace(/[^\w.]/g, '')}`);
  if (handle.pglite) {
    let result: T | undefined;
    await handle.pglite.transaction(async (tx) => {
      for (const drop of drops) await tx.exec(drop);
      result = await fn(async (s) => (await tx.query<Record<string, unknown>>(s.sql, s.params)).rows);
      await tx.rollback();
    });

    return result as T;
  }
  if (!handle.pool) throw new Error('no raw driver');
  const client = await handle.pool.connect();
  try {
    await client.query('begin');
    for (const drop of drops) await client.query(drop);

    return await fn(async (s) => (await client.query(s.sql, s.params)).rows as Record<string, unknown>[]);
  } finally {
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

type Query = (text: string | { text: string }, ...rest: unknown[]) => Promise<unknown>;
type Queryable = { query: Query };

/**
 * Every statement the driver ran during `fn` (prepared ones and those inside transactions included, which
 * drizzle's logger misses or cannot time), with its time: where an API request spends its time. PGlite:
 * its `query` and the `query` of each transaction it opens; node-postgres: the `query` of every client the
 * pool hands out (a `pool.query` goes through one too).
 */
export async function driverTrace(handle: DatabaseHandle, fn: () => Promise<unknown>) {
  const statements: { sql: string; ms: number }[] = [];
  const timed = (original: Query): Query =>
    function traced(this: unknown, text, ...rest) {
      const t0 = performance.now();
      const record = () => {
        const query = typeof text === 'string' ? text : text.text;
        statements.push({ sql: query.replace(/\s+/g, ' ').slice(0, 120), ms: performance.now() - t0 });
      };
      // node-postgres' pool.query calls client.query with a callback (no promise then).
      const last = rest.at(-1);
      if (typeof last === 'function') {
        const done = (...args: unknown[]) => {
          record();
          return (last as (...a: unknown[]) => unknown)(...args);
        };
        return original.call(this, text, ...rest.slice(0, -1), done);
      }
      return original.call(this, text, ...rest).finally(record);
    };
  const restore: (() => void)[] = [];
  const wrapped = new WeakSet<Queryable>();
  const wrap = (target: Queryable) => {
    if (wrapped.has(target)) return;
    wrapped.add(target);
    const own = Object.prototype.hasOwnProperty.call(target, 'query');
    const original = target.query;
    target.query = timed(original);
    restore.push(() => (own ? (target.query = original) : delete (target as Partial<Queryable>).query));
  };
  if (handle.pglite) {
    const pglite = handle.pglite as unknown as Queryable & { transaction: (cb: (tx: Queryable) => Promise<unknown>) => Promise<unknown> };
    const query = pglite.query;
    const transaction = pglite.transaction;
    pglite.query = timed(query);
    pglite.transaction = function (this: unknown, cb) {
      return transaction.call(this, (tx) => {
        wrap(tx);
        return cb(tx);
      });
    };
    restore.push(() => {
      pglite.query = query;
      pglite.transaction = transaction;
    });
  } else if (handle.pool) {
    type Connect = (cb?: (err: unknown, client: Queryable, done: unknown) => void) => Promise<Queryable> | void;
    const pool = handle.pool as unknown as { connect: Connect };
    const connect = pool.connect;
    pool.connect = function (this: unknown, cb) {
      if (cb) return connect.call(this, (err, client, done) => cb(err, client && (wrap(client), client), done));
      return (connect.call(this) as Promise<Queryable>).then((client) => (wrap(client), client));
    };
    restore.push(() => {
      pool.connect = connect;
    });
  } else {
    return undefined;
  }
  const t0 = performance.now();
  try {
    await fn();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  const total = performance.now() - t0;

  return { total, inDriver: statements.reduce((n, q) => n + q.ms, 0), statements };
}

/**
 * The baseline of a GET request: `path` runs once in-process with drizzle's logger capturing what it sends;
 * the statements reading `table` (or any of several; unaliased: not its correlated subqueries) then run directly on the driver,
 * `runs` times after `warm` unmeasured (20), each followed by `JSON.stringify` of the rows. The same request
 * through `app.fetch` in-process (no socket) beside it and, unless `detail` is false, one driver trace of it
 * and EXPLAIN ANALYZE of each statement. With `withoutIndexes`, the same statements run as many times again with
 * those indexes dropped (withoutIndexes: a rolled-back transaction), with their own plans: the indexes' effect.
 */
export async function baseline(
  handle: DatabaseHandle,
  fetch: AppFetch,
  input: {
    path: string;
    authorization: string;
    runs?: number;
    table?: string | string[];
    warm?: number;
    detail?: boolean;
    withoutIndexes?: string[];
    /** A pattern the statements must match too (leaves out what a background job sent meanwhile). */
    match?: string;
  },
) {
  const runs = Math.max(1, Math.floor(input.runs ?? 200));
  const warm = Math.max(0, Math.floor(input.warm ?? Math.min(20, runs)));
  const detail = input.detail ?? true;
  const table = [input.table ?? 'file'].flat();
  const { captured, status, bytes } = await captureStatements(handle, fetch, input.path, input.authorization);
  // The resource's statements (token and user look-ups are the auth layer's).
  const reads = new RegExp(`\\bfrom "(${table.join('|')})"(?!\\s+")`);
  const also = input.match === undefined ? undefined : new RegExp(input.match);
  const statements = captured.filter((s) => reads.test(s.sql) && (!also || also.test(s.sql)));
  if (statements.length === 0)
    return { status, bytes, error: `no statement on "${table.join('", "')}" was captured`, captured: captured.map((s) => s.sql) };

  const once = async (run: RawRun = (s) => rawQuery(handle, s)) => {
    const t0 = performance.now();
    const results: Record<string, unknown>[][] = [];
    for (const s of statements) results.push(await run(s));
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
  const explainAll = async (run: RawRun) => {
    const plans: string[] = [];
    for (const s of statements) {
      const rows = await run({ sql: `explain (analyze, buffers, costs off) ${s.sql}`, params: s.params });
      plans.push(rows.map((r) => String(Object.values(r)[0])).join('\n'));
    }
    return plans;
  };
  for (let i = 0; i < warm; i++) await once();
  const samples: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  const without = input.withoutIndexes?.length
    ? await withoutIndexes(handle, input.withoutIndexes, async (run) => {
        for (let i = 0; i < warm; i++) await once(run);
        const timed: Awaited<ReturnType<typeof once>>[] = [];
        for (let i = 0; i < runs; i++) timed.push(await once(run));
        return { samples: timed, plans: detail ? await explainAll(run) : [] };
      })
    : undefined;
  for (let i = 0; i < warm; i++) await inProcess();
  const app: number[] = [];
  for (let i = 0; i < runs; i++) app.push(await inProcess());

  const trace = detail ? await driverTrace(handle, () => inProcess()) : undefined;
  const plans = detail ? await explainAll((s) => rawQuery(handle, s)) : [];
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
    p95: { total: percentile(pick('total'), 95) },
    p99: { total: percentile(pick('total'), 99) },
    appInProcess: { p50: percentile(app, 50), p95: percentile(app, 95), p99: percentile(app, 99) },
    // Every run's ms, for callers that interleave several calls with their own measurements.
    samples: {
      query: pick('query'),
      serialise: pick('serialise'),
      total: pick('total'),
      app,
      withoutIndexes: without?.samples.map((s) => s.total) ?? [],
    },
    trace,
    plans,
    withoutIndexes: without ? { indexes: input.withoutIndexes, rows: without.samples[0]?.rows, plans: without.plans } : undefined,
  };
}
