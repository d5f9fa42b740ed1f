import { describe, expect, it } from 'vitest';
import { isLicenseChoice, licenseChoiceOf, licenseOfChoice } from './license-choices';
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

describe('the screens list licence filter', () => {
  it('searches by status or, with type:, by licence type', () => {
    expect(licenseFilterTerm('all')).toBeNull();
    expect(licenseFilterTerm('FREE')?.text).toBe('licenseStatus=FREE');
    expect(licenseFilterTerm('type:ENTERPRISE')?.text).toBe('licenseType=ENTERPRISE');
  });
});
