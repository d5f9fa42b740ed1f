/**
 * An amount with its currency, rounded to the currency's minor unit (cents) only here, when shown (spec 5 §6). The
 * API answers exact decimals; a code Intl does not know is shown as the number and the code.
 */
export function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}
