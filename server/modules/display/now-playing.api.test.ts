import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import type { TestContext } from '@/server/test/harness';
import type { NowPlayingList } from './display.schemas';
import { newDevice, type TestDevice } from './display.test-kit';

/* POST /api/v2/device/schedule/now: the screens list's "Shows" column for a page of screens in one request. */

let k: CampaignsTestKit;
let t: TestContext;
let lobbyScreen: TestDevice;
let hallScreen: TestDevice;
let welcome: { id: string; name: string };

beforeAll(async () => {
  k = await campaignsTestKit();
  t = k.t;
  const lobby = await k.own.deviceFolder('Lobby');
  const hall = await k.own.deviceFolder('Hall');
  lobbyScreen = await newDevice(t, { customerId: k.customerId });
  hallScreen = await newDevice(t, { customerId: k.customerId });
  await t.db
    .update(devices)
    .set({ timeZone: 'Europe/Berlin', deviceGroupId: lobby.id, groupPath: [k.own.roots.device.id, lobby.id] })
    .where(eq(devices.id, lobbyScreen.deviceId));
  await t.db
    .update(devices)
    .set({ deviceGroupId: hall.id, groupPath: [k.own.roots.device.id, hall.id] })
    .where(eq(devices.id, hallScreen.deviceId));
  welcome = await k.own.content('Welcome');
  await k.create({ ...k.contentChannel(welcome.id, {}, [lobby.id]), name: 'Morning news', weight: 1 });
  await k.create({ ...k.contentChannel(welcome.id, {}, [lobby.id]), name: 'Offers', weight: 2 });
  await k.create({ ...k.contentChannel(welcome.id, {}, [lobby.id]), name: 'Switched off', enabled: false });
  await k.create({ ...k.contentChannel(welcome.id, {}, [hall.id]), name: 'Hall only' });
});
afterAll(() => t.close());

const nowPlaying = (deviceIds: string[], token = k.viewer, query = '') =>
  t.request('POST', `/api/v2/device/schedule/now${query}`, { token, json: { deviceIds } });

describe('what a page of screens plays now', () => {
  it("answers each screen's layer and eligible channels by name, in the order asked (VIEWER)", async () => {
    const res = await nowPlaying([hallScreen.deviceId, lobbyScreen.deviceId]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as NowPlayingList;
    expect(body.devices.map((d) => d.deviceId)).toEqual([hallScreen.deviceId, lobbyScreen.deviceId]);
    expect(body.devices[1]).toMatchObject({
      layer: 'CHANNELS',
      channels: [
        { name: 'Morning news', subChannels: [] },
        { name: 'Offers', subChannels: [] },
      ],
    });
    expect(body.devices[1]).not.toHaveProperty('assignedContent');
    expect(body.devices[0]!.channels.map((c) => c.name)).toEqual(['Hall only']);
  });

  it('names the assigned content as its own line, and the channels beside it', async () => {
    await t.db.update(devices).set({ contentId: welcome.id }).where(eq(devices.id, lobbyScreen.deviceId));
    const body = (await nowPlaying([lobbyScreen.deviceId])).body as NowPlayingList;
    expect(body.devices[0]).toMatchObject({
      layer: 'CONTENT',
      content: { id: welcome.id, name: 'Welcome' },
      assignedContent: { id: welcome.id, name: 'Welcome' },
    });
    expect(body.devices[0]!.channels.map((c) => c.name)).toEqual(['Morning news', 'Offers']);
    await t.db.update(devices).set({ contentId: null }).where(eq(devices.id, lobbyScreen.deviceId));
  });

  it("refuses another tenant's or an unclaimed device (404 naming it), more than 100 ids and an empty list (400)", async () => {
    const foreign = await newDevice(t, { customerId: k.otherCustomerId });
    const unclaimed = await newDevice(t);
    for (const id of [foreign.deviceId, unclaimed.deviceId]) {
      const res = await nowPlaying([lobbyScreen.deviceId, id]);
      expect(res.status).toBe(404);
      expect(res.body.message).toContain(id);
    }
    expect((await nowPlaying([])).status).toBe(400);
    expect((await nowPlaying(Array.from({ length: 101 }, () => lobbyScreen.deviceId))).status).toBe(400);
    // A repeated id is answered once.
    expect(((await nowPlaying([lobbyScreen.deviceId, lobbyScreen.deviceId])).body as NowPlayingList).devices).toHaveLength(1);
  });
});
