import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import type { TestContext } from '@/server/test/harness';
import type { FolderSchedule } from './display.schemas';
import { newDevice, type TestDevice } from './display.test-kit';

/*
 * GET /api/v2/deviceGroup/{id}/schedule: what every screen of a folder plays, resolved as each screen's own
 * schedule is, screens that play the same grouped into one plan (the schedules calendar reads it).
 */

let k: CampaignsTestKit;
let t: TestContext;
let lobby: Awaited<ReturnType<CampaignsTestKit['own']['deviceFolder']>>;
let upper: { id: string };
let hall: { id: string };
let first: TestDevice;
let second: TestDevice;
let alarmed: TestDevice;
let hallScreen: TestDevice;
let opening: Record<string, any>;

const H = 3_600_000;
// 2030-01-01 00:00 in Europe/Berlin.
const JAN1 = Date.UTC(2029, 11, 31, 23);
const WEEK = 7 * 24 * H;

const place = async (screen: TestDevice, path: string[], values: Partial<typeof devices.$inferInsert> = {}) =>
  t.db
    .update(devices)
    .set({ timeZone: 'Europe/Berlin', deviceGroupId: path.at(-1)!, groupPath: path, ...values })
    .where(eq(devices.id, screen.deviceId));

beforeAll(async () => {
  k = await campaignsTestKit();
  t = k.t;
  const root = k.own.roots.device.id;
  lobby = await k.own.deviceFolder('Lobby');
  upper = await k.own.deviceFolder('Upper', lobby);
  hall = await k.own.deviceFolder('Hall');
  const screens = await Promise.all([0, 1, 2, 3].map(() => newDevice(t, { customerId: k.customerId })));
  [first, second, alarmed, hallScreen] = screens as [TestDevice, TestDevice, TestDevice, TestDevice];
  const alert = await k.own.content('Evacuate');
  await place(first, [root, lobby.id]);
  await place(second, [root, lobby.id]);
  await place(alarmed, [root, lobby.id, upper.id], { emergencyStatus: true, emergencyContentId: alert.id });
  await place(hallScreen, [root, hall.id]);
  const slide = await k.own.content('Welcome');
  await k.create({ ...k.contentChannel(slide.id, {}, [lobby.id]), name: 'Menu', weight: 1 });
  await k.create({ ...k.contentChannel(slide.id, {}, [lobby.id]), name: 'News', weight: 2 });
  opening = await k.create({
    ...k.contentChannel(slide.id, {}, [lobby.id]),
    name: 'Opening',
    level: 'TOP',
    affectedDateRanges: { intervals: [{ from: '2030-01-02', to: '2030-01-02', isExcluded: false }] },
  });
});
afterAll(() => t.close());

const scheduleOf = async (folderId: string, query = `from=${JAN1}&to=${JAN1 + WEEK}`, token = k.viewer) => {
  const res = await t.request('GET', `/api/v2/deviceGroup/${folderId}/schedule?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as FolderSchedule;
};

describe('GET /api/v2/deviceGroup/{id}/schedule', () => {
  it('answers every screen in and below the folder, screens that play the same in one plan, with each layer', async () => {
    const body = await scheduleOf(lobby.id);
    expect(body).toMatchObject({ folderId: lobby.id, from: JAN1, to: JAN1 + WEEK, screens: 3 });
    expect(body.plans).toHaveLength(2);
    const [shared, emergency] = body.plans as [FolderSchedule['plans'][number], FolderSchedule['plans'][number]];
    expect(shared.deviceIds).toEqual([first.deviceId, second.deviceId].sort());
    expect(shared.timeZone).toBe('Europe/Berlin');
    // The two channels play all week but on 2 January, when the schedule wins.
    expect(shared.segments.map((s) => [s.layer, s.from, s.to, s.content?.name ?? s.channels.map((c) => c.name).join(',')])).toEqual([
      ['CHANNELS', JAN1, JAN1 + 24 * H, 'Menu,News'],
      ['SCHEDULE', JAN1 + 24 * H, JAN1 + 48 * H, 'Welcome'],
      ['CHANNELS', JAN1 + 48 * H, JAN1 + WEEK, 'Menu,News'],
    ]);
    // The SCHEDULE segment names its schedule: a parent folder's calendar draws a schedule set on a sub-folder by it.
    expect(shared.segments[1]!.schedule).toEqual({ id: opening.id, name: 'Opening' });
    expect(shared.segments[0]!.schedule).toBeUndefined();
    expect(emergency.deviceIds).toEqual([alarmed.deviceId]);
    expect(emergency.segments.map((s) => [s.layer, s.content?.name])).toEqual([['EMERGENCY', 'Evacuate']]);
  });

  it('answers the sub-folder and another folder with their own screens only', async () => {
    expect((await scheduleOf(upper.id)).plans.map((p) => p.deviceIds)).toEqual([[alarmed.deviceId]]);
    expect((await scheduleOf(hall.id)).plans.map((p) => [p.deviceIds, p.segments.map((s) => s.layer)])).toEqual([
      [[hallScreen.deviceId], ['NONE']],
    ]);
    expect(await scheduleOf(k.own.roots.device.id)).toMatchObject({ screens: 4 });
  });

  it('answers a folder without screens with no plans', async () => {
    const empty = await k.own.deviceFolder('Empty');
    expect(await scheduleOf(empty.id)).toMatchObject({ screens: 0, plans: [] });
  });

  it("refuses a window of more than 7 days, a window that ends before it starts, an unknown and another tenant's folder", async () => {
    const path = `/api/v2/deviceGroup/${lobby.id}/schedule`;
    expect((await t.request('GET', `${path}?from=${JAN1}&to=${JAN1 + WEEK + 1}`, { token: k.viewer })).status).toBe(400);
    expect((await t.request('GET', `${path}?from=${JAN1}&to=${JAN1}`, { token: k.viewer })).status).toBe(400);
    expect((await t.request('GET', `/api/v2/deviceGroup/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11/schedule`, { token: k.viewer })).status).toBe(
      404,
    );
    expect((await t.request('GET', path, { token: k.otherApprover })).status).toBe(404);
  });
});
