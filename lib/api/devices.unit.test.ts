import { describe, expect, it } from 'vitest';
import { neverConnected } from '@/lib/api/devices';

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
