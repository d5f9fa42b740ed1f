import { describe, expect, it } from 'vitest';
import { isIanaTimeZone } from '@/server/http/wire.schemas';
import { AssignToCustomerSchema } from './display.schemas';

describe('claim and time-zone schemas', () => {
  it('accept IANA zone names and refuse offsets, abbreviations and unknown names', () => {
    for (const zone of ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5', 'Asia/Kathmandu'])
      expect(isIanaTimeZone(zone), zone).toBe(true);
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
