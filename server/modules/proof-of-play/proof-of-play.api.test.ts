import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execRows } from '@/server/db/sql';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { newDevice, type TestDevice } from '@/server/modules/display/display.test-kit';
import { send } from '@/server/modules/uploads/uploads.test-kit';
import type { TestContext } from '@/server/test/harness';
import { compactRollups, maintainPlayPartitions } from './proof-of-play.jobs';
import { compactPlayRollups } from './proof-of-play.queries';
import { playRollupDays, playRollupDayTotals, playSubjects } from './proof-of-play.table';

/*
 * POST /api/display/proofOfPlay (spec 4 §5): per-event checks with the rest accepted, idempotency per device
 * and event id, the day rollups of quarter-hour slots, names kept after deletes, monthly partitions.
 */

let k: CampaignsTestKit;
let t: TestContext;
let screen: TestDevice;
let poster: { id: string; name: string };
let slide: { id: string; name: string };
let channel: Record<string, any>;
let advertiserId: string;

const MIN = 60_000;
// A quarter-hour boundary an hour ago: plays land in known slots. The tests place plays up to 17 minutes after it, all in
// BASE's UTC day (the rollups are per day): near midnight it moves back half an hour.
const quarterHourAnHourAgo = Math.floor((Date.now() - 60 * MIN) / (15 * MIN)) * 15 * MIN;
const BASE = quarterHourAnHourAgo % 86_400_000 > 86_400_000 - 30 * MIN ? quarterHourAnHourAgo - 30 * MIN : quarterHourAnHourAgo;

const play = (overrides: Record<string, unknown> = {}) => ({
  eventId: uuidv7(),
  startedAt: BASE + MIN,
  endedAt: BASE + MIN + 10_000,
  completed: true,
  ...overrides,
});
const upload = (device: TestDevice, events: unknown) =>
  t.request('POST', '/api/display/proofOfPlay', { token: device.token, json: events });

beforeAll(async () => {
  k = await campaignsTestKit();
  t = k.t;
  screen = await newDevice(t, { customerId: k.customerId });
  poster = await k.own.file('poster.png');
  slide = await k.own.content('Welcome');
  const adv = await t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Acme', enabled: true } });
  advertiserId = adv.body.id;
  channel = await k.create(k.contentChannel(slide.id, { name: 'Breakfast', advertiserId }));
});
afterAll(() => t.close());

/**
 * The day rollup of BASE's UTC day, once the ingests' rows are merged into one (the compaction job), with its running sums turned back
 * into per-slot values (an empty array is a counter that was 0 all day); checks that the day's totals row holds
 * the last running sums.
 */
const rollup = async (dimension: string, subjectId: string) => {
  await compactRollups(t.db);
  const where = <T extends typeof playRollupDays | typeof playRollupDayTotals>(table: T) =>
    and(
      eq(table.customerId, k.customerId),
      eq(table.dimension, dimension as never),
      eq(table.subjectId, subjectId),
      eq(table.day, new Date(BASE).toISOString().slice(0, 10)),
    );
  const rows = await t.db.select().from(playRollupDays).where(where(playRollupDays));
  const [row] = rows;
  if (!row) return undefined;
  expect(rows).toHaveLength(1);
  expect(row.batch).toBe(0);
  const slots = (sums: number[]) => {
    if (sums.length === 0) return Array.from({ length: 96 }, () => 0);
    expect(sums).toHaveLength(97);
    expect(sums[0]).toBe(0);

    return sums.slice(1).map((sum, i) => sum - sums[i]!);
  };
  const counts = {
    starts: slots(row.starts),
    ends: slots(row.ends),
    durationMs: slots(row.durationMs),
    clicks: slots(row.clicks),
    viewers: slots(row.viewers),
    attentionMs: slots(row.attentionMs),
  };
  const totals = await t.db.select().from(playRollupDayTotals).where(where(playRollupDayTotals));
  expect(totals).toHaveLength(1);
  const [total] = totals;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  expect(total).toMatchObject({
    day: row.day,
    starts: sum(counts.starts),
    ends: sum(counts.ends),
    durationMs: sum(counts.durationMs),
    clicks: sum(counts.clicks),
    viewers: sum(counts.viewers),
    attentionMs: sum(counts.attentionMs),
  });

  return counts;
};

