import { describe, expect, it } from 'vitest';
import { countsOfDashboard, countsOfOrders } from './licence-summary';
import { templateBody, templateRules, templateValues, type TemplateValues } from './template-fields';

const words = ((key: string) => key) as Parameters<typeof templateRules>[2];

function issuesOf(value: TemplateValues, complete = true): string[] {
  const found: string[] = [];
  templateRules(value, { addIssue: (issue) => found.push(`${issue.path[0]}:${issue.message}`) }, words, { complete });

  return found;
}

const blank = templateValues({});

describe('licence counts', () => {
  it('take the dashboard types in spec order, leaving out types never ordered', () => {
    const counts = countsOfDashboard({
      totalLicenseCount: 8,
      assignedLicenseCount: 3,
      unAssignedLicenseCount: 5,
      deviceStatusCounts: { UN_LICENSED: 1, FREE: 1, LICENSED: 3, TRIAL: 0 },
      licenseTypeCounts: {
        VIDEO_WALL: { ordered: 3, assigned: 3, free: 0 },
        BASIC: { ordered: 5, assigned: 0, free: 5 },
        DBA: { ordered: 0, assigned: 0, free: 0 },
        PROFESSIONAL: { ordered: 0, assigned: 0, free: 0 },
        ENTERPRISE: { ordered: 0, assigned: 0, free: 0 },
      },
      browserSessionLimit: 0,
      activeBrowserSessionCount: 0,
      freeCount: 2,
      usedFreeCount: 1,
    });
    expect(counts.byType.map((row) => row.type)).toEqual(['BASIC', 'VIDEO_WALL']);
    expect(counts.free).toEqual({ count: 2, used: 1 });
  });

  it('sum approved orders by type when the dashboard cannot be read', () => {
    const counts = countsOfOrders([
      { id: 1, licenseType: 'PROFESSIONAL', deviceLicenseCount: 5, assignedDeviceCount: 0 },
      { id: 2, licenseType: 'PROFESSIONAL', deviceLicenseCount: 3, assignedDeviceCount: 2 },
      { id: 3, licenseType: 'BASIC', deviceLicenseCount: 1, assignedDeviceCount: 1 },
    ]);
    expect(counts.byType).toEqual([
      { type: 'BASIC', ordered: 1, assigned: 1, free: 0 },
      { type: 'PROFESSIONAL', ordered: 8, assigned: 2, free: 6 },
    ]);
    expect(counts.free).toBeNull();
  });
});

describe('the licence template form', () => {
  it('states the API rules: type and pay type, a subscription period, a currency with a price', () => {
    expect(issuesOf(blank)).toEqual(['licenseType:typeRequired', 'licensePayType:payTypeRequired']);
    expect(issuesOf(blank, false)).toEqual([]);
    expect(issuesOf({ ...blank, licenseType: 'BASIC', licensePayType: 'SUBSCRIPTION', pricePerDevice: '3' })).toEqual([
      'recurrenceType:recurrenceRequired',
      'frequency:frequencyRequired',
      'currency:currencyRequired',
    ]);
  });

  it('sends a recurrence only for a subscription, the price as a number, the currency in upper case', () => {
    const base = { ...blank, licenseType: 'ENTERPRISE' as const, recurrenceType: 'MONTHLY' as const, frequency: '3' };
    expect(templateBody({ ...base, licensePayType: 'ONETIME', pricePerDevice: '12,5', currency: 'eur' })).toEqual({
      licenseType: 'ENTERPRISE',
      licensePayType: 'ONETIME',
      pricePerDevice: 12.5,
      currency: 'EUR',
    });
    expect(templateBody({ ...base, licensePayType: 'SUBSCRIPTION' })).toEqual({
      licenseType: 'ENTERPRISE',
      licensePayType: 'SUBSCRIPTION',
      recurrence: { recurrenceType: 'MONTHLY', frequency: 3 },
    });
  });

  it('reads a package back into the form', () => {
    expect(
      templateValues({
        licenseType: 'BASIC',
        licensePayType: 'SUBSCRIPTION',
        recurrence: { recurrenceType: 'YEARLY', frequency: 1 },
        pricePerDevice: 0.1,
      }),
    ).toEqual({
      ...blank,
      licenseType: 'BASIC',
      licensePayType: 'SUBSCRIPTION',
      recurrenceType: 'YEARLY',
      frequency: '1',
      pricePerDevice: '0.1',
    });
  });
});
