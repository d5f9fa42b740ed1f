import { eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import { newDevice, type TestDevice } from '@/server/modules/display/display.test-kit';
import type { TestContext } from '@/server/test/harness';
import { compactRollups } from './proof-of-play.jobs';

/** A report row as the tests read it. */
type ReportRow = {
  timestamp: number;
  readableDateTime: string;
  groupBy: { type: string; id: string | number; name: string };
  impressionStartCount: number;
  impressionEndCount: number;
};

/*
 * GET /api/v2/proof-of-display/... (spec 3 "Reporting", spec 4 §5): periods cut in the report's zone (offsets
 * of :30 and :45, DST changes), rollups and raw plays agreeing, grouping, search, sort, limit, CSV, the checks
 * of the query, tenant scope and roles.
 */

let k: CampaignsTestKit;
let t: TestContext;
let lobby: TestDevice;
let hall: TestDevice;
let poster: { id: string; name: string };
let slide: { id: string; name: string };
let channel: Record<string, any>;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const BASE_PATH = '/api/v2/proof-of-display';

const play = (startedAt: number, overrides: Record<string, unknown> = {}) => ({
  eventId: uuidv7(),
  startedAt,
  endedAt: startedAt + 10_000,
  completed: true,
  ...overrides,
});
async function upload(device: TestDevice, events: unknown[]) {
  const res = await t.request('POST', '/api/display/proofOfPlay', { token: device.token, json: events });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.rejected).toEqual([]);
}
const report = (path: string, query: Record<string, string | number>, token = k.viewer) =>
  t.request(
    'GET',
    `${BASE_PATH}${path}?${new URLSearchParams(Object.entries({ customerId: k.customerId, ...query }).map(([a, b]) => [a, String(b)]))}`,
    { token },
  );

/** The epoch ms of a wall-clock time in a zone. */
const at = (zone: string, iso: string) => Temporal.PlainDateTime.from(iso).toZonedDateTime(zone).epochMilliseconds;
/** The local date `days` days before today in `zone`. */
const daysAgo = (zone: string, days: number) => Temporal.Now.plainDateISO(zone).subtract({ days }).toString();
/** The last Sunday of `month` most recently past (at least two days ago). */
function lastSundayPast(month: number): string {
  const today = Temporal.Now.plainDateISO('UTC');
  for (const year of [today.year, today.year - 1]) {
    const end = Temporal.PlainDate.from({ year, month, day: 1 }).add({ months: 1 }).subtract({ days: 1 });
    const sunday = end.subtract({ days: end.dayOfWeek % 7 });
    if (Temporal.PlainDate.compare(sunday, today.subtract({ days: 2 })) <= 0) return sunday.toString();
  }
  throw new Error('unreachable');
}

beforeAll(async () => {
  k = await campaignsTestKit();
  t = k.t;
  lobby = await newDevice(t, { customerId: k.customerId });
  hall = await newDevice(t, { customerId: k.customerId });
  await t.db.update(devices).set({ name: 'Lobby' }).where(eq(devices.id, lobby.deviceId));
  await t.db.update(devices).set({ name: 'Hall' }).where(eq(devices.id, hall.deviceId));
  poster = await k.own.file('poster.png');
  slide = await k.own.content('Welcome');
  channel = await k.create(k.contentChannel(slide.id, { name: 'Breakfast' }));
});
afterAll(() => t.close());

