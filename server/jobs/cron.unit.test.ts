import { describe, expect, it } from 'vitest';
import { nextCronTime } from './cron';

describe('nextCronTime', () => {
  it('is strictly after the given time, in UTC by default', () => {
    expect(nextCronTime('*/15 * * * *', Date.UTC(2026, 0, 1, 0, 15))).toBe(Date.UTC(2026, 0, 1, 0, 30));
    expect(nextCronTime('*/15 * * * *', Date.UTC(2026, 0, 1, 0, 14, 59, 500))).toBe(Date.UTC(2026, 0, 1, 0, 15));
  });

  it('reads the expression in the given zone, across a DST change', () => {
    // 07:00 in Berlin: 06:00 UTC in winter, 05:00 UTC in summer (DST began 29 March 2026).
    expect(nextCronTime('0 7 * * *', Date.UTC(2026, 2, 28, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 5));
    expect(nextCronTime('0 7 * * *', Date.UTC(2026, 2, 27, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 28, 6));
  });
});
