import { describe, expect, it } from 'vitest';
import { isLicenseChoice, licenseChoiceOf, licenseOfChoice, offeredLicences } from './license-choices';
import { licenseFilterTerm } from '@/lib/api/devices';

describe('licence choices', () => {
  it('name a screen licensed against an order by the order, a free one by its type', () => {
    expect(licenseChoiceOf({ licenseStatus: 'LICENSED', licenseType: 'PROFESSIONAL', licenseOrderId: 12 })).toBe('ORDER:12');
    expect(licenseChoiceOf({ licenseStatus: 'FREE', licenseType: 'BASIC' })).toBe('FREE:BASIC');
    expect(licenseChoiceOf({ licenseStatus: 'UN_LICENSED' })).toBe('UN_LICENSED');
    expect(licenseChoiceOf({})).toBe('UN_LICENSED');
  });

  it('offer no choice for what the console cannot give (a trial, LICENSED without its order, a FREE type not offered)', () => {
    expect(licenseChoiceOf({ licenseStatus: 'TRIAL', licenseType: 'BASIC' })).toBeNull();
    expect(licenseChoiceOf({ licenseStatus: 'LICENSED', licenseType: 'BASIC' })).toBeNull();
    expect(licenseChoiceOf({ licenseStatus: 'FREE', licenseType: 'VIDEO_WALL' })).toBeNull();
  });

  it('turn into the API fields of the claim and of updateLicense', () => {
    expect(licenseOfChoice('ORDER:7')).toEqual({ licenseStatus: 'LICENSED', licenseOrderId: 7 });
    expect(licenseOfChoice('FREE:ENTERPRISE')).toEqual({ licenseStatus: 'FREE', licenseType: 'ENTERPRISE' });
    expect(licenseOfChoice('UN_LICENSED')).toEqual({ licenseStatus: 'UN_LICENSED' });
  });

  it('recognise only their own values', () => {
    expect(['UN_LICENSED', 'FREE:BASIC', 'ORDER:3'].every(isLicenseChoice)).toBe(true);
    expect(['KEEP', 'FREE:DBA', 'ORDER:', 'ORDER:1x', 'LICENSED', ''].some(isLicenseChoice)).toBe(false);
  });
});

describe('the licences a screen is offered (claim and edit)', () => {
  const full = { id: 1, deviceLicenseCount: 5, assignedDeviceCount: 5 };
  const open = { id: 2, deviceLicenseCount: 5, assignedDeviceCount: 4 };
  const values = (input: Parameters<typeof offeredLicences>[0]) => offeredLicences(input).map((offer) => offer.value);
  const FREE = ['FREE:BASIC', 'FREE:PROFESSIONAL', 'FREE:ENTERPRISE'];

  it('are only orders with a free licence, and FREE while the customer has free licences left', () => {
    expect(values({ orders: [full, open], free: { usedFreeCount: 1, freeCount: 2 } })).toEqual(['UN_LICENSED', ...FREE, 'ORDER:2']);
    expect(values({ orders: [full, open], free: { usedFreeCount: 2, freeCount: 2 } })).toEqual(['UN_LICENSED', 'ORDER:2']);
    expect(values({ orders: [full], free: { usedFreeCount: 0, freeCount: 0 } })).toEqual(['UN_LICENSED']);
  });

  it('keep the screen’s own licence though nothing is free', () => {
    expect(values({ orders: [full], free: { usedFreeCount: 2, freeCount: 2 }, current: 'ORDER:1' })).toEqual(['UN_LICENSED', 'ORDER:1']);
    expect(values({ orders: [full], free: { usedFreeCount: 2, freeCount: 2 }, current: 'FREE:BASIC' })).toEqual(['UN_LICENSED', ...FREE]);
  });

  it('offer FREE where the dashboard cannot be read (the API decides), not while it is read', () => {
    expect(values({ orders: [], free: 'unreadable' })).toEqual(['UN_LICENSED', ...FREE]);
    expect(values({ orders: [], free: 'pending' })).toEqual(['UN_LICENSED']);
  });
});

describe('the screens list licence filter', () => {
  it('searches by status or, with type:, by licence type', () => {
    expect(licenseFilterTerm('all')).toBeNull();
    expect(licenseFilterTerm('FREE')?.text).toBe('licenseStatus=FREE');
    expect(licenseFilterTerm('type:ENTERPRISE')?.text).toBe('licenseType=ENTERPRISE');
  });
});