describe('periods in the report zone', () => {
  it('Asia/Kolkata (+5:30): plays either side of local midnight land on their own day, DAILY, HOURLY and TOTAL', async () => {
    const zone = 'Asia/Kolkata';
    const day = daysAgo(zone, 20);
    const next = Temporal.PlainDate.from(day).add({ days: 1 }).toString();
    const midnight = at(zone, `${next}T00:00`);
    await upload(lobby, [
      play(midnight - 10 * MIN, { fileId: poster.id }),
      play(midnight + 10 * MIN, { fileId: poster.id, completed: false }),
      play(midnight + 20 * MIN, { fileId: poster.id }),
    ]);
    const from = at(zone, `${day}T00:00`);
    const to = at(zone, `${next}T12:00`);
    const daily = await report(`/device/${lobby.deviceId}`, { from, to, timeZone: zone, resolution: 'DAILY' });
    expect(daily.status, JSON.stringify(daily.body)).toBe(200);
    expect(daily.body).toMatchObject({ from, to, timeZone: zone, resolution: 'DAILY', groupBy: 'DEVICE' });
    expect(daily.body.rows).toEqual([
      expect.objectContaining({
        timestamp: from,
        readableDateTime: `${day} 00:00`,
        groupBy: { type: 'DEVICE', id: lobby.deviceId, name: 'Lobby' },
        impressionStartCount: 1,
        impressionEndCount: 1,
        duration: 10_000,
      }),
      expect.objectContaining({
        timestamp: midnight,
        readableDateTime: `${next} 00:00`,
        impressionStartCount: 2,
        impressionEndCount: 1,
        duration: 20_000,
      }),
    ]);
    const hourly = await report(`/file/${poster.id}`, { from, to, timeZone: zone, resolution: 'HOURLY' });
    expect(hourly.body.rows.map((r: ReportRow) => [r.readableDateTime, r.impressionStartCount])).toEqual([
      [`${day} 23:00`, 1],
      [`${next} 00:00`, 2],
    ]);
    const total = await report(`/device/${lobby.deviceId}`, { from: midnight, to, timeZone: zone, resolution: 'TOTAL' });
    expect(total.body.rows).toEqual([
      expect.objectContaining({ timestamp: midnight, readableDateTime: `${next} 00:00`, impressionStartCount: 2 }),
    ]);
    // The same plays through the raw events (one device by file) count the same.
    const raw = await report(`/device/${lobby.deviceId}`, { from, to, timeZone: zone, resolution: 'DAILY', groupBy: 'MEDIA_FILE' });
    expect(raw.body.rows.map((r: ReportRow) => [r.timestamp, r.groupBy, r.impressionStartCount])).toEqual([
      [from, { type: 'MEDIA_FILE', id: poster.id, name: 'poster.png' }, 1],
      [midnight, { type: 'MEDIA_FILE', id: poster.id, name: 'poster.png' }, 2],
    ]);
  });

  it('Asia/Kathmandu (+5:45): a quarter hour either side of local midnight', async () => {
    const zone = 'Asia/Kathmandu';
    const day = daysAgo(zone, 30);
    const next = Temporal.PlainDate.from(day).add({ days: 1 }).toString();
    const midnight = at(zone, `${next}T00:00`);
    expect(new Date(midnight).getUTCMinutes()).toBe(15);
    await upload(hall, [play(midnight - MIN), play(midnight), play(midnight + 14 * MIN)]);
    const res = await report(`/device/${hall.deviceId}`, {
      from: at(zone, `${day}T00:00`),
      to: at(zone, `${next}T23:00`),
      timeZone: zone,
      resolution: 'DAILY',
    });
    expect(res.body.rows.map((r: ReportRow) => [r.readableDateTime, r.impressionStartCount])).toEqual([
      [`${day} 00:00`, 1],
      [`${next} 00:00`, 2],
    ]);
    // Rollups and raw plays agree (the device by itself, and by device through the raw plays of its folder).
    const raw = await report(`/device/${hall.deviceId}`, {
      from: at(zone, `${day}T00:00`),
      to: at(zone, `${next}T23:00`),
      timeZone: zone,
      resolution: 'DAILY',
      groupBy: 'DEVICE_GROUP',
    });
    expect(raw.body.rows.map((r: ReportRow) => r.impressionStartCount)).toEqual([1, 2]);
  });

  it('Europe/Berlin across both DST changes: 23- and 25-hour days, weeks from Monday, months', async () => {
    const zone = 'Europe/Berlin';
    const device = await newDevice(t, { customerId: k.customerId });
    const fall = lastSundayPast(10);
    const spring = lastSundayPast(3);
    const fallStart = at(zone, `${fall}T00:00`);
    const fallEnd = at(zone, `${Temporal.PlainDate.from(fall).add({ days: 1 })}T00:00`);
    expect(fallEnd - fallStart).toBe(25 * HOUR);
    const springStart = at(zone, `${spring}T00:00`);
    const springEnd = at(zone, `${Temporal.PlainDate.from(spring).add({ days: 1 })}T00:00`);
    expect(springEnd - springStart).toBe(23 * HOUR);
    await upload(device, [
      play(fallStart - 5 * MIN),
      play(fallStart + 5 * MIN),
      play(fallEnd - 5 * MIN),
      play(fallEnd + 5 * MIN),
      play(springStart + 5 * MIN),
      play(springEnd - 5 * MIN),
      play(springEnd + 5 * MIN),
    ]);
    const fallDays = await report(`/device/${device.deviceId}`, {
      from: fallStart - DAY,
      to: fallEnd + DAY,
      timeZone: zone,
      resolution: 'DAILY',
    });
    expect(fallDays.body.rows.map((r: ReportRow) => [r.timestamp, r.impressionStartCount])).toEqual([
      [fallStart - DAY, 1], // the Saturday: 24 hours, all on summer time
      [fallStart, 2],
      [fallEnd, 1],
    ]);
    const springDays = await report(`/device/${device.deviceId}`, {
      from: springStart,
      to: springEnd + DAY,
      timeZone: zone,
      resolution: 'DAILY',
    });
    expect(springDays.body.rows.map((r: ReportRow) => [r.readableDateTime, r.impressionStartCount])).toEqual([
      [`${spring} 00:00`, 2],
      [`${Temporal.PlainDate.from(spring).add({ days: 1 })} 00:00`, 1],
    ]);
    // The fall-back night has two 02:00 hours; each is its own row.
    const hours = await report(`/device/${device.deviceId}`, { from: fallStart, to: fallEnd, timeZone: zone, resolution: 'HOURLY' });
    expect(hours.body.rows.map((r: ReportRow) => r.readableDateTime)).toEqual([`${fall} 00:00`, `${fall} 23:00`]);
    // Weeks start on Monday: the Sunday belongs to the week before it.
    const weeks = await report(`/device/${device.deviceId}`, {
      from: fallStart - DAY,
      to: fallEnd + DAY,
      timeZone: zone,
      resolution: 'WEEKLY',
    });
    const weekStart = Temporal.PlainDate.from(fall).subtract({ days: 6 }).toString();
    expect(weeks.body.rows.map((r: ReportRow) => [r.readableDateTime, r.impressionStartCount])).toEqual([
      [`${weekStart} 00:00`, 3],
      [`${Temporal.PlainDate.from(fall).add({ days: 1 })} 00:00`, 1],
    ]);
    const months = await report(`/device/${device.deviceId}`, {
      from: fallStart - DAY,
      to: fallEnd + DAY,
      timeZone: zone,
      resolution: 'MONTHLY',
    });
    const monday = Temporal.PlainDate.from(fall).add({ days: 1 });
    const october = `${fall.slice(0, 8)}01 00:00`;
    expect(months.body.rows.map((r: ReportRow) => [r.readableDateTime, r.impressionStartCount])).toEqual(
      monday.month === 10
        ? [[october, 4]]
        : [
            [october, 3],
            [`${monday.toString().slice(0, 8)}01 00:00`, 1],
          ],
    );
  });
});

