import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceChangeListeners, type DeviceChange } from '@/server/modules/devices/device-changes';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

let k: CampaignsTestKit;
let contentId: string;
const heard: DeviceChange[] = [];
let stopListening: () => void;

beforeAll(async () => {
  k = await campaignsTestKit();
  contentId = (await k.own.content()).id;
  stopListening = deviceChangeListeners.add({ name: 'campaigns-test', changed: async (_tx, change) => void heard.push(change) });
});
afterAll(async () => {
  stopListening();
  await k.t.close();
});

/** The device ids told since `from`. */
const toldSince = (from: number) => [...new Set(heard.slice(from).flatMap((c) => c.deviceIds))].sort();

describe('campaign changes reach the screens they target', () => {
  it('tells the screens targeted before and after each write, and on delete', async () => {
    const north = await k.own.deviceFolder('North');
    const south = await k.own.deviceFolder('South');
    const n = await k.own.device('n', north);
    const s = await k.own.device('s', south);
    await k.own.device('elsewhere');

    let mark = heard.length;
    const created = await k.create(k.contentChannel(contentId, {}, [north.id]));
    expect(toldSince(mark)).toEqual([n.id]);
    expect(heard.at(-1)).toMatchObject({ customerId: k.customerId, kind: 'settings' });

    mark = heard.length;
    const moved = await k.t.request('PUT', `/api/campaign/${created.id}`, {
      token: k.approver,
      json: { deviceGroupAssignment: { assignments: [{ deviceGroupId: south.id }], removeIds: [north.id] } },
    });
    expect(moved.status).toBe(200);
    expect(toldSince(mark)).toEqual([n.id, s.id].sort());

    mark = heard.length;
    expect((await k.t.request('DELETE', `/api/campaign/${created.id}`, { token: k.approver })).status).toBe(204);
    expect(toldSince(mark)).toEqual([s.id]);
  });
});

describe('campaign tags (the shared tags mechanism, type CAMPAIGN)', () => {
  it('counts campaign tags and refuses deleting one in use', async () => {
    await k.create(k.contentChannel(contentId, { tags: ['summer'] }));
    const tags = await k.t.request('GET', '/api/tag?select=campaignTags', { token: k.viewer });
    expect(tags.status).toBe(200);
    expect(tags.body.campaignTags.summer).toMatchObject({ count: 1 });
    const refused = await k.t.request('DELETE', '/api/tag?tag=summer&tagType=CAMPAIGN', { token: k.owner });
    expect(refused.status).toBe(409);
  });
});
