import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignTargetDevicesQuery } from './campaign-targeting.queries';
import { execRows } from '@/server/db/sql';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

let k: CampaignsTestKit;
let contentId: string;
let north: { id: string; customerId: number; path: string[] };
let northLobby: { id: string; customerId: number; path: string[] };
let south: { id: string; customerId: number; path: string[] };
let devices: Record<string, { id: string }>;

beforeAll(async () => {
  k = await campaignsTestKit();
  contentId = (await k.own.content()).id;
  north = await k.own.deviceFolder('North');
  northLobby = await k.own.deviceFolder('Lobby', north);
  south = await k.own.deviceFolder('South');
  devices = {
    root: await k.own.device('d-root', k.own.roots.device, ['promo']),
    north: await k.own.device('d-north', north, ['promo', 'lobby']),
    lobby: await k.own.device('d-lobby', northLobby, ['lobby']),
    south: await k.own.device('d-south', south, []),
  };
  // Another tenant's screen: never targeted.
  await k.other.device('d-other', k.other.roots.device, ['promo', 'lobby']);
});
afterAll(() => k.t.close());

const dynamic = (deviceGroupIds: string[], extra: Record<string, unknown> = {}) =>
  k.create(k.contentChannel(contentId, extra, deviceGroupIds));

describe('GET /api/campaign/playerDevices', () => {
  it('DYNAMIC: the folder and every folder below it; the root folder means every screen of the tenant', async () => {
    expect(await k.playerDevices((await dynamic([north.id])).id)).toEqual(['d-lobby', 'd-north']);
    expect(await k.playerDevices((await dynamic([northLobby.id, south.id])).id)).toEqual(['d-lobby', 'd-south']);
    expect(await k.playerDevices((await dynamic([k.own.roots.device.id])).id)).toEqual(['d-lobby', 'd-north', 'd-root', 'd-south']);
    expect(await k.playerDevices((await dynamic([])).id)).toEqual([]);
  });

  it('DYNAMIC: deviceTagCondition AND needs every tag, OR any', async () => {
    const root = [k.own.roots.device.id];
    expect(await k.playerDevices((await dynamic(root, { deviceTagCondition: { tags: ['promo', 'lobby'], operator: 'AND' } })).id)).toEqual([
      'd-north',
    ]);
    expect(await k.playerDevices((await dynamic(root, { deviceTagCondition: { tags: ['promo', 'lobby'], operator: 'OR' } })).id)).toEqual([
      'd-lobby',
      'd-north',
      'd-root',
    ]);
    expect(await k.playerDevices((await dynamic(root, { deviceTagCondition: { tags: [], operator: 'AND' } })).id)).toHaveLength(4);
  });

  it('DYNAMIC: a campaign with teams plays on the screens of those teams only', async () => {
    const team = await k.own.team();
    await k.own.join(team.id, 'device', devices.south!.id);
    // Below OWNER only a member may give its teams: the owner does.
    const created = await k.create(k.contentChannel(contentId, { teamAccessList: { teams: [{ id: team.id }] } }), k.owner);
    expect(await k.playerDevices(created.id)).toEqual(['d-south']);
  });

  it('STATIC: the assigned screens; QUICK_FILTER: the screens the device filter matches', async () => {
    const fixed = await k.create(
      k.contentChannel(
        contentId,
        {
          deviceSelectionMode: 'STATIC',
          deviceAssignment: { assignments: [{ deviceId: devices.root!.id }, { deviceId: devices.lobby!.id }] },
        },
        [],
      ),
    );
    expect(await k.playerDevices(fixed.id)).toEqual(['d-lobby', 'd-root']);
    const filter = await k.own.quickFilter('DEVICE', { deviceGroupId: north.id, searchRecursively: true, tags: ['lobby'] });
    const quick = await k.create(k.contentChannel(contentId, { deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: filter.id }, []));
    expect(await k.playerDevices(quick.id)).toEqual(['d-lobby', 'd-north']);
  });

  it("answers 404 for another tenant's campaign, 400 for a missing id; a viewer may read it", async () => {
    const created = await dynamic([north.id]);
    expect((await k.t.request('GET', `/api/campaign/playerDevices?campaignId=${created.id}`, { token: k.otherApprover })).status).toBe(404);
    expect((await k.t.request('GET', '/api/campaign/playerDevices', { token: k.viewer })).status).toBe(400);
    expect(await k.playerDevices(created.id, k.viewer)).toHaveLength(2);
  });

  it('campaignTargetDevicesQuery answers (campaign, device) pairs for many campaigns in one statement', async () => {
    const a = await dynamic([north.id]);
    const b = await dynamic([south.id]);
    const query = await campaignTargetDevicesQuery(k.t.db, { customerId: k.customerId, campaignIds: [a.id, b.id] });
    const rows = await execRows<{ campaign_id: number; device_id: string }>(k.t.db, query);
    expect(rows.map((r) => [Number(r.campaign_id), r.device_id]).sort()).toEqual(
      [
        [a.id, devices.north!.id],
        [a.id, devices.lobby!.id],
        [b.id, devices.south!.id],
      ].sort(),
    );
  });
});
