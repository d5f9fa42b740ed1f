import { describe, expect, it } from 'vitest';
import { formatMoney, formatUnitPrice } from './money';

describe('formatMoney', () => {
  it('rounds an amount to cents with its currency', () => {
    expect(formatMoney(109.384999, 'EUR', 'en')).toBe('€109.38');
    // Intl separates the sign with a no-break space.
    expect(formatMoney(1234.5, 'EUR', 'de').replace(/\s/g, ' ')).toBe('1.234,50 €');
    expect(formatMoney(0.005, 'USD', 'en')).toBe('$0.01');
  });

  it('keeps up to four decimals of a unit price', () => {
    expect(formatUnitPrice(12.345, 'EUR', 'en')).toBe('€12.345');
    expect(formatUnitPrice(12.5, 'EUR', 'en')).toBe('€12.50');
  });

  it('shows a code Intl does not take as the number and the code', () => {
    expect(formatMoney(10, 'E1R', 'en')).toBe('10.00 E1R');
  });
});
