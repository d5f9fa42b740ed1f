import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import type { Segment } from './display.schemas';
import { newDevice, type TestDevice } from './display.test-kit';

/*
 * Quick-filter channels (CONTENT_QUICK_FILTER, ASSET_QUICK_FILTER) reach the screens: their items are what the
 * filter matches when read, through the same loader as every other channel.
 */

let k: CampaignsTestKit;
let screen: TestDevice;
const AT = Date.UTC(2030, 0, 7, 12);

beforeAll(async () => {
  k = await campaignsTestKit();
  const lobby = await k.own.deviceFolder('Lobby');
  screen = await newDevice(k.t, { customerId: k.customerId });
  await k.t.db
    .update(devices)
    .set({ timeZone: 'UTC', deviceGroupId: lobby.id, groupPath: [k.own.roots.device.id, lobby.id] })
    .where(eq(devices.id, screen.deviceId));
  const tagged = await k.own.file('tagged.png');
  await k.own.file('untagged.png');
  await k.t.db
    .update(files)
    .set({ tags: ['lobby-loop'] })
    .where(eq(files.id, tagged.id));
  const filter = await k.own.quickFilter('FILE', { tags: ['lobby-loop'] });
  await k.create({
    name: 'Filtered media',
    level: 'WIDGET',
    type: 'ASSET_QUICK_FILTER',
    version: '2.0',
    defaultDuration: 5,
    orderingMode: 'ALPHABET',
    fileQuickFilterId: filter.id,
    deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
  });
});
afterAll(() => k.t.close());

describe('quick-filter channels in the resolution', () => {
  it('an ASSET_QUICK_FILTER channel plays the files its filter matches', async () => {
    const res = await k.t.request('GET', `/api/v2/device/${screen.deviceId}/schedule?from=${AT}&to=${AT + 3_600_000}`, { token: k.viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const played = (res.body.segments as Segment[])[0]!.channels.find((c) => c.name === 'Filtered media');
    expect(played?.items.map((i) => i.name)).toEqual(['tagged.png']);
  });
});
