import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { customers } from '@/server/tenant/customers.table';
import { deviceChangeListeners, type DeviceChange } from './device-changes';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';
import { deviceCommands, devices } from './devices.table';
import { and, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { asDevice, newDevice } from '@/server/modules/display/display.test-kit';
import type { DeviceCommandEntry, DeviceSettings } from './device-commands.schemas';

let k: DevicesTestKit;
let t: DevicesTestKit['t'];
const heard: DeviceChange[] = [];

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
  deviceChangeListeners.install([{ name: 'test', changed: async (_tx, c) => void heard.push(c) }]);
});
afterAll(async () => {
  deviceChangeListeners.install([]);
  await t.close();
});

const row = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)).limit(1))[0]!;
const post = (path: string, token = k.technician, json?: unknown) =>
  t.request('POST', path, { token, ...(json === undefined ? {} : { json }) });

async function contentOf(customerId: number, name = 'Menu') {
  const [root] = await t.db
    .select()
    .from(contentGroups)
    .where(and(eq(contentGroups.customerId, customerId), isNull(contentGroups.parentId)))
    .limit(1);
  const [c] = await t.db
    .insert(deviceContents)
    .values({
      id: uuidv7(),
      customerId,
      deviceContentType: 'simpleLoop',
      simpleLoopType: 'NORMAL',
      version: '2.0',
      contentGroupId: root!.id,
      groupPath: root!.path,
      name,
      data: { loopData: {}, slides: [] },
    })
    .returning();

  return c!;
}