describe('POST /api/display/proofOfPlay', () => {
  it('stores plays, counts a repeated event once (in the call and later), and adds them to the rollups of every dimension they name', async () => {
    const first = play({ campaignId: channel.id, contentId: slide.id, pageId: 'Intro', clicks: 2, viewers: 3, attentionMs: 4_000 });
    const second = play({ fileId: poster.id, startedAt: BASE + 16 * MIN, endedAt: BASE + 16 * MIN + 8_000, completed: false });
    const res = await upload(screen, [first, second, first]);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ accepted: 2, duplicates: 1, rejected: [] });
    expect(await upload(screen, [first, second])).toMatchObject({ status: 202, body: { accepted: 0, duplicates: 2, rejected: [] } });

    const device = await rollup('DEVICE', screen.deviceId);
    const slot = (ms: number) => Math.floor((ms % 86_400_000) / (15 * MIN));
    expect(device!.starts[slot(BASE + MIN)]).toBe(1);
    expect(device!.ends[slot(BASE + MIN)]).toBe(1);
    expect(device!.durationMs[slot(BASE + MIN)]).toBe(10_000);
    expect(device!.starts[slot(BASE + 16 * MIN)]).toBe(1);
    expect(device!.ends[slot(BASE + 16 * MIN)]).toBe(0);
    expect(device!.starts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(device!.starts).toHaveLength(96);
    const campaign = await rollup('CAMPAIGN', String(channel.id));
    expect(campaign!.clicks[slot(BASE + MIN)]).toBe(2);
    expect(campaign!.viewers[slot(BASE + MIN)]).toBe(3);
    expect(campaign!.attentionMs[slot(BASE + MIN)]).toBe(4_000);
    expect((await rollup('ADVERTISER', advertiserId))!.starts[slot(BASE + MIN)]).toBe(1);
    expect((await rollup('CONTENT_PAGE', `${slide.id}/Intro`))!.starts[slot(BASE + MIN)]).toBe(1);
    expect((await rollup('MEDIA_FILE', poster.id))!.durationMs[slot(BASE + 16 * MIN)]).toBe(8_000);
    expect(await rollup('DEVICE_GROUP', k.own.roots.device.id)).toBeDefined();

    // A later call adds slot by slot.
    expect((await upload(screen, [play({ startedAt: BASE + 2 * MIN, endedAt: BASE + 3 * MIN })])).body.accepted).toBe(1);
    const after = await rollup('DEVICE', screen.deviceId);
    expect(after!.starts[slot(BASE + MIN)]).toBe(2);
    expect(after!.durationMs[slot(BASE + MIN)]).toBe(70_000);
    expect(after!.starts[slot(BASE + 16 * MIN)]).toBe(1);
  });

  it('credits a disabled advertiser with nothing that plays while it is disabled; what it was credited before stays', async () => {
    const adv = (await t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Paused Co', enabled: true } })).body;
    const spot = await k.create(k.contentChannel(slide.id, { name: 'Paused spot', advertiserId: adv.id }));
    const device = await newDevice(t, { customerId: k.customerId });
    expect((await upload(device, [play({ campaignId: spot.id })])).body.accepted).toBe(1);
    expect((await t.request('PUT', `/api/adv/${adv.id}`, { token: k.owner, json: { enabled: false } })).status).toBe(200);
    expect(
      (await upload(device, [play({ campaignId: spot.id, startedAt: BASE + 5 * MIN, endedAt: BASE + 5 * MIN + 10_000 })])).body.accepted,
    ).toBe(1);
    const [credited] = await execRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from play_event where advertiser_id = ${adv.id}::uuid`,
    );
    expect(credited!.n).toBe(1);
    const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(total((await rollup('ADVERTISER', adv.id))!.starts)).toBe(1);
    // The channel itself counts both plays.
    expect(total((await rollup('CAMPAIGN', String(spot.id)))!.starts)).toBe(2);
  });

  it('refuses each bad event with its index and reason, and stores the rest', async () => {
    const now = Date.now();
    const foreignContent = await k.other.content('Theirs');
    const foreignFile = await k.other.file('theirs.png');
    const deleted = uuidv7();
    const otherOwner = (await t.actor('OWNER', { customerId: k.otherCustomerId })).token;
    const otherGroup = (await t.request('POST', '/api/messageGroup', { token: otherOwner, json: { name: 'Theirs' } })).body;
    const foreignMessage = (
      await t.request('POST', '/api/message', {
        token: otherOwner,
        json: { version: '2.0', messageGroupId: otherGroup.id, name: 'Theirs', type: 'CONTENT', contentId: foreignContent.id },
      })
    ).body;
    expect(foreignMessage.id).toBeDefined();
    const events = [
      play({ endedAt: BASE }),
      play({ endedAt: BASE + MIN + 25 * 3_600_000 }),
      play({ startedAt: now + 10 * MIN, endedAt: now + 11 * MIN }),
      play({ startedAt: now - 400 * 86_400_000, endedAt: now - 400 * 86_400_000 + 1_000 }),
      { eventId: 'not-a-uuid', startedAt: BASE, endedAt: BASE, completed: true },
      play({ contentId: foreignContent.id }),
      play({ fileId: foreignFile.id }),
      'just a string',
      play({ messageId: foreignMessage.id }),
      play({ fileId: deleted, contentId: uuidv7() }),
      play({ campaignId: 999_999 }),
      play({ campaignId: channel.id, messageId: 999_999 }),
      play({ contentId: slide.id.toUpperCase(), fileId: poster.id, campaignId: channel.id }),
    ];
    const res = await upload(screen, events);
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(1);
    expect(res.body.rejected.map((r: { index: number; key: string }) => [r.index, r.key])).toEqual([
      [0, 'proofOfPlay.error.endsBeforeStart'],
      [1, 'proofOfPlay.error.tooLong'],
      [2, 'proofOfPlay.error.inFuture'],
      [3, 'proofOfPlay.error.tooOld'],
      [4, 'proofOfPlay.error.invalidEvent'],
      [5, 'proofOfPlay.error.foreignId'],
      [6, 'proofOfPlay.error.foreignId'],
      [7, 'proofOfPlay.error.invalidEvent'],
      [8, 'proofOfPlay.error.foreignId'],
      [9, 'proofOfPlay.error.foreignId'],
      [10, 'proofOfPlay.error.foreignId'],
      [11, 'proofOfPlay.error.foreignId'],
    ]);
    // An id that names nothing of the tenant is refused like another tenant's: nothing is stored under it.
    expect(res.body.rejected.slice(-3).map((r: { message: string }) => r.message.split(' ')[0])).toEqual([
      'contentId',
      'campaignId',
      'messageId',
    ]);
    expect(
      await execRows(t.db, sql`select 1 from play_event where campaign_id = 999999 or message_id = 999999 or file_id = ${deleted}::uuid`),
    ).toEqual([]);
    expect(res.body.rejected[4].message).toMatch(/^eventId/);
    // Another tenant's rollups and names are untouched.
    expect(await execRows(t.db, sql`select 1 from play_rollup_day where customer_id = ${k.otherCustomerId}`)).toEqual([]);
    expect(await execRows(t.db, sql`select 1 from play_rollup_day_total where customer_id = ${k.otherCustomerId}`)).toEqual([]);
  });

  it('takes NDJSON (a line that is not JSON is refused on its own), and refuses other media types, too many events and hostile lines', async () => {
    const lines = [JSON.stringify(play()), '{not json', '', JSON.stringify(play())].join('\n');
    const res = await send(t, 'POST', '/api/display/proofOfPlay', {
      token: screen.token,
      body: lines,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ accepted: 2, duplicates: 0, rejected: [{ index: 1, key: 'proofOfPlay.error.invalidJson' }] });
    expect(
      (await send(t, 'POST', '/api/display/proofOfPlay', { token: screen.token, body: lines, headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(415);
    // The body is optional (the document says so): none is an empty batch, not a 415.
    const none = await send(t, 'POST', '/api/display/proofOfPlay', { token: screen.token });
    expect(none.status).toBe(202);
    expect(none.body).toEqual({ accepted: 0, duplicates: 0, rejected: [] });
    const many = Array.from({ length: 10_001 }, () => '{}').join('\n');
    expect(
      (
        await send(t, 'POST', '/api/display/proofOfPlay', {
          token: screen.token,
          body: many,
          headers: { 'content-type': 'application/x-ndjson' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await upload(
          screen,
          Array.from({ length: 10_001 }, () => ({})),
        )
      ).status,
    ).toBe(400);
    const nul = JSON.stringify(play({ pageId: 'a\u0000b' }));
    expect(
      (
        await send(t, 'POST', '/api/display/proofOfPlay', {
          token: screen.token,
          body: nul,
          headers: { 'content-type': 'application/x-ndjson' },
        })
      ).status,
    ).toBe(400);
    expect((await upload(screen, [play({ pageId: 'a\u0000b' })])).status).toBe(400);
    expect((await upload(screen, { not: 'an array' })).status).toBe(400);
  });

  it('accepts 10 000 events in one call', async () => {
    const events = Array.from({ length: 10_000 }, (_, i) =>
      play({ startedAt: BASE + i * 100, endedAt: BASE + i * 100 + 50, fileId: poster.id }),
    );
    const res = await upload(screen, events);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: 10_000, duplicates: 0, rejected: [] });
  });

  it('keeps the names of what played after it is deleted', async () => {
    const file = await k.own.file('gone-soon.png');
    expect((await upload(screen, [play({ fileId: file.id })])).body.accepted).toBe(1);
    expect((await t.request('DELETE', `/api/file/${file.id}`, { token: k.owner })).status).toBe(204);
    const [subject] = await t.db
      .select()
      .from(playSubjects)
      .where(and(eq(playSubjects.customerId, k.customerId), eq(playSubjects.subjectId, file.id)));
    expect(subject).toMatchObject({ dimension: 'MEDIA_FILE', name: 'gone-soon.png' });
    const [stored] = await execRows<{ n: number }>(t.db, sql`select count(*)::int as n from play_event where file_id = ${file.id}::uuid`);
    expect(stored!.n).toBe(1);
    // Played again after the delete: the id names nothing of the tenant now, so the play is refused; the name stays.
    expect((await upload(screen, [play({ fileId: file.id })])).body).toMatchObject({
      accepted: 0,
      rejected: [{ index: 0, key: 'proofOfPlay.error.foreignId' }],
    });
    expect(
      await t.db
        .select()
        .from(playSubjects)
        .where(and(eq(playSubjects.customerId, k.customerId), eq(playSubjects.subjectId, file.id))),
    ).toEqual([subject]);
  });

  it('counts a repeated event id once whatever else it says: another start (another month) or the id in upper case', async () => {
    const first = play();
    expect((await upload(screen, [first])).body).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    const earlier = BASE - 40 * 86_400_000;
    const again = { ...first, eventId: first.eventId.toUpperCase(), startedAt: earlier, endedAt: earlier + 5_000 };
    expect((await upload(screen, [again])).body).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
    // A new id in both cases within one call: stored once.
    const fresh = play();
    expect((await upload(screen, [fresh, { ...fresh, eventId: fresh.eventId.toUpperCase() }])).body).toEqual({
      accepted: 1,
      duplicates: 1,
      rejected: [],
    });
    const stored = await execRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from play_event where event_id in (${first.eventId}::uuid, ${fresh.eventId}::uuid)`,
    );
    expect(stored[0]!.n).toBe(2);
  });

  it('adds only the new plays of a call that repeats some earlier ones to the rollups', async () => {
    const other = await newDevice(t, { customerId: k.customerId });
    const slot = Math.floor((BASE % 86_400_000) / (15 * MIN));
    const first = play({ fileId: poster.id });
    expect((await upload(other, [first])).body).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    const later = [
      play({ fileId: poster.id, startedAt: BASE + 3 * MIN, endedAt: BASE + 3 * MIN + 4_000 }),
      play({ startedAt: BASE + 2 * MIN, endedAt: BASE + 2 * MIN + 1_000, completed: false }),
    ];
    expect((await upload(other, [later[0], first, later[1]])).body).toEqual({ accepted: 2, duplicates: 1, rejected: [] });
    const device = await rollup('DEVICE', other.deviceId);
    expect(device!.starts[slot]).toBe(3);
    expect(device!.ends[slot]).toBe(2);
    expect(device!.durationMs[slot]).toBe(15_000);
    expect(device!.starts.reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('stores the widget that showed a play (widgetKey, as it came), none for a play of a whole item; refuses an empty or overlong key', async () => {
    const inWidget = play({ fileId: poster.id, widgetKey: 'w-1, "a" {b}' });
    const whole = play({ fileId: poster.id });
    const res = await upload(screen, [
      inWidget,
      whole,
      play({ widgetKey: '' }),
      play({ widgetKey: 'x'.repeat(65) }),
      play({ widgetKey: 'x'.repeat(64) }),
    ]);
    expect(res.body).toMatchObject({
      accepted: 3,
      rejected: [
        { index: 2, key: 'proofOfPlay.error.invalidEvent' },
        { index: 3, key: 'proofOfPlay.error.invalidEvent' },
      ],
    });
    const stored = await execRows<{ eventId: string; widgetKey: string | null }>(
      t.db,
      sql`select event_id::text as "eventId", widget_key as "widgetKey" from play_event where event_id in (${inWidget.eventId}::uuid, ${whole.eventId}::uuid)`,
    );
    expect(Object.fromEntries(stored.map((r) => [r.eventId, r.widgetKey]))).toEqual({
      [inWidget.eventId]: 'w-1, "a" {b}',
      [whole.eventId]: null,
    });
  });

  it('stores a page id as it came, quotes, backslashes, commas and braces included', async () => {
    const pageId = 'NULL, "quoted" \\ {braces}';
    const event = play({ contentId: slide.id, pageId });
    expect((await upload(screen, [event])).body.accepted).toBe(1);
    const [row] = await execRows<{ pageId: string }>(
      t.db,
      sql`select page_id as "pageId" from play_event where event_id = ${event.eventId}::uuid`,
    );
    expect(row!.pageId).toBe(pageId);
    expect(await rollup('CONTENT_PAGE', `${slide.id}/${pageId}`)).toBeDefined();
  });

  it('counts concurrent retries of the same batch once', async () => {
    const events = Array.from({ length: 50 }, () => play());
    const answers = await Promise.all([upload(screen, events), upload(screen, events), upload(screen, events)]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(answers.reduce((sum, a) => sum + a.body.accepted, 0)).toBe(50);
    expect(answers.reduce((sum, a) => sum + a.body.duplicates, 0)).toBe(100);
  });

  it('answers 403 to an unassigned device and 401 to a user', async () => {
    const unassigned = await newDevice(t);
    expect((await upload(unassigned, [])).status).toBe(403);
    expect((await t.request('POST', '/api/display/proofOfPlay', { token: k.owner, json: [] })).status).toBe(401);
  });
});

describe('rollup rows of the ingests and their compaction', () => {
  const keyRows = (table: 'play_rollup_day' | 'play_rollup_day_total', subjectId: string) =>
    execRows<{ batch: number }>(
      t.db,
      sql`select batch::float8 as batch from ${sql.raw(table)} where customer_id = ${k.customerId} and dimension = 'DEVICE' and subject_id = ${subjectId} order by batch`,
    );

  it('adds a row a key per ingest, which the compaction merges into one (batch 0), counting every play once', async () => {
    const device = await newDevice(t, { customerId: k.customerId });
    for (const minute of [1, 2, 3])
      expect((await upload(device, [play({ startedAt: BASE + minute * MIN, endedAt: BASE + minute * MIN + 1_000 })])).body.accepted).toBe(
        1,
      );
    const batches = (await keyRows('play_rollup_day', device.deviceId)).map((r) => r.batch);
    expect(batches).toHaveLength(3);
    expect(new Set(batches).size).toBe(3);
    expect(batches).not.toContain(0);
    expect(await keyRows('play_rollup_day_total', device.deviceId)).toHaveLength(3);

    // A round takes at most `limit` rows of each table; the rest wait for the next round.
    expect(await compactPlayRollups(t.db, 1)).toEqual({ merged: 2, more: true });
    expect(await compactRollups(t.db)).toBeGreaterThanOrEqual(4);
    expect(await keyRows('play_rollup_day', device.deviceId)).toEqual([{ batch: 0 }]);
    expect(await keyRows('play_rollup_day_total', device.deviceId)).toEqual([{ batch: 0 }]);
    const slot = Math.floor((BASE % 86_400_000) / (15 * MIN));
    expect((await rollup('DEVICE', device.deviceId))!.starts[slot]).toBe(3);

    // Later rows merge into the merged one; nothing left to merge is a no-op.
    expect((await upload(device, [play({ startedAt: BASE + 4 * MIN, endedAt: BASE + 4 * MIN + 1_000, clicks: 2 })])).body.accepted).toBe(1);
    const counts = await rollup('DEVICE', device.deviceId);
    expect(counts!.starts[slot]).toBe(4);
    expect(counts!.clicks[slot]).toBe(2);
    expect(await compactRollups(t.db)).toBe(0);
  });

  it('counts every play once while ingests of one folder and compactions run at the same time', async () => {
    const screens = await Promise.all([1, 2, 3].map(() => newDevice(t, { customerId: k.customerId })));
    const folder = k.own.roots.device.id;
    const folderStarts = async () => {
      const [row] = await execRows<{ starts: number }>(
        t.db,
        sql`select coalesce(sum(starts), 0)::int as starts from play_rollup_day_total where customer_id = ${k.customerId} and dimension = 'DEVICE_GROUP' and subject_id = ${folder} and day = ${new Date(BASE).toISOString().slice(0, 10)}::date`,
      );
      return row!.starts;
    };
    const before = await folderStarts();
    const ingests = screens.flatMap((screen) =>
      [0, 1, 2].map((i) =>
        upload(
          screen,
          Array.from({ length: 20 }, (_, j) =>
            play({ startedAt: BASE + (i * 20 + j) * 1_000, endedAt: BASE + (i * 20 + j) * 1_000 + 500 }),
          ),
        ),
      ),
    );
    const compactions = [0, 1, 2, 3].map(() => compactRollups(t.db));
    const answers = await Promise.all(ingests);
    await Promise.all(compactions);
    expect(answers.map((a) => a.body.accepted)).toEqual(Array.from({ length: 9 }, () => 20));
    expect(await folderStarts()).toBe(before + 180);
    await compactRollups(t.db);
    expect(await folderStarts()).toBe(before + 180);
    const [left] = await execRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from play_rollup_day where customer_id = ${k.customerId} and batch <> 0`,
    );
    expect(left!.n).toBe(0);
    const merged = await rollup('DEVICE_GROUP', folder);
    expect(merged!.starts.reduce((a, b) => a + b, 0)).toBe(before + 180);
  });
});

describe('monthly partitions', () => {
  it('exist from a year back to three months ahead, and those older than a year are dropped whole', async () => {
    const partitions = async () =>
      (
        await execRows<{ name: string }>(
          t.db,
          sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'play_event'::regclass order by 1`,
        )
      ).map((r) => r.name);
    const month = (d: Date) => `play_event_${d.toISOString().slice(0, 7).replace('-', '_')}`;
    const now = new Date();
    expect(await partitions()).toEqual(
      expect.arrayContaining([
        month(now),
        month(new Date(now.getTime() - 360 * 86_400_000)),
        month(new Date(now.getTime() + 80 * 86_400_000)),
      ]),
    );
    const oldPlay = play({ startedAt: now.getTime() - 300 * 86_400_000, endedAt: now.getTime() - 300 * 86_400_000 + 1_000 });
    expect((await upload(screen, [oldPlay])).body.accepted).toBe(1);
    // Two years on: everything before then goes, partitions for the months ahead appear.
    const later = new Date(now.getTime() + 730 * 86_400_000);
    const { created, dropped } = await maintainPlayPartitions(t.db, later);
    expect(created).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
    const left = await partitions();
    expect(left).not.toContain(month(now));
    expect(left).toContain(month(later));
    expect(await execRows(t.db, sql`select 1 from play_event where event_id = ${oldPlay.eventId}::uuid`)).toEqual([]);
  });
});
