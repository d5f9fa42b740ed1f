import { describe, expect, it } from 'vitest';
import { deviceOpenAlerts, neverConnected } from '@/lib/api/devices';

describe('neverConnected', () => {
  it('is true for an offline screen with no status change and no activity', () => {
    expect(neverConnected({ deviceStatus: 'OFFLINE' })).toBe(true);
    expect(neverConnected({ deviceStatus: 'OFFLINE', lastDeviceStatusChange: undefined, lastActivity: undefined })).toBe(true);
  });

  it('is false once the screen has reported or changed status', () => {
    expect(neverConnected({ deviceStatus: 'OFFLINE', lastDeviceStatusChange: '2026-11-27T08:00:00Z' })).toBe(false);
    expect(neverConnected({ deviceStatus: 'OFFLINE', lastActivity: '2026-11-27T08:00:00Z' })).toBe(false);
    expect(neverConnected({ deviceStatus: 'ONLINE' })).toBe(false);
  });
});

describe('deviceOpenAlerts', () => {
  it('reads the open alerts of the `alerts` field, newest first', () => {
    const alerts = deviceOpenAlerts({
      alerts: [
        { id: 4, alertRuleId: 1, alertRuleName: 'Lobby offline', createdAtDate: '2026-11-27T08:00:00.000Z' },
        { id: 9, alertRuleId: 2, alertRuleName: 'Night watch', createdAtDate: '2026-11-28T22:15:00.000Z' },
      ],
    });
    expect(alerts.map((a) => [a.id, a.alertRuleName])).toEqual([
      [9, 'Night watch'],
      [4, 'Lobby offline'],
    ]);
  });

  it('is empty without the field and leaves out entries without an id or a time', () => {
    expect(deviceOpenAlerts({})).toEqual([]);
    expect(deviceOpenAlerts({ alerts: [] })).toEqual([]);
    expect(deviceOpenAlerts({ alerts: [{ id: '4', createdAtDate: '2026-11-27T08:00:00.000Z' }, { id: 5 }] })).toEqual([]);
    expect(deviceOpenAlerts({ alerts: [{ id: 5, createdAtDate: '2026-11-27T08:00:00.000Z' }] })).toEqual([
      { id: 5, alertRuleId: 0, alertRuleName: '', createdAtDate: '2026-11-27T08:00:00.000Z' },
    ]);
  });
});