describe('state-setting commands', () => {
  it('set the manifest settings of the matching devices in one statement, and tell the listeners', async () => {
    const group = await k.folder('Settings');
    const [a, b] = [await k.device({ name: 'Set A' }, group), await k.device({ name: 'Set B' }, group)];
    const other = await k.device({ name: 'Set other' });
    const q = `customerId=${k.customerId}&search=${encodeURIComponent(`deviceGroupId=${group.id}`)}`;
    heard.length = 0;
    const volume = await post(`/api/v2/device/volume?${q}&level=35`);
    expect(volume.status, JSON.stringify(volume.body)).toBe(200);
    expect(volume.body).toEqual({ updated: 2 });
    // The manifest moved, and each screen has the command to acknowledge.
    expect(heard).toEqual([
      { customerId: k.customerId, deviceIds: expect.arrayContaining([a.id, b.id]), kind: 'settings' },
      { customerId: k.customerId, deviceIds: expect.arrayContaining([a.id, b.id]), kind: 'commands' },
    ]);
    expect((await post(`/api/v2/device/rotation?${q}&angle=90&type=DEVICE`)).status).toBe(200);
    expect((await post(`/api/v2/device/display?${q}&enabled=false`)).status).toBe(200);
    expect((await post(`/api/v2/device/rebootTime?${q}&time=03:30`)).status).toBe(200);
    expect(
      (await post(`/api/v2/device/workingHours?${q}`, k.technician, { mode: 'SCREEN', days: { MON: { from: '08:00', to: '18:00' } } }))
        .status,
    ).toBe(200);
    expect((await post(`/api/v2/device/location?${q}`, k.technician, { latitude: 52.5, longitude: 13.4 })).status).toBe(200);
    expect((await post(`/api/v2/device/advancedConfiguration?${q}&updateMethod=SET`, k.technician, { a: 1, b: 2 })).status).toBe(200);
    expect((await post(`/api/v2/device/advancedConfiguration?${q}&updateMethod=ADD_OR_UPDATE`, k.technician, { b: 3, c: 4 })).status).toBe(
      200,
    );
    expect((await post(`/api/v2/device/advancedConfiguration?${q}&updateMethod=REMOVE`, k.technician, { a: null })).status).toBe(200);
    expect((await row(a.id)).settings).toEqual({
      volume: 35,
      rotation: { angle: 90, type: 'DEVICE' },
      display: false,
      rebootTime: '03:30',
      workingHours: { mode: 'SCREEN', days: { MON: { from: '08:00', to: '18:00' } } },
      location: { latitude: 52.5, longitude: 13.4 },
      advancedConfiguration: { b: 3, c: 4 },
    });
    // DELETE removes a setting where the spec allows it.
    const removed = await t.request('DELETE', `/api/v2/device/rebootTime?${q}`, { token: k.technician });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await row(b.id)).settings).not.toHaveProperty('rebootTime');
    expect((await row(other.id)).settings).toEqual({});
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'volume'));
    expect(entry?.message).toBe('Command volume for 2 devices');
  });

  it('set columns: emergency, time zone, licence', async () => {
    const d = await k.device({ name: 'Columns' });
    const q = `customerId=${k.customerId}&search=${encodeURIComponent(`id=${d.id}`)}`;
    expect((await post(`/api/v2/device/emergency?${q}&emergencyStatus=true`)).body).toEqual({ updated: 1 });
    expect((await post(`/api/v2/device/time?${q}&timeZone=Asia/Kolkata`)).body).toEqual({ updated: 1 });
    // FREE draws on the customer's free licences (spec 5 §6).
    expect((await post(`/api/v2/device/updateLicense?${q}&licenseStatus=FREE&licenseType=BASIC`)).body).toMatchObject({
      status: 409,
      key: 'license.error.noFreeLicense',
    });
    await t.db.update(customers).set({ freeLicenses: 1 }).where(eq(customers.id, k.customerId));
    expect((await post(`/api/v2/device/updateLicense?${q}&licenseStatus=FREE&licenseType=BASIC`)).body).toEqual({ updated: 1 });
    expect(await row(d.id)).toMatchObject({ emergencyStatus: true, timeZone: 'Asia/Kolkata', licenseStatus: 'FREE', licenseType: 'BASIC' });
    expect((await post(`/api/v2/device/updateLicense?${q}&licenseStatus=FREE`)).status).toBe(400);
    expect((await post(`/api/v2/device/updateLicense?${q}&licenseStatus=LICENSED`)).status).toBe(400);
    const order = await t.factories.licenseOrder(k.customerId);
    expect((await post(`/api/v2/device/updateLicense?${q}&licenseStatus=LICENSED&licenseOrderId=${order.id}`)).body).toEqual({
      updated: 1,
    });
    // The status that clears the order, with an order (the fuzzer's 500: the column assigned twice in one UPDATE).
    const unlicensed = await post(`/api/v2/device/updateLicense?${q}&licenseStatus=UN_LICENSED&licenseOrderId=1`);
    expect(unlicensed.status, JSON.stringify(unlicensed.body)).toBe(400);
    expect(unlicensed.body).toMatchObject({ key: 'request.error.invalidCombination', details: { parameter: 'licenseOrderId' } });
    expect(await row(d.id)).toMatchObject({ licenseStatus: 'LICENSED', licenseOrderId: order.id, licenseType: 'BASIC' });
    expect((await post(`/api/v2/device/updateLicense?${q}&licenseStatus=UN_LICENSED`)).body).toEqual({ updated: 1 });
    expect(await row(d.id)).toMatchObject({ licenseStatus: 'UN_LICENSED', licenseOrderId: null });
    expect(
      (
        await post(
          `/api/v2/device/assignContent?${q}&contentId=${(await contentOf(k.customerId)).id}&asAssigned=true&asEmergency=true`,
          k.approver,
        )
      ).body,
    ).toEqual({ updated: 1 });
    expect((await post(`/api/v2/device/time?${q}&timeZone=Nowhere/Land`)).status).toBe(400);
  });

  it("assign and detach content (APPROVER), only the tenant's own content", async () => {
    const d = await k.device({ name: 'Shows' });
    const mine = await contentOf(k.customerId);
    const theirs = await contentOf(k.otherCustomerId, 'Theirs');
    const q = `customerId=${k.customerId}&search=${encodeURIComponent(`id=${d.id}`)}`;
    expect((await post(`/api/v2/device/assignContent?${q}&contentId=${mine.id}`, k.editor)).status).toBe(403);
    expect((await post(`/api/v2/device/assignContent?${q}&contentId=${mine.id}&asEmergency=true`, k.approver)).body).toEqual({
      updated: 1,
    });
    expect(await row(d.id)).toMatchObject({ contentId: mine.id, emergencyContentId: mine.id });
    expect((await t.request('GET', `/api/v2/device/${d.id}?select=content,emergencyContent`, { token: k.viewer })).body).toMatchObject({
      content: { id: mine.id, name: 'Menu' },
      emergencyContent: { id: mine.id },
    });
    expect((await post(`/api/v2/device/assignContent?${q}&contentId=${theirs.id}`, k.approver)).status).toBe(404);
    expect((await post(`/api/v2/device/assignContent?${q}&contentId=${mine.id}&asAssigned=false`, k.approver)).status).toBe(400);
    expect((await post(`/api/v2/device/detachContent?${q}&detachEmergency=true`, k.approver)).body).toEqual({ updated: 1 });
    expect(await row(d.id)).toMatchObject({ contentId: null, emergencyContentId: null });
  });
});

