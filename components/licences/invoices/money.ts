/**
 * An amount with its currency, rounded to the currency's minor unit (cents) only here, when shown (spec 5 §6). The
 * API answers exact decimals; a code Intl does not know is shown as the number and the code.
 */
export function formatMoney(amount: number, currency: string, locale: string): string {
  return formatWith(amount, currency, locale, {});
}

/**
 * A unit price as stored (up to four decimal places, at least the currency's own): 12.345 stays 12.345, where an
 * amount would show 12.35.
 */
export function formatUnitPrice(price: number, currency: string, locale: string): string {
  return formatWith(price, currency, locale, { maximumFractionDigits: 4 });
}

function formatWith(value: number, currency: string, locale: string, digits: { maximumFractionDigits?: number }): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: digits.maximumFractionDigits ?? 2 }).format(value)} ${currency}`;
  }
}
