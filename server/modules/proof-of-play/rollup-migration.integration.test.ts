import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationsFolder, openDatabase, type DatabaseHandle } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { withDatabase } from '@/server/test/global-setup';
import { compactPlayRollups, insertPlays } from './proof-of-play.queries';
import { findRollupReport } from './reports.queries';

/*
 * Migration 0014 (proof_of_play_day_totals_data) on rollups written before it (six 97-element running sums a
 * day row): every play stays counted. The day totals come from the last running sums, counters that were 0 all
 * day become empty arrays, the rest keep their values; reports and later ingests work on the migrated rows.
 */

const RELEASED_BEFORE = '0012_proof_of_play_reports';
const DAY_MS = 86_400_000;
const QUARTER_MS = 900_000;

let handle: DatabaseHandle;
let cleanup: () => Promise<void>;
let customerId: number;
const day = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS).toISOString().slice(0, 10);
const deviceId = '0190f0a0-0000-7000-8000-000000000001';
const contentId = '0190f0a0-0000-7000-8000-000000000002';

/** The running sums (97 elements from a leading 0) of per-slot values given as `{ slot: value }`. */
function runningSums(values: Record<number, number>): number[] {
  const sums = [0];
  for (let slot = 0; slot < 96; slot++) sums.push(sums[slot]! + (values[slot] ?? 0));

  return sums;
}

/** A migrations folder holding the migrations up to and including `last` (the journal cut there). */
async function migrationsUpTo(last: string): Promise<string> {
  const source = migrationsFolder();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'signage-migrations-'));
  const journal = JSON.parse(await fs.readFile(path.join(source, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === last) + 1);
  await fs.mkdir(path.join(dir, 'meta'));
  await fs.writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) await fs.copyFile(path.join(source, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));

  return dir;
}

