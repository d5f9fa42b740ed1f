import { describe, expect, it } from 'vitest';
import { isCronExpression } from './advertisers.schemas';

describe('isCronExpression', () => {
  it.each([
    '* * * * *',
    '0 9 * * MON-FRI',
    '*/15 8-18 * * 1-5',
    '0 0 1,15 * ?',
    '0 0 12 ? JAN-MAR SAT,SUN',
    '0 30 9 * * *',
    '0 0/5 14,18 * * ?',
    '5 4 * * 7',
  ])('accepts %s', (value) => {
    expect(isCronExpression(value)).toBe(true);
  });

  it.each([
    '',
    '* * * *',
    '* * * * * * *',
    '60 * * * *',
    '* 24 * * *',
    '* * 0 * *',
    '* * * 13 *',
    '* * * * 8',
    '? * * * *',
    '*/0 * * * *',
    '5-1 * * * *',
    '1-2-3 * * * *',
    '*/5/2 * * * *',
    'a b c d e',
    '* * * FOO *',
    '@daily',
    `${'1,'.repeat(120)}1 * * * *`,
  ])('refuses %s', (value) => {
    expect(isCronExpression(value)).toBe(false);
  });
});
