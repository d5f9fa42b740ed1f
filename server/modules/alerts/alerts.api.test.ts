import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesTestKit } from '@/server/modules/devices/devices.test-kit';
import { evaluateRule } from './alert-evaluation';
import { insertDeviceGroup } from './alerts.test-kit';

let kit: Awaited<ReturnType<typeof devicesTestKit>>;
let ruleId: number;
let deviceId: string;
let folderId: string;
let otherOwner: string;

beforeAll(async () => {
  kit = await devicesTestKit();
  otherOwner = (await kit.t.actor('OWNER', { customerId: kit.otherCustomerId })).token;
  const now = new Date('2026-06-15T10:00:00Z');
  const folder = await insertDeviceGroup(kit.t.db, kit.root, 'Hall');
  folderId = folder.id;
  deviceId = (
    await kit.device(
      {
        name: 'Hall screen',
        deviceStatus: 'OFFLINE',
        lastActivity: new Date('2026-06-15T08:00:00Z'),
        lastDeviceStatusChange: new Date('2026-06-15T08:02:30Z'),
      },
      folder,
    )
  ).id;
  const res = await kit.t.request('POST', '/api/alertRule', {
    token: kit.technician,
    json: {
      '@type': 'DeviceOffline',
      name: 'Hall',
      condition: { inactiveMinutes: 15, deviceGroupId: folder.id },
      workingDays: { monday: true },
      workingTime: { allDay: true },
    },
  });
  ruleId = res.body.id;
  await evaluateRule({ db: kit.t.db, queueNotifications: async () => {} }, { ruleId, now });
});
afterAll(() => kit.t.close());

describe('alerts (spec 2 "Alert records")', () => {
  it('answers device alerts to VIEWER, the generic records to OWNER only', async () => {
    const device = await kit.t.request('GET', '/api/alert/device?state=OPEN', { token: kit.viewer });
    expect(device.status).toBe(200);
    // The device facts of spec 2's device alert record, as they were when the alert opened.
    expect(device.body.content).toEqual([
      {
        id: expect.any(Number),
        createdAtDate: '2026-06-15T10:00:00.000Z',
        open: true,
        alertRuleId: ruleId,
        customerId: kit.customerId,
        alertRuleName: 'Hall',
        deviceId,
        deviceName: 'Hall screen',
        deviceLastActivity: '2026-06-15T08:00:00.000Z',
        deviceLastStatusChange: '2026-06-15T08:02:30.000Z',
        deviceGroupId: folderId,
        deviceGroupPath: `${kit.root.id}/${folderId}`,
        folderPath: 'Hall',
      },
    ]);
    expect(
      (await kit.t.request('GET', `/api/alert/device?search=${encodeURIComponent('deviceName~hall')}`, { token: kit.viewer })).body
        .totalElements,
    ).toBe(1);
    expect((await kit.t.request('GET', '/api/alert/datasource', { token: kit.viewer })).body.totalElements).toBe(0);
    expect((await kit.t.request('GET', '/api/alert', { token: kit.technician })).status).toBe(403);
    const generic = await kit.t.request('GET', '/api/alert', { token: kit.owner });
    expect(generic.body.content).toEqual([
      { id: expect.any(Number), createdAtDate: '2026-06-15T10:00:00.000Z', open: true, alertRuleId: ruleId, customerId: kit.customerId },
    ]);
    const all = await kit.t.request('GET', '/api/alert/device/all', { token: kit.viewer });
    expect(all.body).toMatchObject([{ deviceId }]);
  });

  it('fills devices’ alerts and folders’ alertCount', async () => {
    const device = await kit.t.request('GET', `/api/v2/device?search=${encodeURIComponent(`id=${deviceId}`)}&select=alerts`, {
      token: kit.viewer,
    });
    expect(device.body.content[0].alerts).toMatchObject([
      { alertRuleId: ruleId, alertRuleName: 'Hall', createdAtDate: '2026-06-15T10:00:00.000Z' },
    ]);
    const folders = await kit.t.request('GET', `/api/v2/deviceGroup?search=deviceGroupPath:${kit.root.id}&select=alertCount`, {
      token: kit.viewer,
    });
    const counts = Object.fromEntries(folders.body.content.map((f: { id: string; alertCount: number }) => [f.id, f.alertCount]));
    expect(counts).toMatchObject({ [kit.root.id]: 1, [folderId]: 1 });
  });

  it('shows another tenant nothing', async () => {
    expect((await kit.t.request('GET', '/api/alert', { token: otherOwner })).body.totalElements).toBe(0);
    expect((await kit.t.request('GET', `/api/alert/device?alertRuleId=${ruleId}`, { token: otherOwner })).body.totalElements).toBe(0);
    expect((await kit.t.request('GET', '/api/alert/device/all', { token: otherOwner })).body).toEqual([]);
  });
});