describe('state-setting commands are commands too', () => {
  it('become a command row per changed device, so the history lists volume, display, emergency and removals', async () => {
    const group = await k.folder('History');
    const [a, b] = [await k.device({ name: 'Hist A' }, group), await k.device({ name: 'Hist B' }, group)];
    const q = `customerId=${k.customerId}&search=${encodeURIComponent(`deviceGroupId=${group.id}`)}`;
    expect((await post(`/api/v2/device/volume?${q}&level=20`)).body).toEqual({ updated: 2 });
    expect((await post(`/api/v2/device/display?${q}&enabled=false`)).status).toBe(200);
    expect((await post(`/api/v2/device/emergency?${q}&emergencyStatus=true`)).status).toBe(200);
    expect(
      (await post(`/api/v2/device/workingHours?${q}`, k.technician, { mode: 'SCREEN', days: { SAT: { from: '10:00', to: '14:00' } } }))
        .status,
    ).toBe(200);
    expect((await t.request('DELETE', `/api/v2/device/rebootTime?${q}`, { token: k.technician })).status).toBe(200);
    const history = await t.request('GET', `/api/v2/device/${a.id}/commands?customerId=${k.customerId}`, { token: k.viewer });
    expect(history.status).toBe(200);
    expect((history.body as DeviceCommandEntry[]).map((e) => [e.name, e.params, e.status])).toEqual([
      ['rebootTime', { remove: true }, 'PENDING'],
      ['workingHours', { body: { mode: 'SCREEN', days: { SAT: { from: '10:00', to: '14:00' } } } }, 'PENDING'],
      ['emergency', { emergencyStatus: true }, 'PENDING'],
      ['display', { enabled: false }, 'PENDING'],
      ['volume', { level: 20 }, 'PENDING'],
    ]);
    expect(await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, b.id))).toHaveLength(5);
  });

  it('are listed newest first, the newest 20 of all names, however many of one name came before', async () => {
    const device = await k.device({ name: 'Long history' });
    const base = Date.parse('2026-03-01T12:00:00Z');
    // 40 restarts, 12 volumes among them, 3 screenshots at the end; two volumes at the same instant (id breaks the tie).
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => ({ name: 'restart', at: base + i * 60_000 })),
      ...Array.from({ length: 12 }, (_, i) => ({ name: 'volume', at: base + i * 200_000 + 30_000 })),
      { name: 'volume', at: base + 2_200_000 + 30_000 },
      ...Array.from({ length: 3 }, (_, i) => ({ name: 'screenshot', at: base + 3_000_000 + i * 1_000 })),
    ].map(({ name, at }) => ({
      id: uuidv7(),
      deviceId: device.id,
      customerId: k.customerId,
      name,
      params: {},
      issuedAt: new Date(at),
      expiresAt: new Date(at + 86_400_000),
    }));
    await t.db.insert(deviceCommands).values(rows);
    const expected = [...rows]
      .sort((x, y) => y.issuedAt.getTime() - x.issuedAt.getTime() || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
      .slice(0, 20)
      .map((r) => [r.id, r.name]);

    const history = await t.request('GET', `/api/v2/device/${device.id}/commands?customerId=${k.customerId}`, { token: k.viewer });
    expect(history.status).toBe(200);
    expect((history.body as DeviceCommandEntry[]).map((e) => [e.id, e.name])).toEqual(expected);
    expect(new Set(expected.map(([, name]) => name))).toEqual(new Set(['restart', 'volume', 'screenshot']));
  });

  it('reach only the devices they changed: none for a search that matches nothing', async () => {
    const before = (await t.db.select().from(deviceCommands)).length;
    expect(
      (await post(`/api/v2/device/volume?customerId=${k.customerId}&search=${encodeURIComponent('name=Nobody by this name')}&level=5`))
        .body,
    ).toEqual({ updated: 0 });
    expect(await t.db.select().from(deviceCommands)).toHaveLength(before);
  });
});

