import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { deviceChangeListeners, type DeviceChange } from '@/server/modules/devices/device-changes';
import { devices } from '@/server/modules/devices/devices.table';
import { insertFile } from '@/server/modules/files/files.test-kit';
import { devicesAffectedBy, manifestEtag, manifestEtags } from './manifest';
import type { TestContext } from '@/server/test/harness';
import type { Manifest, PlaybackExplanation, Segment } from './display.schemas';
import { newDevice, type TestDevice } from './display.test-kit';

/*
 * Channels and schedules reach the screens: the manifest, the console's schedule and explain resolve the
 * tenant's campaigns for the device through the one resolver (spec 4 §4), in the device's time zone.
 */

let k: CampaignsTestKit;
let t: TestContext;
let screen: TestDevice;
let lobby: { id: string };
let poster: { id: string; name: string };
let channel: Record<string, any>;
let disabled: Record<string, any>;
let elsewhere: Record<string, any>;
let schedule: Record<string, any>;

const H = 3_600_000;
// 2030-01-01 00:00 in Europe/Berlin (UTC+1 in winter).
const JAN1 = Date.UTC(2029, 11, 31, 23);

beforeAll(async () => {
  k = await campaignsTestKit();
  t = k.t;
  lobby = await k.own.deviceFolder('Lobby');
  const hall = await k.own.deviceFolder('Hall');
  screen = await newDevice(t, { customerId: k.customerId });
  await t.db
    .update(devices)
    .set({ timeZone: 'Europe/Berlin', deviceGroupId: lobby.id, groupPath: [k.own.roots.device.id, lobby.id] })
    .where(eq(devices.id, screen.deviceId));
  poster = await k.own.file('poster.png');
  const slide = await k.own.content('Welcome');
  const assets = {
    type: 'ASSETS_STATIC',
    defaultDuration: 8,
    orderingMode: 'DEFAULT',
    fileAssignment: { assignments: [{ fileId: poster.id, weight: 1 }] },
  };
  channel = await k.create({
    ...k.contentChannel(slide.id, {}, [lobby.id]),
    ...assets,
    contentAssignment: undefined,
    contentShuffleMode: undefined,
    name: 'Posters',
    weight: 1,
  });
  disabled = await k.create({ ...k.contentChannel(slide.id, {}, [lobby.id]), name: 'Switched off', enabled: false });
  elsewhere = await k.create({ ...k.contentChannel(slide.id, {}, [hall.id]), name: 'Hall only' });
  schedule = await k.create({
    ...k.contentChannel(slide.id, {}, [lobby.id]),
    name: 'New year',
    level: 'TOP',
    affectedDateRanges: { intervals: [{ from: '2030-01-02', to: '2030-01-02', isExcluded: false }] },
  });
});
afterAll(() => t.close());

const scheduleOf = async (from: number, to: number, token = k.viewer) => {
  const res = await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule?from=${from}&to=${to}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body.segments as Segment[];
};