describe('grouping, search, sort, limit, top played and CSV', () => {
  let from: number;
  beforeAll(async () => {
    const zone = 'UTC';
    from = at(zone, `${daysAgo(zone, 5)}T00:00`);
    await upload(lobby, [
      play(from + HOUR, { campaignId: channel.id, contentId: slide.id, pageId: 'Intro', clicks: 2, viewers: 4, attentionMs: 5_000 }),
      play(from + 2 * HOUR, { campaignId: channel.id, contentId: slide.id, pageId: 'Menu', viewers: 1, attentionMs: 1_000 }),
      play(from + 3 * HOUR, { campaignId: channel.id, fileId: poster.id }),
    ]);
    await upload(hall, [play(from + HOUR, { campaignId: channel.id, contentId: slide.id, pageId: 'Intro' })]);
  });
  const q = (extra: Record<string, string | number> = {}) => ({ from, to: from + DAY, timeZone: 'UTC', ...extra });

  it('all devices by device, sorted by timestamp then name; search on the name; sort and limit', async () => {
    const all = await report('/device/all', q({ resolution: 'TOTAL' }));
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.rows.map((r: ReportRow) => [r.groupBy.name, r.impressionStartCount])).toEqual([
      ['Hall', 1],
      ['Lobby', 3],
    ]);
    expect(
      (await report('/device/all', q({ resolution: 'TOTAL', search: 'lob' }))).body.rows.map((r: ReportRow) => r.groupBy.name),
    ).toEqual(['Lobby']);
    expect(
      (await report('/device/all', q({ resolution: 'TOTAL', sort: 'impressionStartCount,desc' }))).body.rows.map(
        (r: ReportRow) => r.groupBy.name,
      ),
    ).toEqual(['Lobby', 'Hall']);
    expect((await report('/device/all', q({ resolution: 'TOTAL', limit: 1 }))).body.rows).toHaveLength(1);
    expect((await report('/device/all', q({ sort: 'nope,asc' }))).status).toBe(400);
    expect((await report('/device/all', q({ limit: 0 }))).status).toBe(400);
  });

  it('counters, ratios and every groupBy (CAMPAIGN ids are numbers; CONTENT_PAGE named after its content; ASSET the file or the content)', async () => {
    const byPage = await report(`/campaign/${channel.id}`, q({ resolution: 'TOTAL', groupBy: 'CONTENT_PAGE' }));
    expect(byPage.body.rows).toEqual([
      expect.objectContaining({
        groupBy: { type: 'CONTENT_PAGE', id: `${slide.id}/Intro`, name: 'Welcome / Intro' },
        impressionStartCount: 2,
        clickCount: 2,
        viewerCount: 4,
        viewerAttention: 5_000,
      }),
      expect.objectContaining({
        groupBy: { type: 'CONTENT_PAGE', id: `${slide.id}/Menu`, name: 'Welcome / Menu' },
        impressionStartCount: 1,
      }),
    ]);
    const campaign = await report(`/campaign/${channel.id}`, q({ resolution: 'TOTAL' }));
    expect(campaign.body.rows).toEqual([
      {
        timestamp: from,
        readableDateTime: expect.stringMatching(/ 00:00$/),
        groupBy: { type: 'CAMPAIGN', id: channel.id, name: 'Breakfast' },
        duration: 40_000,
        impressionStartCount: 4,
        impressionEndCount: 4,
        clickCount: 2,
        viewerCount: 5,
        viewerAttention: 6_000,
        viewerAttentionRatio: 6_000 / 40_000,
        viewerAverageAttention: 6_000 / 5,
      },
    ]);
    const assets = await report('/campaign/all', q({ resolution: 'TOTAL', groupBy: 'ASSET', search: 'e' }));
    // (Name order follows the database's collation: compared as a set.)
    expect(assets.body.rows.map((r: ReportRow) => [r.groupBy.type, r.groupBy.id, r.groupBy.name, r.impressionStartCount])).toEqual(
      expect.arrayContaining([
        ['ASSET', poster.id, 'poster.png', 1],
        ['ASSET', slide.id, 'Welcome', 3],
      ]),
    );
    expect(assets.body.rows).toHaveLength(2);
    const byDevice = await report(`/content/${slide.id}`, q({ resolution: 'TOTAL', groupBy: 'DEVICE' }));
    expect(byDevice.body.rows.map((r: ReportRow) => [r.groupBy.name, r.impressionStartCount])).toEqual([
      ['Hall', 1],
      ['Lobby', 2],
    ]);
    expect((await report('/content/all', q({ groupBy: 'BOGUS' }))).status).toBe(400);
    expect((await report('/content/all', q({ resolution: 'YEARLY' }))).status).toBe(400);
  });

  it('top played: by impressionStartCount descending, limit default 10', async () => {
    const top = await report('/campaign/dashboard/top/played', q());
    expect(top.body).toMatchObject({ resolution: 'TOTAL', groupBy: 'CAMPAIGN' });
    expect(top.body.rows.map((r: ReportRow) => [r.groupBy.id, r.impressionStartCount])).toEqual([[channel.id, 4]]);
    const files = await report('/content/dashboard/top/played', q({ groupBy: 'DEVICE', limit: 1 }));
    expect(files.body.rows.map((r: ReportRow) => [r.groupBy.name, r.impressionStartCount])).toEqual([['Lobby', 3]]);
  });

  it('/csv answers the same rows as text/csv with a header line', async () => {
    const res = await t.app.request(
      `${BASE_PATH}/device/all/csv?customerId=${k.customerId}&from=${from}&to=${from + DAY}&timeZone=UTC&resolution=TOTAL`,
      { headers: { authorization: `Bearer ${k.viewer}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe(
      'timestamp,readableDateTime,groupByType,groupById,groupByName,duration,impressionStartCount,impressionEndCount,clickCount,viewerCount,viewerAttention,viewerAttentionRatio,viewerAverageAttention',
    );
    expect(lines.slice(1, -1).map((l) => l.split(',').slice(2, 7))).toEqual([
      ['DEVICE', hall.deviceId, 'Hall', '10000', '1'],
      ['DEVICE', lobby.deviceId, 'Lobby', '30000', '3'],
    ]);
    expect(lines.at(-1)).toBe('');
  });
});

describe('groupBy WIDGET (spec 4 §5 widgetKey)', () => {
  it('groups the plays by the slide widget that showed them, plays without one as "(whole page)", in every report and its CSV', async () => {
    const screen = await newDevice(t, { customerId: k.customerId });
    const from = at('UTC', `${daysAgo('UTC', 12)}T00:00`);
    await upload(screen, [
      play(from + HOUR, { campaignId: channel.id, contentId: slide.id }),
      play(from + HOUR + MIN, { fileId: poster.id, widgetKey: 'w-poster' }),
      play(from + HOUR + 2 * MIN, { fileId: poster.id, widgetKey: 'w-poster', completed: false }),
      play(from + 2 * HOUR, { campaignId: channel.id, contentId: slide.id, widgetKey: 'w-ticker' }),
    ]);
    const q = (extra: Record<string, string | number> = {}) => ({
      from,
      to: from + DAY,
      timeZone: 'UTC',
      resolution: 'TOTAL',
      groupBy: 'WIDGET',
      ...extra,
    });
    const rows = async (path: string, extra: Record<string, string | number> = {}) => {
      const res = await report(path, q(extra));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.groupBy).toBe('WIDGET');

      return res.body.rows.map((r: ReportRow) => [
        r.groupBy.type,
        r.groupBy.id,
        r.groupBy.name,
        r.impressionStartCount,
        r.impressionEndCount,
      ]);
    };
    const wholePage = ['WIDGET', '', '(whole page)', 1, 1];
    const posterWidget = ['WIDGET', 'w-poster', 'w-poster', 2, 1];
    const tickerWidget = ['WIDGET', 'w-ticker', 'w-ticker', 1, 1];
    // (Name order follows the database's collation: compared as sets.)
    for (const path of ['/device/all', `/device/${screen.deviceId}`, '/content/dashboard/top/played']) {
      const all = await rows(path);
      expect(all, path).toEqual(expect.arrayContaining([wholePage, posterWidget, tickerWidget]));
      expect(all, path).toHaveLength(3);
    }
    expect(await rows(`/campaign/${channel.id}`)).toEqual(expect.arrayContaining([wholePage, tickerWidget]));
    expect(await rows(`/file/${poster.id}`)).toEqual([posterWidget]);
    expect(await rows('/device/all', { search: 'poster' })).toEqual([posterWidget]);
    expect(await rows('/device/all', { search: 'whole' })).toEqual([wholePage]);
    const hourly = await report(`/device/${screen.deviceId}`, q({ resolution: 'HOURLY', sort: 'impressionStartCount,desc' }));
    expect(hourly.body.rows.map((r: ReportRow) => [r.timestamp, r.groupBy.id, r.impressionStartCount])).toEqual([
      [from + HOUR, 'w-poster', 2],
      [from + HOUR, '', 1],
      [from + 2 * HOUR, 'w-ticker', 1],
    ]);

    const csv = await t.app.request(
      `${BASE_PATH}/device/all/csv?${new URLSearchParams(Object.entries({ customerId: k.customerId, ...q() }).map(([a, b]) => [a, String(b)]))}`,
      { headers: { authorization: `Bearer ${k.viewer}` } },
    );
    expect(csv.status).toBe(200);
    const lines = (await csv.text())
      .split('\r\n')
      .slice(1, -1)
      .map((l) => l.split(',').slice(2, 8));
    expect(lines).toEqual(
      expect.arrayContaining([
        ['WIDGET', '', '(whole page)', '10000', '1', '1'],
        ['WIDGET', 'w-poster', 'w-poster', '20000', '2', '1'],
        ['WIDGET', 'w-ticker', 'w-ticker', '10000', '1', '1'],
      ]),
    );
    expect(lines).toHaveLength(3);
  });
});

describe('groupBy WIDGET: plays of datasource widgets (issue 30)', () => {
  it("counts events naming a widget alone (the web player's datasource widgets) under its key, and no slide, file or asset", async () => {
    const screen = await newDevice(t, { customerId: k.customerId });
    const from = at('UTC', `${daysAgo('UTC', 15)}T00:00`);
    const res = await t.request('POST', '/api/display/proofOfPlay', {
      token: screen.token,
      json: [
        play(from + HOUR, { campaignId: channel.id, contentId: slide.id }),
        play(from + HOUR, { widgetKey: 'w-prices' }),
        play(from + HOUR + 10_000, { widgetKey: 'w-prices', completed: false }),
        play(from + HOUR, { widgetKey: 'w-news' }),
      ],
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 4, duplicates: 0, rejected: [] });
    const rows = async (groupBy: string, path = `/device/${screen.deviceId}`) => {
      const answer = await report(path, { from, to: from + DAY, timeZone: 'UTC', resolution: 'TOTAL', groupBy });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);

      return answer.body.rows.map((r: ReportRow) => [r.groupBy.id, r.groupBy.name, r.impressionStartCount, r.impressionEndCount]);
    };
    const widgets = await rows('WIDGET');
    expect(widgets).toEqual(
      expect.arrayContaining([
        ['', '(whole page)', 1, 1],
        ['w-prices', 'w-prices', 2, 1],
        ['w-news', 'w-news', 1, 1],
      ]),
    );
    expect(widgets).toHaveLength(3);
    expect(await rows('WIDGET', '/device/all')).toEqual(expect.arrayContaining([['w-prices', 'w-prices', 2, 1]]));
    // The slide counts once: the widgets' plays name no content, file or channel.
    expect(await rows('CONTENT')).toEqual([[slide.id, 'Welcome', 1, 1]]);
    expect(await rows('ASSET')).toEqual([[slide.id, 'Welcome', 1, 1]]);
    expect(await rows('WIDGET', `/campaign/${channel.id}`)).toEqual([['', '(whole page)', 1, 1]]);
  });

  it('writes a widget key a screen sent as a formula as text in the CSV', async () => {
    const screen = await newDevice(t, { customerId: k.customerId });
    const from = at('UTC', `${daysAgo('UTC', 16)}T00:00`);
    const formula = '=HYPERLINK("http://evil.example","x")';
    const res = await t.request('POST', '/api/display/proofOfPlay', {
      token: screen.token,
      json: [play(from + HOUR, { widgetKey: formula })],
    });
    expect(res.body).toMatchObject({ accepted: 1 });
    const query = new URLSearchParams({
      customerId: String(k.customerId),
      from: String(from),
      to: String(from + DAY),
      timeZone: 'UTC',
      resolution: 'TOTAL',
      groupBy: 'WIDGET',
    });
    const csv = await t.app.request(`${BASE_PATH}/device/${screen.deviceId}/csv?${query}`, {
      headers: { authorization: `Bearer ${k.viewer}` },
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});

describe('checks, tenant scope and roles', () => {
  const now = Date.now();
  const base = { from: now - DAY, timeZone: 'UTC' };

  it('400: no customerId, no from, a zone that is not IANA, a window over 3 months, to before from', async () => {
    const bare = await t.request('GET', `${BASE_PATH}/device/all?from=${now - DAY}&timeZone=UTC`, { token: k.viewer });
    expect(bare.status).toBe(400);
    expect((await report('/device/all', { timeZone: 'UTC' })).status).toBe(400);
    for (const timeZone of ['+05:30', 'IST', 'Mars/Olympus', '', 'europe/berlin']) {
      const res = await report('/device/all', { ...base, timeZone });
      expect(res.body, timeZone).toMatchObject({ status: 400, key: 'request.error.invalid', details: { issues: [{ path: 'timeZone' }] } });
    }
    for (const timeZone of ['Asia/Kolkata', 'Asia/Calcutta', 'Etc/GMT-14'])
      expect((await report('/device/all', { ...base, timeZone })).status, timeZone).toBe(200);
    const long = await report('/device/all', { from: now - 93 * DAY, timeZone: 'UTC' });
    expect(long.body).toMatchObject({ status: 400, key: 'proofOfDisplay.error.windowTooLong' });
    expect((await report('/device/all', { from: now - 80 * DAY, timeZone: 'UTC' })).status).toBe(200);
    expect((await report('/device/all', { ...base, to: now - 2 * DAY })).body).toMatchObject({
      status: 400,
      key: 'request.error.invalidCombination',
      details: { parameter: 'to' },
    });
    expect((await report('/device/all', { ...base, from: 'yesterday' })).status).toBe(400);
  });

  it("another tenant's customerId is 403; another tenant's, an unknown or a malformed entity id is 404; a deleted one still reports", async () => {
    expect((await report('/device/all', { ...base, customerId: k.otherCustomerId })).status).toBe(403);
    const theirs = await newDevice(t, { customerId: k.otherCustomerId });
    expect((await report(`/device/${theirs.deviceId}`, base)).status).toBe(404);
    expect((await report(`/device/${uuidv7()}`, base)).status).toBe(404);
    expect((await report('/device/not-a-uuid', base)).status).toBe(404);
    expect((await report('/campaign/12abc', base)).status).toBe(404);
    const theirFile = await k.other.file('theirs.png');
    expect((await report(`/file/${theirFile.id}`, base)).status).toBe(404);
    // 404 comes first, whatever else the service checks is wrong (here a window over 3 months).
    expect((await report(`/file/${theirFile.id}`, { timeZone: 'UTC', from: 1 })).status).toBe(404);

    const gone = await k.own.file('gone.png');
    await upload(lobby, [play(now - HOUR, { fileId: gone.id })]);
    expect((await t.request('DELETE', `/api/file/${gone.id}`, { token: k.owner })).status).toBe(204);
    const res = await report(`/file/${gone.id}`, { ...base, resolution: 'TOTAL' });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([
      expect.objectContaining({ groupBy: { type: 'MEDIA_FILE', id: gone.id, name: 'gone.png' }, impressionStartCount: 1 }),
    ]);
  });

  it('VIEWER reads; DEVICE_USER is refused; ADMIN names the customer', async () => {
    expect((await report('/message/12345678', base)).status).toBe(404);
    const deviceUser = (await t.actor('DEVICE_USER', { customerId: k.customerId })).token;
    expect((await report('/device/all', base, deviceUser)).status).toBe(403);
    const admin = (await t.actor('ADMIN')).token;
    expect((await report('/device/all', base, admin)).status).toBe(200);
    expect((await report('/device/all', { ...base, customerId: -1 }, admin)).body).toMatchObject({
      status: 400,
      key: 'request.error.customerIdRequired',
    });
  });
});

describe("the advertiser's proof-of-play CSV (exportHistoryAsCSV)", () => {
  it('lists every play of its channels, newest first, in ISO-8601 UTC, across keyset pages; disabled links refuse it', async () => {
    const adv = await t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Acme', enabled: true } });
    const ads = await k.create(k.contentChannel(slide.id, { name: 'Ads, "big"', advertiserId: adv.body.id }));
    const links = await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.body.id}`, { token: k.owner });
    const url = new URL(links.body.exportHistoryAsCSV as string);
    const exportCsv = () => t.app.request(`${url.pathname}${url.search}`);
    expect(await (await exportCsv()).text()).toBe('startedAt,endedAt,durationMs,deviceName,campaignName,contentName,fileName\r\n');

    // 2 100 plays in threes of the same instant (two devices), so keyset pages of 1 000 cut through ties.
    const start = Date.now() - 10 * DAY;
    const lobbyPlays = Array.from({ length: 1_400 }, (_, i) =>
      play(start + Math.floor(i / 2) * 1_000, { campaignId: ads.id, contentId: slide.id }),
    );
    const hallPlays = Array.from({ length: 700 }, (_, i) =>
      play(start + i * 1_000, { campaignId: ads.id, fileId: poster.id, endedAt: start + i * 1_000 + 2_500 }),
    );
    await upload(lobby, lobbyPlays);
    await upload(hall, hallPlays);
    await upload(hall, [play(start, { campaignId: channel.id })]); // another channel (no advertiser): not listed

    const res = await exportCsv();
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(2_100);
    const starts = lines.map((l) => Date.parse(l.split(',')[0]!));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    // Every instant exactly three times: no play lost or repeated where a page ends inside a tie.
    const perInstant = new Map<number, number>();
    for (const s of starts) perInstant.set(s, (perInstant.get(s) ?? 0) + 1);
    expect(perInstant.size).toBe(700);
    expect([...perInstant.values()].every((n) => n === 3)).toBe(true);
    const newest = start + 699 * 1_000;
    expect(lines.filter((l) => l.startsWith(new Date(newest).toISOString()))).toEqual(
      expect.arrayContaining([
        `${new Date(newest).toISOString()},${new Date(newest + 10_000).toISOString()},10000,Lobby,"Ads, ""big""",Welcome,`,
        `${new Date(newest).toISOString()},${new Date(newest + 2_500).toISOString()},2500,Hall,"Ads, ""big""",,poster.png`,
      ]),
    );

    await t.request('PUT', `/api/adv/disableProofOfPlayLinks?advId=${adv.body.id}`, { token: k.owner });
    expect((await exportCsv()).status).toBe(401);
  });
});

describe('names: the current one while the item exists, the last one once it is deleted (spec 4 §5)', () => {
  it("a channel, a content item, a file and a screen renamed after their plays, then deleted, are reported under their new names: reports, their CSVs and the advertiser's CSV", async () => {
    const put = async (path: string, json: Record<string, unknown>) =>
      expect((await t.request('PUT', path, { token: k.owner, json })).status, path).toBe(200);
    const remove = async (path: string) => expect((await t.request('DELETE', path, { token: k.owner })).status, path).toBe(204);
    const adv = (await t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Renames', enabled: true } })).body;
    const content = await k.own.content('Old content');
    const file = await k.own.file('old-file.png');
    const screen = await newDevice(t, { customerId: k.customerId });
    await put(`/api/device/${screen.deviceId}`, { name: 'Old screen' });
    const campaign = await k.create(k.contentChannel(content.id, { name: 'Old channel', advertiserId: adv.id }));
    const now = Date.now();
    await upload(screen, [
      play(now - HOUR, { campaignId: campaign.id, contentId: content.id }),
      play(now - HOUR + MIN, { campaignId: campaign.id, fileId: file.id }),
    ]);
    const links = await t.request('PUT', `/api/adv/enableProofOfPlayLinks?advId=${adv.id}`, { token: k.owner });
    const exportUrl = new URL(links.body.exportHistoryAsCSV as string);

    const query = { from: now - DAY, timeZone: 'UTC', resolution: 'TOTAL' };
    const csvNames = async (path: string) => {
      const res = await t.app.request(
        `${BASE_PATH}${path}/csv?${new URLSearchParams(Object.entries({ customerId: k.customerId, ...query }).map(([a, b]) => [a, String(b)]))}`,
        { headers: { authorization: `Bearer ${k.viewer}` } },
      );
      expect(res.status, path).toBe(200);

      return (await res.text())
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',')[4]);
    };
    const names = async () => {
      const rows = async (path: string, extra: Record<string, string> = {}) => {
        const res = await report(path, { ...query, ...extra });
        expect(res.status, path).toBe(200);

        return res.body.rows.map((r: ReportRow) => r.groupBy.name).sort();
      };
      const played = (await (await t.app.request(`${exportUrl.pathname}${exportUrl.search}`)).text())
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',').slice(3).join(','));

      return {
        campaign: await rows(`/campaign/${campaign.id}`),
        content: await rows(`/content/${content.id}`),
        file: await rows(`/file/${file.id}`),
        device: await rows(`/device/${screen.deviceId}`),
        assets: await rows(`/device/${screen.deviceId}`, { groupBy: 'ASSET' }),
        csv: [
          ...(await csvNames(`/campaign/${campaign.id}`)),
          ...(await csvNames(`/content/${content.id}`)),
          ...(await csvNames(`/file/${file.id}`)),
          ...(await csvNames(`/device/${screen.deviceId}`)),
        ],
        advertiserCsv: played.sort(),
      };
    };
    const named = (channel: string, item: string, image: string, device: string) => ({
      campaign: [channel],
      content: [item],
      file: [image],
      device: [device],
      assets: [item, image].sort(),
      csv: [channel, item, image, device],
      advertiserCsv: [`${device},${channel},${item},`, `${device},${channel},,${image}`].sort(),
    });
    expect(await names()).toEqual(named('Old channel', 'Old content', 'old-file.png', 'Old screen'));

    // Renamed after the plays: reported under the current names.
    await put(`/api/campaign/${campaign.id}`, { name: 'New channel' });
    await put(`/api/simpleLoop/${content.id}`, { name: 'New content' });
    await put(`/api/file/${file.id}`, { name: 'new-file.png' });
    await put(`/api/device/${screen.deviceId}`, { name: 'New screen' });
    expect(await names()).toEqual(named('New channel', 'New content', 'new-file.png', 'New screen'));

    // Then deleted: still under the last names.
    await remove(`/api/campaign/${campaign.id}`);
    await remove(`/api/simpleLoop/${content.id}`);
    await remove(`/api/file/${file.id}`);
    await remove(`/api/device/${screen.deviceId}`);
    expect(await names()).toEqual(named('New channel', 'New content', 'new-file.png', 'New screen'));
  });
});