describe('GET /api/v2/device/{id}/settings', () => {
  it('answers the values set, and each as pending until the screen acknowledges its command', async () => {
    const device = await newDevice(t, { customerId: k.customerId });
    const call = asDevice(t, device.token);
    const settingsOf = async () => {
      const res = await t.request('GET', `/api/v2/device/${device.deviceId}/settings?customerId=${k.customerId}`, { token: k.viewer });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      return res.body as DeviceSettings;
    };
    // Nothing set: no values, no commands (the screen uses its own).
    expect(await settingsOf()).toEqual({ settings: {}, emergencyStatus: false, commands: [] });

    const q = `customerId=${k.customerId}&search=${encodeURIComponent(`id=${device.deviceId}`)}`;
    expect((await post(`/api/v2/device/volume?${q}&level=20`)).body).toEqual({ updated: 1 });
    expect((await post(`/api/v2/device/restart?${q}`)).body).toEqual({ updated: 1 });
    const pending = await settingsOf();
    expect(pending.settings).toEqual({ volume: 20 });
    // One-shot commands are no setting.
    expect(pending.commands.map((c) => [c.name, c.status])).toEqual([['volume', 'PENDING']]);

    // The player hears it (delivered), applies it and acknowledges it (confirmed).
    const beat = await call('POST', '/api/display/heartbeat', {});
    const volume = (beat.body as { commands: { id: string; name: string; params: unknown }[] }).commands.find((c) => c.name === 'volume')!;
    expect(volume.params).toEqual({ level: 20 });
    expect((await settingsOf()).commands[0]).toMatchObject({ name: 'volume', status: 'DELIVERED', deliveredAt: expect.any(String) });
    expect((await call('POST', `/api/display/commands/${volume.id}/ack`, { ok: true })).status).toBe(204);
    expect((await settingsOf()).commands[0]).toMatchObject({ name: 'volume', status: 'ACKNOWLEDGED', acknowledgedAt: expect.any(String) });

    // A newer value is the one shown, pending again; emergency comes from its column.
    expect((await post(`/api/v2/device/volume?${q}&level=30`)).status).toBe(200);
    expect((await post(`/api/v2/device/emergency?${q}&emergencyStatus=true`)).status).toBe(200);
    const newer = await settingsOf();
    expect(newer).toMatchObject({ settings: { volume: 30 }, emergencyStatus: true });
    expect(newer.commands.map((c) => [c.name, c.params, c.status])).toEqual([
      ['emergency', { emergencyStatus: true }, 'PENDING'],
      ['volume', { level: 30 }, 'PENDING'],
    ]);
  });

  it("is VIEWER and tenant scoped: another tenant's device is 404 / 403, an unknown one 404", async () => {
    const device = await k.device({ name: 'Scoped settings' });
    expect((await t.request('GET', `/api/v2/device/${device.id}/settings?customerId=${k.customerId}`, { token: k.viewer })).status).toBe(
      200,
    );
    expect(
      (await t.request('GET', `/api/v2/device/${device.id}/settings?customerId=${k.otherCustomerId}`, { token: k.otherTechnician })).status,
    ).toBe(404);
    expect(
      (await t.request('GET', `/api/v2/device/${device.id}/settings?customerId=${k.customerId}`, { token: k.otherTechnician })).status,
    ).toBe(403);
    expect((await t.request('GET', `/api/v2/device/${uuidv7()}/settings?customerId=${k.customerId}`, { token: k.viewer })).status).toBe(
      404,
    );
  });
});