/** A new, empty database of the run's kind (PGlite in memory, or a database of its own on the PostgreSQL server). */
async function emptyDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const target = inject('testDatabase');
  if (target.kind === 'pglite') {
    const db = await openDatabase({ kind: 'pglite-memory' });

    return { handle: db, drop: () => db.close() };
  }
  const name = `signage_test_migration_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const db = await openDatabase({ kind: 'pg', url: withDatabase(target.url, name), poolSize: 1 });

  return {
    handle: db,
    drop: async () => {
      await db.close();
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

const migrate = (h: DatabaseHandle, folder: string) =>
  h.driver === 'pg' ? migratePg(h.db as never, { migrationsFolder: folder }) : migratePglite(h.db as never, { migrationsFolder: folder });

beforeAll(async () => {
  const empty = await emptyDatabase();
  handle = empty.handle;
  const before = await migrationsUpTo(RELEASED_BEFORE);
  cleanup = async () => {
    await empty.drop();
    await fs.rm(before, { recursive: true, force: true });
  };
  await migrate(handle, before);
  const [customer] = await execRows<{ id: number }>(
    handle.db,
    sql`insert into customer (name) values ('Migrated') returning id::float8 as id`,
  );
  customerId = Number(customer!.id);
  // The old layout: every counter a 97-element running sum, zeros included.
  const row = (dimension: string, subject: string, counters: Record<string, Record<number, number>>) => {
    const arrays = ['starts', 'ends', 'duration_ms', 'clicks', 'viewers', 'attention_ms'].map(
      (c) => `{${runningSums(counters[c] ?? {}).join(',')}}`,
    );

    return sql`insert into play_rollup_day (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
      values (${customerId}, ${dimension}, ${subject}, ${day}::date, ${arrays[0]}::int[], ${arrays[1]}::int[], ${arrays[2]}::bigint[], ${arrays[3]}::int[], ${arrays[4]}::int[], ${arrays[5]}::bigint[])`;
  };
  await handle.db.execute(
    row('DEVICE', deviceId, { starts: { 10: 2, 80: 1 }, ends: { 10: 1 }, duration_ms: { 10: 20_000, 80: 5_000 }, viewers: { 80: 3 } }),
  );
  await handle.db.execute(
    row('CONTENT', contentId, {
      starts: { 0: 1, 95: 4 },
      ends: { 0: 1, 95: 4 },
      duration_ms: { 0: 1_000, 95: 4_000 },
      clicks: { 95: 2 },
      viewers: { 0: 1 },
      attention_ms: { 95: 700 },
    }),
  );
  await migrate(handle, migrationsFolder());
}, 240_000); // Two migration runs on a fresh database, slow on a loaded 2-core machine.
afterAll(() => cleanup());

const totals = (dimension: string) =>
  execRows(
    handle.db,
    sql`select day::text as day, starts, ends, duration_ms::float8 as "durationMs", clicks, viewers, attention_ms::float8 as "attentionMs"
    from play_rollup_day_total where customer_id = ${customerId} and dimension = ${dimension}`,
  );
const arrays = (dimension: string) =>
  execRows<Record<string, number[]>>(
    handle.db,
    sql`select starts, ends, duration_ms::float8[] as "durationMs", clicks, viewers, attention_ms::float8[] as "attentionMs"
    from play_rollup_day where customer_id = ${customerId} and dimension = ${dimension}`,
  );
const report = (dimension: 'DEVICE' | 'CONTENT', slices: { period: number; fromSlot: number; toSlot: number }[]) =>
  findRollupReport(handle.db, {
    customerId,
    dimension,
    order: [],
    limit: 100,
    slices: slices.map((s) => ({ ...s, day })),
    firstDay: day,
    lastDay: day,
  });

describe('migration 0014: proof-of-play rollups in two layouts', () => {
  it('keeps every play: day totals from the running sums, zero counters as empty arrays, the rest unchanged', async () => {
    expect(await totals('DEVICE')).toEqual([{ day, starts: 3, ends: 1, durationMs: 25_000, clicks: 0, viewers: 3, attentionMs: 0 }]);
    expect(await totals('CONTENT')).toEqual([{ day, starts: 5, ends: 5, durationMs: 5_000, clicks: 2, viewers: 1, attentionMs: 700 }]);
    const [device] = await arrays('DEVICE');
    expect(device).toEqual({
      starts: runningSums({ 10: 2, 80: 1 }),
      ends: runningSums({ 10: 1 }),
      durationMs: runningSums({ 10: 20_000, 80: 5_000 }),
      clicks: [],
      viewers: runningSums({ 80: 3 }),
      attentionMs: [],
    });
    expect((await arrays('CONTENT'))[0]!.attentionMs).toEqual(runningSums({ 95: 700 }));
  });

  it('reports the migrated rows: whole days from the totals, parts of days from the running sums', async () => {
    const rows = await report('DEVICE', [
      { period: 0, fromSlot: 0, toSlot: 74 },
      { period: 1, fromSlot: 74, toSlot: 96 },
      { period: 2, fromSlot: 0, toSlot: 96 },
    ]);
    expect(rows.map((r) => [r.period, r.subjectId, r.starts, r.ends, r.durationMs, r.viewers, r.clicks])).toEqual([
      [0, deviceId, 2, 1, 20_000, 0, 0],
      [1, deviceId, 1, 0, 5_000, 3, 0],
      [2, deviceId, 3, 1, 25_000, 3, 0],
    ]);
  });

  it('adds later plays to the migrated rows (an empty counter grows back to 97 running sums)', async () => {
    const startedAt = Date.parse(`${day}T00:00:00Z`) + 20 * QUARTER_MS + 60_000;
    const play = {
      startedAt,
      endedAt: startedAt + 1_000,
      durationMs: 1_000,
      completed: true,
      deviceGroupId: null,
      campaignId: null,
      messageId: null,
      contentId: null,
      pageId: null,
      widgetKey: null,
      fileId: null,
      advertiserId: null,
      clicks: 4,
      viewers: 0,
      attentionMs: 0,
    };
    await handle.db.transaction((tx) =>
      insertPlays(tx, customerId, deviceId, [{ ...play, eventId: '0190f0a0-0000-7000-8000-0000000000aa' }], []),
    );
    await compactPlayRollups(handle.db);
    expect(await totals('DEVICE')).toEqual([{ day, starts: 4, ends: 2, durationMs: 26_000, clicks: 4, viewers: 3, attentionMs: 0 }]);
    const [device] = await arrays('DEVICE');
    expect(device!.starts).toEqual(runningSums({ 10: 2, 20: 1, 80: 1 }));
    expect(device!.clicks).toEqual(runningSums({ 20: 4 }));
    expect(device!.attentionMs).toEqual([]);
  });
});