describe('narrowing by device folder and advertiser (query extensions)', () => {
  it("deviceGroupId counts the plays on screens in the folder or below it; advertiserId the plays of the advertiser's channels; unknown or foreign ids are 404", async () => {
    const region = await k.own.deviceFolder('Region');
    const store = await k.own.deviceFolder('Store', region);
    const kiosk = await newDevice(t, { customerId: k.customerId });
    const other = await newDevice(t, { customerId: k.customerId });
    await t.db
      .update(devices)
      .set({ name: 'Kiosk', deviceGroupId: store.id, groupPath: [k.own.roots.device.id, region.id, store.id] })
      .where(eq(devices.id, kiosk.deviceId));
    await t.db.update(devices).set({ name: 'Elsewhere' }).where(eq(devices.id, other.deviceId));
    const adv = await t.request('POST', '/api/adv', { token: k.owner, json: { name: 'Narrow Co', enabled: true } });
    const paid = await k.create(k.contentChannel(slide.id, { name: 'Paid spot', advertiserId: adv.body.id }));
    const from = at('UTC', `${daysAgo('UTC', 30)}T00:00`);
    await upload(kiosk, [play(from + HOUR, { campaignId: paid.id }), play(from + 2 * HOUR, { campaignId: channel.id })]);
    await upload(other, [play(from + HOUR, { campaignId: paid.id })]);
    const q = (extra: Record<string, string | number>) => ({ from, to: from + DAY, timeZone: 'UTC', resolution: 'TOTAL', ...extra });
    const names = (res: { status: number; body: any }) => {
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      return res.body.rows.map((r: ReportRow) => [r.groupBy.name, r.impressionStartCount]);
    };

    expect(names(await report('/device/all', q({ deviceGroupId: region.id })))).toEqual([['Kiosk', 2]]);
    expect(names(await report('/campaign/all', q({ deviceGroupId: store.id })))).toEqual([
      ['Breakfast', 1],
      ['Paid spot', 1],
    ]);
    expect(names(await report('/device/all', q({ advertiserId: adv.body.id })))).toEqual([
      ['Elsewhere', 1],
      ['Kiosk', 1],
    ]);
    expect(
      names(await report(`/campaign/${paid.id}`, q({ groupBy: 'DEVICE', deviceGroupId: region.id, advertiserId: adv.body.id }))),
    ).toEqual([['Kiosk', 1]]);
    expect((await report('/device/all', q({ deviceGroupId: k.other.roots.device.id }))).status).toBe(404);
    expect((await report('/device/all', q({ advertiserId: uuidv7() }))).status).toBe(404);
    expect((await report('/device/all', q({ deviceGroupId: 'not-a-folder' }))).status).toBe(404);
  });
});