describe('one-shot commands', () => {
  it('become a pending command per device, with their parameters and a lifetime', async () => {
    const group = await k.folder('Restart');
    const [a] = [await k.device({ name: 'Cmd A' }, group), await k.device({ name: 'Cmd B' }, group)];
    const q = `customerId=${k.customerId}&search=${encodeURIComponent(`deviceGroupId=${group.id}`)}`;
    heard.length = 0;
    expect((await post(`/api/v2/device/restart?${q}`)).body).toEqual({ updated: 2 });
    expect(heard[0]).toMatchObject({ kind: 'commands', deviceIds: expect.arrayContaining([a.id]) });
    expect((await post(`/api/v2/device/requestLog?${q}&systemLog=true`)).status).toBe(200);
    expect((await post(`/api/v2/device/clearCache?${q}`, k.technician, { limit: 100, fileExtensions: ['mp4'] })).status).toBe(200);
    expect((await post(`/api/v2/device/turnOnRapidPreviewMode?${q}&duration=60000&minimumDelayBetweenPreviews=5000`)).status).toBe(200);
    const commands = await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, a.id));
    expect(commands.map((c) => [c.name, c.params]).sort()).toEqual(
      [
        ['clearCache', { limit: 100, fileExtensions: ['mp4'] }],
        ['requestLog', { systemLog: true, systemReport: false }],
        ['restart', {}],
        ['turnOnRapidPreviewMode', { duration: 60000, minimumDelayBetweenPreviews: 5000 }],
      ].sort(),
    );
    const restart = commands.find((c) => c.name === 'restart')!;
    expect(restart).toMatchObject({ customerId: k.customerId, acknowledgedAt: null });
    expect(restart.expiresAt.getTime() - restart.issuedAt.getTime()).toBeGreaterThan(9 * 60_000);
  });
});

describe('applyOn=DEVICEGROUP', () => {
  it('sends the command to every device in the matching folders and below them, and audits the folder search', async () => {
    const wall = await k.folder('Command wall', k.root, 'VIDEO_WALL');
    const sub = await k.folder('Command wall sub', wall);
    const [a, b, outside] = [
      await k.device({ name: 'Wall A' }, wall),
      await k.device({ name: 'Wall B' }, sub),
      await k.device({ name: 'Not on the wall' }),
    ];
    const search = encodeURIComponent(`id=${wall.id}`);
    const res = await post(`/api/v2/device/volume?customerId=${k.customerId}&applyOn=DEVICEGROUP&search=${search}&level=12`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    expect((await row(a.id)).settings).toMatchObject({ volume: 12 });
    expect((await row(b.id)).settings).toMatchObject({ volume: 12 });
    expect((await row(outside.id)).settings).not.toMatchObject({ volume: 12 });
    expect((await post(`/api/v2/device/restart?customerId=${k.customerId}&applyOn=DEVICEGROUP&search=${search}`)).body).toEqual({
      updated: 2,
    });
    expect(await t.db.select().from(deviceCommands).where(eq(deviceCommands.deviceId, outside.id))).toEqual([]);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.customerId, k.customerId), eq(auditLog.action, 'restart')));
    expect(entries.find((e) => e.changes?.applyOn === 'DEVICEGROUP')?.changes).toMatchObject({
      applyOn: 'DEVICEGROUP',
      search: `id=${wall.id}`,
      updated: 2,
    });
  });
});

describe('parameters, roles and tenants', () => {
  it("refuses bad parameters (400), a role below the command's (403), another tenant (403) and an unknown command (405)", async () => {
    const q = `customerId=${k.customerId}`;
    for (const path of [
      `/api/v2/device/volume?${q}&level=101`,
      `/api/v2/device/volume?${q}&level=-1`,
      `/api/v2/device/volume?${q}&level=abc`,
      `/api/v2/device/volume?${q}`,
      `/api/v2/device/rotation?${q}&angle=45&type=DEVICE`,
      `/api/v2/device/rebootTime?${q}&time=25:00`,
      `/api/v2/device/display?${q}&enabled=maybe`,
      `/api/v2/device/volume?level=5`,
    ]) {
      expect((await post(path)).status, path).toBe(400);
    }
    expect((await post(`/api/v2/device/location?${q}`, k.technician, { latitude: 91, longitude: 0 })).status).toBe(400);
    expect(
      (await post(`/api/v2/device/workingHours?${q}`, k.technician, { mode: 'SCREEN', days: { XYZ: { from: '08:00', to: '18:00' } } }))
        .status,
    ).toBe(400);
    expect((await post(`/api/v2/device/restart?${q}`, k.approver)).status).toBe(403);
    expect((await post(`/api/v2/device/restart?customerId=${k.otherCustomerId}`)).status).toBe(403);
    // An unknown command is a device id as far as the path goes (`/api/v2/device/{id}`: GET, PUT, DELETE); a command path takes POST only.
    expect((await post(`/api/v2/device/selfDestruct?${q}`)).status).toBe(405);
    expect((await t.request('DELETE', `/api/v2/device/volume?${q}`, { token: k.technician })).status).toBe(405);
  });
});
