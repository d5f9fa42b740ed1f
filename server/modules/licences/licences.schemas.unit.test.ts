import { describe, expect, it } from 'vitest';
import { decimalText } from './license-order-reads.service';
import { priceText } from './license-templates';
import { LicenseOrderCreateSchema, LicensePackageCreateSchema, LicenseOrderUpdateSchema } from './licences.schemas';

const order = { orderDate: '2026-11-01T00:00:00Z', deviceLicenseCount: 3 };
const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.path.join('.'));

describe('licence order and package rules', () => {
  it('an order without a package needs its type and pay type, and a SUBSCRIPTION its recurrence', () => {
    expect(issuesOf(LicenseOrderCreateSchema.safeParse(order))).toEqual(['licenseType', 'licensePayType']);
    expect(issuesOf(LicenseOrderCreateSchema.safeParse({ ...order, licenseType: 'BASIC', licensePayType: 'SUBSCRIPTION' }))).toEqual([
      'recurrence',
    ]);
    const onetime = { ...order, licenseType: 'BASIC', licensePayType: 'ONETIME' };
    expect(LicenseOrderCreateSchema.safeParse(onetime).success).toBe(true);
    expect(issuesOf(LicenseOrderCreateSchema.safeParse({ ...onetime, recurrence: { recurrenceType: 'DAILY', frequency: 2 } }))).toEqual([
      'recurrence',
    ]);
    expect(issuesOf(LicenseOrderCreateSchema.safeParse({ ...onetime, pricePerDevice: 3 }))).toEqual(['currency']);
  });

  it('an order with a package needs none of them', () => {
    expect(LicenseOrderCreateSchema.safeParse({ ...order, licensePackageId: 4 }).success).toBe(true);
  });

  it('a package is always complete', () => {
    expect(issuesOf(LicensePackageCreateSchema.safeParse({ name: 'P' }))).toEqual(['licenseType', 'licensePayType']);
    const parsed = LicensePackageCreateSchema.parse({
      name: 'P',
      licenseType: 'BASIC',
      licensePayType: 'ONETIME',
      pricePerDevice: 1,
      currency: 'chf',
    });
    expect(parsed.currency).toBe('CHF');
  });

  it('an update drops nulls and takes "" as removal of clearable fields', () => {
    expect(LicenseOrderUpdateSchema.parse({ comment: null, poNumber: '', pricePerDevice: '' })).toEqual({
      poNumber: null,
      pricePerDevice: null,
    });
  });
});

describe('prices as exact decimals', () => {
  it('writes four places, rounding finer digits', () => {
    expect(priceText(0.1)).toBe('0.1000');
    expect(priceText(1.23456)).toBe('1.2346');
    expect(priceText(9_999_999_999.9999)).toBe('9999999999.9999');
    expect(priceText(null)).toBeNull();
  });

  it('shows a stored decimal with at least two places, never through a float', () => {
    expect(decimalText('12.5000')).toBe('12.50');
    expect(decimalText('1234567.8912')).toBe('1234567.8912');
    expect(decimalText('3.0000')).toBe('3.00');
    expect(decimalText('12345678901234.1000')).toBe('12345678901234.10');
    expect(decimalText(null)).toBeNull();
  });
});