describe('rollups and raw plays agree (property)', () => {
  /** A small seeded generator (mulberry32), so a failing case can be replayed. */
  function random(seed: number) {
    let a = seed;

    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let x = Math.imul(a ^ (a >>> 15), 1 | a);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;

      return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
    };
  }

  it('in zones on :00, :30 and :45 offsets (with and without DST), every resolution, windows not on boundaries', async () => {
    const seed = 15;
    const next = random(seed);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
    const zones = [
      'UTC',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'America/St_Johns',
      'Europe/Berlin',
      'Australia/Adelaide',
      'Australia/Eucla',
      'Pacific/Marquesas',
      'America/Los_Angeles',
    ];
    const device = await newDevice(t, { customerId: k.customerId });
    const span = 40 * DAY;
    const end = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    // Plays anywhere in the last 40 days, some on quarter-hour boundaries and a minute either side of them.
    const starts = Array.from({ length: 120 }, () => {
      const at = end - Math.floor(next() * span);
      const quarter = Math.floor(at / (15 * MIN)) * 15 * MIN;

      return pick([at, quarter, quarter - MIN, quarter + MIN]);
    });
    const plays = starts.map((s) =>
      play(s, {
        completed: next() < 0.7,
        clicks: Math.floor(next() * 3),
        viewers: Math.floor(next() * 2),
        attentionMs: Math.floor(next() * 5_000),
      }),
    );
    // In three calls: a subject's day is counted in up to three rows of the ingests until the compaction merges them.
    for (const part of [plays.slice(0, 40), plays.slice(40, 80), plays.slice(80)]) await upload(device, part);
    const counters = (rows: any[]) =>
      rows.map((r) => [
        r.timestamp,
        r.groupBy.id,
        r.impressionStartCount,
        r.impressionEndCount,
        r.duration,
        r.clickCount,
        r.viewerCount,
        r.viewerAttention,
      ]);
    for (let i = 0; i < 12; i++) {
      // The first half reads the ingests' rows, the second the merged ones.
      if (i === 6) expect(await compactRollups(t.db)).toBeGreaterThan(0);
      const zone = i < zones.length ? zones[i]! : pick(zones);
      const resolution = pick(['HOURLY', 'DAILY', 'DAILY', 'WEEKLY', 'MONTHLY', 'TOTAL'] as const);
      const from = end - span - DAY + Math.floor(next() * 20 * DAY);
      const to = Math.min(from + Math.floor(next() * (resolution === 'HOURLY' ? 5 : 45) * DAY), end + DAY);
      const query = { from, to, timeZone: zone, resolution };
      const rollups = await report(`/device/${device.deviceId}`, query);
      // Narrowed by the device's folder, the same report counts the raw plays.
      const raw = await report(`/device/${device.deviceId}`, { ...query, groupBy: 'DEVICE', deviceGroupId: k.own.roots.device.id });
      expect(rollups.status, JSON.stringify(rollups.body)).toBe(200);
      expect(counters(rollups.body.rows), `seed ${seed} case ${i}: ${JSON.stringify(query)}`).toEqual(counters(raw.body.rows));
      expect(rollups.body.rows.length, `seed ${seed} case ${i}`).toBeGreaterThan(0);
    }
  }, 120_000);
});
