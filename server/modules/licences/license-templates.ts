import { ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import type { Recurrence } from './licences.schemas';
import type { licenseOrders, LicensePackageRow } from './licences.table';

/*
 * The template fields (type, pay type, recurrence, price, currency) shared by packages and orders, in their stored
 * form, and the comparisons the partial updates of both use.
 */

/** The stored form of a template's fields (a package's, or an order's own). */
export type TemplateColumns = Pick<
  typeof licenseOrders.$inferInsert,
  'licenseType' | 'licensePayType' | 'recurrenceType' | 'recurrenceFrequency' | 'pricePerDevice' | 'currency'
>;

export const recurrenceColumns = (recurrence: Recurrence | null | undefined) => ({
  recurrenceType: recurrence?.recurrenceType ?? null,
  recurrenceFrequency: recurrence?.frequency ?? null,
});

/**
 * A price as the numeric column takes it: the number's decimal text at the column's four places (0.1 → `0.1000`,
 * never 0.1000000000000000055; 1.23456 → `1.2346`). JSON Schema's `multipleOf` cannot say "four places" for binary
 * floats (0.3 / 0.0001 is no integer), so finer digits are rounded rather than refused.
 */
export const priceText = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : value.toFixed(4);

export function packageTemplate(row: LicensePackageRow): TemplateColumns {
  return {
    licenseType: row.licenseType,
    licensePayType: row.licensePayType,
    recurrenceType: row.recurrenceType,
    recurrenceFrequency: row.recurrenceFrequency,
    pricePerDevice: row.pricePerDevice,
    currency: row.currency,
  };
}

export const combination = (message: string, parameter: string) => new ValidationError(INVALID_COMBINATION, message, { parameter });

/** The template rules of licences.schemas.ts `templateIssues`, over stored columns (an update merged with the row). */
export function assertTemplate(merged: TemplateColumns): void {
  if (merged.licensePayType === 'SUBSCRIPTION' && !merged.recurrenceType)
    throw combination('A SUBSCRIPTION needs its recurrence', 'recurrence');
  if (merged.pricePerDevice !== null && merged.pricePerDevice !== undefined && !merged.currency)
    throw combination('A price needs its currency', 'currency');
}

/** Equal stored values: numeric text by value (`12.5000` = `12.5`), dates by instant. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);

  return typeof a === 'string' && typeof b === 'string' && /^\d/.test(a) && /^\d/.test(b) && !Number.isNaN(Number(a))
    ? Number(a) === Number(b)
    : a === b;
}

/** The values that differ from the row, as the audit's `{from, to}`. */
export function changesOf<R extends Record<string, unknown>>(row: R, values: Partial<R>): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, to] of Object.entries(values)) {
    if (to !== undefined && !sameValue(row[key], to)) changes[key] = { from: row[key] ?? null, to: to ?? null };
  }

  return changes;
}
