import { describe, expect, it } from 'vitest';
import { DEVICE_PLATFORMS, DEVICE_STATUSES, DEVICE_TYPES, LICENSE_STATUSES, LICENSE_TYPES } from '@/server/modules/devices/devices.table';
import { AssignToCustomerSchema, DEVICE_PLATFORM_VALUES, DEVICE_STATUS_VALUES, DEVICE_TYPE_VALUES, isIanaTimeZone, LICENSE_STATUS_VALUES, LICENSE_TYPE_VALUES } from './display.schemas';

describe('display schemas', () => {
  it('repeat the device enums of devices.table.ts exactly', () => {
    expect(DEVICE_TYPE_VALUES).toEqual(DEVICE_TYPES);
    expect(DEVICE_PLATFORM_VALUES).toEqual(DEVICE_PLATFORMS);
    expect(DEVICE_STATUS_VALUES).toEqual(DEVICE_STATUSES);
    expect(LICENSE_STATUS_VALUES).toEqual(LICENSE_STATUSES);
    expect(LICENSE_TYPE_VALUES).toEqual(LICENSE_TYPES);
  });

  it('accept IANA zone names and refuse offsets, abbreviations and unknown names', () => {
    for (const zone of ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5', 'Asia/Kathmandu']) expect(isIanaTimeZone(zone), zone).toBe(true);
    for (const zone of ['+01:00', 'GMT+1 ', 'Berlin', 'Mars/Olympus', '', 'Europe/../etc']) expect(isIanaTimeZone(zone), zone).toBe(false);
  });

  it('take exactly one of activationCode and serial in a claim', () => {
    const base = { deviceName: 'a', licenseStatus: 'UN_LICENSED', timeZone: 'UTC' };
    expect(AssignToCustomerSchema.safeParse({ ...base, activationCode: '0123' }).success).toBe(true);
    expect(AssignToCustomerSchema.safeParse({ ...base, serial: 'S1', createDeviceIfSerialNotFound: true }).success).toBe(true);
    expect(AssignToCustomerSchema.safeParse(base).success).toBe(false);
    expect(AssignToCustomerSchema.safeParse({ ...base, activationCode: '0123', serial: 'S1' }).success).toBe(false);
  });
});