describe('channels and schedules in the resolution', () => {
  it('lists the eligible channels with their items, and the schedule in its local day', async () => {
    const segments = await scheduleOf(JAN1, JAN1 + 72 * H);
    expect(segments.map((s) => [s.layer, s.from - JAN1, s.to - JAN1])).toEqual([
      ['CHANNELS', 0, 24 * H],
      ['SCHEDULE', 24 * H, 48 * H],
      ['CHANNELS', 48 * H, 72 * H],
    ]);
    expect(segments[1]!.content).toMatchObject({ name: 'Welcome' });
    expect(segments[0]!.channels.map((c) => c.name)).toEqual(['Posters']);
    expect(segments[0]!.channels[0]!.items).toEqual([{ type: 'FILE', id: poster.id, name: poster.name, durationMs: 8000 }]);
  });

  it('hands the channel files to the device in its manifest, and its ETag moves when the channel changes', async () => {
    const first = await t.request('GET', '/api/display/manifest', { token: screen.token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const manifest = first.body as Manifest;
    expect(manifest.segments.some((s) => s.channels.some((c) => c.campaignId === channel.id))).toBe(true);
    expect(manifest.files[poster.id]).toMatchObject({ id: poster.id, name: 'poster.png' });
    expect(manifest.files[poster.id]!.url).toContain('token=');

    const put = await t.request('PUT', `/api/campaign/${channel.id}`, { token: k.approver, json: { defaultDuration: 12 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const second = (await t.request('GET', '/api/display/manifest', { token: screen.token })).body as Manifest;
    expect(second.etag).not.toBe(manifest.etag);
    expect(second.segments[0]!.channels.find((c) => c.campaignId === channel.id)!.items[0]!.durationMs).toBe(12_000);

    // The ETag stands for what decides the manifest: a channel of another folder changing leaves it alone.
    const other = await t.request('PUT', `/api/campaign/${elsewhere.id}`, { token: k.approver, json: { defaultDuration: 14 } });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const third = await t.request('GET', '/api/display/manifest', {
      token: screen.token,
      headers: { 'if-none-match': `"${second.etag}"` },
    });
    expect(third.status).toBe(304);
  });

  it('explains every campaign of the tenant: why it plays or does not', async () => {
    const at = JAN1 + 30 * H;
    const res = await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule/explain?at=${at}`, { token: k.viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as PlaybackExplanation;
    expect(body.layer).toBe('SCHEDULE');
    const byName = Object.fromEntries(body.campaigns.map((c) => [c.name, c]));
    expect(byName.Posters).toMatchObject({ eligible: true, reasons: [] });
    expect(byName['New year']).toMatchObject({ level: 'TOP', eligible: true });
    expect(byName['Switched off']).toMatchObject({ eligible: false, reasons: ['DISABLED'] });
    expect(byName['Hall only']).toMatchObject({ eligible: false, reasons: ['NOT_TARGETED'] });
    expect(body.campaigns.map((c) => c.id)).toEqual(expect.arrayContaining([channel.id, disabled.id, elsewhere.id, schedule.id]));
    // A day later the schedule is outside its date ranges.
    const later = (await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule/explain?at=${at + 24 * H}`, { token: k.viewer }))
      .body as PlaybackExplanation;
    expect(later.layer).toBe('CHANNELS');
    expect(later.campaigns.find((c) => c.name === 'New year')).toMatchObject({ eligible: false, reasons: ['OUTSIDE_DATE_RANGES'] });
  });

  it('plays the files of an assigned folder and its subfolders that meet the tag condition', async () => {
    const media = await k.own.fileFolder('Campaign media');
    const sub = await k.own.fileFolder('Week 1', media);
    await insertFile(t.db, media, { name: 'a-promo.png', tags: ['promo'] });
    await insertFile(t.db, sub, { name: 'b-promo.png', tags: ['promo', 'summer'] });
    await insertFile(t.db, sub, { name: 'c-internal.png', tags: ['internal'] });
    const dynamic = await k.create({
      name: 'Folder channel',
      level: 'WIDGET',
      type: 'ASSETS_DYNAMIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'ALPHABET',
      weight: 9,
      fileFolderAssignment: { assignments: [{ fileFolderId: media.id }] },
      fileTagCondition: { tags: ['promo'], operator: 'AND' },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
    });
    const segments = await scheduleOf(JAN1, JAN1 + H);
    const played = segments[0]!.channels.find((c) => c.campaignId === dynamic.id)!;
    expect(played.items.map((i) => [i.name, i.durationMs])).toEqual([
      ['a-promo.png', 5000],
      ['b-promo.png', 5000],
    ]);
  });

  it("keeps explain to the caller's tenant", async () => {
    expect((await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule/explain`, { token: k.otherApprover })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule/explain?at=abc`, { token: k.viewer })).status).toBe(400);
  });
});

describe('what channels play changes', () => {
  it('reaches the screens the channels target: assigned content, content in an assigned folder, assigned files, files below an assigned folder', async () => {
    const hallScreen = await newDevice(t, { customerId: k.customerId });
    const contentFolder = await k.own.contentFolder('Channel slides');
    const inFolder = await k.own.content('In the folder', contentFolder);
    const assigned = await k.own.content('Assigned');
    const media = await k.own.fileFolder('Channel media');
    const below = await k.own.fileFolder('Below', media);
    const deep = await insertFile(t.db, below, { name: 'deep.png' });
    const loose = await k.own.file('loose.png');
    await k.create({ ...k.contentChannel(assigned.id, {}, [lobby.id]), name: 'Assigned content' });
    await k.create({
      name: 'Content folder',
      level: 'WIDGET',
      type: 'CONTENT_DYNAMIC',
      version: '2.0',
      orderingMode: 'DEFAULT',
      contentShuffleMode: 'SERIAL',
      contentGroupAssignment: { assignments: [{ contentGroupId: contentFolder.id }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
    });
    await k.create({
      name: 'Folder media',
      level: 'WIDGET',
      type: 'ASSETS_DYNAMIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileFolderAssignment: { assignments: [{ fileFolderId: media.id }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
    });
    const static_ = await k.create({
      name: 'Static media',
      level: 'WIDGET',
      type: 'ASSETS_STATIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileAssignment: { assignments: [{ fileId: loose.id, weight: 1 }] },
      deviceSelectionMode: 'STATIC',
      deviceAssignment: { assignments: [{ deviceId: hallScreen.deviceId }] },
    });
    expect(static_.id).toBeDefined();
    const reached = (change: { contentIds?: string[]; fileIds?: string[] }) =>
      devicesAffectedBy(t.db, { customerId: k.customerId, ...change });
    expect(await reached({ contentIds: [assigned.id] })).toEqual([screen.deviceId]);
    expect(await reached({ contentIds: [inFolder.id] })).toEqual([screen.deviceId]);
    expect(await reached({ fileIds: [deep.id] })).toEqual([screen.deviceId]);
    expect(await reached({ fileIds: [loose.id] })).toEqual([hallScreen.deviceId]);
    expect(await reached({ contentIds: [(await k.own.content('Unplayed')).id] })).toEqual([]);
    // Another tenant's change never names this tenant's screens.
    expect(await devicesAffectedBy(t.db, { customerId: k.otherCustomerId, contentIds: [assigned.id], fileIds: [loose.id] })).toEqual([]);
  });
});

describe('sub-channels (messages) of a MESSAGE_GROUP channel in the resolution', () => {
  it("plays the eligible messages' items on the schedule and in the manifest, and explains each message", async () => {
    const hall = await k.own.deviceFolder('Hall for messages');
    const news = await k.own.file('news.png');
    const weather = await k.own.file('weather.png');
    const elsewhereFile = await k.own.file('elsewhere.png');
    const slide = await k.own.content('Message slide');
    const group = (await t.request('POST', '/api/messageGroup', { token: k.approver, json: { name: 'Ticker' } })).body;
    const message = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', '/api/message', {
        token: k.approver,
        json: { version: '2.0', messageGroupId: group.id, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);

      return res.body;
    };
    const first = await message({
      name: 'News',
      type: 'ASSETS_STATIC',
      weight: 1,
      defaultDuration: 6,
      saturation: 0,
      fileAssignment: {
        assignments: [
          { fileId: news.id, weight: 1 },
          { fileId: weather.id, weight: 2 },
        ],
      },
    });
    const second = await message({ name: 'Slide', type: 'CONTENT', weight: 2, contentId: slide.id, defaultDuration: 4 });
    const notHere = await message({
      name: 'Hall only',
      type: 'ASSETS_STATIC',
      weight: 3,
      fileAssignment: { assignments: [{ fileId: elsewhereFile.id }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: hall.id }] },
    });
    const off = await message({ name: 'Off', type: 'CONTENT', weight: 4, contentId: slide.id, enabled: false });
    const ticker = await k.create({
      name: 'Ticker channel',
      level: 'WIDGET',
      type: 'MESSAGE_GROUP',
      version: '2.0',
      contentShuffleMode: 'SERIAL',
      weight: 20,
      messageGroupAssignment: { assignments: [{ messageGroupId: group.id }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
    });

    const segments = await scheduleOf(JAN1, JAN1 + H);
    const played = segments[0]!.channels.find((c) => c.campaignId === ticker.id)!;
    expect(played.items.map((i) => [i.type, i.name, i.durationMs, (i as { messageId?: number }).messageId])).toEqual([
      ['FILE', 'news.png', 6000, first.id],
      ['FILE', 'weather.png', 6000, first.id],
      ['CONTENT', 'Message slide', 4000, second.id],
    ]);

    const manifest = (await t.request('GET', '/api/display/manifest', { token: screen.token })).body as Manifest;
    expect(manifest.files[news.id]).toMatchObject({ name: 'news.png' });
    expect(manifest.files[elsewhereFile.id]).toBeUndefined();

    const explained = (await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule/explain?at=${JAN1 + H / 2}`, { token: k.viewer }))
      .body as PlaybackExplanation;
    const channelExplained = explained.campaigns.find((c) => c.id === ticker.id)!;
    expect(channelExplained.eligible).toBe(true);
    expect(Object.fromEntries((channelExplained.messages ?? []).map((m) => [m.id, m.reasons]))).toEqual({
      [first.id]: [],
      [second.id]: [],
      [notHere.id]: ['NOT_TARGETED'],
      [off.id]: ['DISABLED'],
    });

    // A change to a message reaches the screen: its manifest moves.
    const put = await t.request('PUT', `/api/message/${second.id}`, { token: k.approver, json: { enabled: false } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = (await t.request('GET', '/api/display/manifest', { token: screen.token })).body as Manifest;
    expect(after.etag).not.toBe(manifest.etag);
    const again = (await scheduleOf(JAN1, JAN1 + H))[0]!.channels.find((c) => c.campaignId === ticker.id)!;
    expect(again.items.map((i) => i.name)).toEqual(['news.png', 'weather.png']);
    // A change to the group (its order among the channel's groups) and to a message tells the channel's screens.
    const heard: DeviceChange[] = [];
    const stop = deviceChangeListeners.add({ name: 'messages-test', changed: async (_tx, change) => void heard.push(change) });
    try {
      expect((await t.request('PUT', `/api/messageGroup/${group.id}`, { token: k.approver, json: { weight: 7 } })).status).toBe(200);
      expect((await t.request('DELETE', `/api/message/${off.id}`, { token: k.approver })).status).toBe(204);
    } finally {
      stop();
    }
    expect(heard.map((c) => c.deviceIds.includes(screen.deviceId))).toEqual([true, true]);

    // The parent decides first: switched off, none of its messages plays.
    await t.request('PUT', `/api/campaign/${ticker.id}`, { token: k.approver, json: { enabled: false } });
    const parentOff = (await t.request('GET', `/api/v2/device/${screen.deviceId}/schedule/explain?at=${JAN1 + H / 2}`, { token: k.viewer }))
      .body as PlaybackExplanation;
    expect(parentOff.campaigns.find((c) => c.id === ticker.id)!.messages!.find((m) => m.id === first.id)!.eligible).toBe(false);
  });
});

describe('what sub-channels play changes', () => {
  it('reaches the screens of the MESSAGE_GROUP channels whose sub-channels play it', async () => {
    const played = await k.own.file('ticker-item.png');
    const slide = await k.own.content('Ticker slide');
    const group = (await t.request('POST', '/api/messageGroup', { token: k.approver, json: { name: 'Changes ticker' } })).body;
    for (const body of [
      { name: 'File item', type: 'ASSETS_STATIC', fileAssignment: { assignments: [{ fileId: played.id }] } },
      { name: 'Slide item', type: 'CONTENT', contentId: slide.id },
    ]) {
      const res = await t.request('POST', '/api/message', {
        token: k.approver,
        json: { version: '2.0', messageGroupId: group.id, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const before = await devicesAffectedBy(t.db, { customerId: k.customerId, fileIds: [played.id] });
    expect(before).toEqual([]);
    await k.create({
      name: 'Changes ticker channel',
      level: 'WIDGET',
      type: 'MESSAGE_GROUP',
      version: '2.0',
      contentShuffleMode: 'SERIAL',
      messageGroupAssignment: { assignments: [{ messageGroupId: group.id }] },
      deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
    });
    expect(await devicesAffectedBy(t.db, { customerId: k.customerId, fileIds: [played.id] })).toEqual([screen.deviceId]);
    expect(await devicesAffectedBy(t.db, { customerId: k.customerId, contentIds: [slide.id] })).toEqual([screen.deviceId]);
  });
});

describe('manifest ETags of many devices at once (the fan-out and the WebSocket hello)', () => {
  it('gives each device the ETag its own manifest answers, across folders, static and quick-filter targeting, tenants and unclaimed devices', async () => {
    const hall = await k.own.deviceFolder('Batch hall');
    const inHall = await newDevice(t, { customerId: k.customerId });
    await t.db
      .update(devices)
      .set({ deviceGroupId: hall.id, groupPath: [k.own.roots.device.id, hall.id], timeZone: 'Asia/Kolkata' })
      .where(eq(devices.id, inHall.deviceId));
    const chosen = await newDevice(t, { customerId: k.customerId });
    const tagged = await newDevice(t, { customerId: k.customerId });
    await t.db
      .update(devices)
      .set({ tags: ['batch-qf'] })
      .where(eq(devices.id, tagged.deviceId));
    const theirs = await newDevice(t, { customerId: k.otherCustomerId });
    const unclaimed = await newDevice(t);
    const slide = await k.own.content('Batch slide');
    const picture = await k.own.file('batch.png');
    await k.create({ ...k.contentChannel(slide.id, { name: 'Batch hall channel' }, [hall.id]) });
    await k.create({
      ...k.contentChannel(
        slide.id,
        { name: 'Batch chosen', deviceSelectionMode: 'STATIC', deviceAssignment: { assignments: [{ deviceId: chosen.deviceId }] } },
        [],
      ),
    });
    const filter = await k.own.quickFilter('DEVICE', { tags: ['batch-qf'] });
    await k.create({
      ...k.contentChannel(slide.id, { name: 'Batch filtered', deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: filter.id }, []),
      type: 'ASSETS_STATIC',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      contentShuffleMode: undefined,
      contentAssignment: undefined,
      fileAssignment: { assignments: [{ fileId: picture.id }] },
    });
    const now = Date.now();
    const claimed = [screen, inHall, chosen, tagged, theirs];
    const ids = [...claimed, unclaimed].map((d) => d.deviceId);

    const together = await manifestEtags(t.db, [...ids, screen.deviceId], now);
    expect([...together.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) expect(together.get(id), id).toBe(await manifestEtag(t.db, id, now));
    for (const device of claimed) {
      const manifest = await t.request('GET', '/api/display/manifest', { token: device.token });
      expect(manifest.status).toBe(200);
      expect(together.get(device.deviceId), device.deviceId).toBe((manifest.body as Manifest).etag);
    }
    // Different things shown, different ETags: the batch did not hand one device's resolution to another.
    expect(new Set(claimed.map((d) => together.get(d.deviceId))).size).toBe(claimed.length);
  });
});
