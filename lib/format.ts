/*
 * Dates, numbers and sizes as the console shows them, in a locale. Components read the console's locale through
 * `useFormat()` (lib/i18n/use-format.ts); a missing locale means the browser's (the phase-1 callers not yet moved).
 */

const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }

  return format;
}

const dateTimeFormat = (locale: string | undefined) =>
  cached(`dt:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }));
const dateFormat = (locale: string | undefined) => cached(`d:${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }));
const numberFormat = (locale: string | undefined, digits: number) =>
  cached(`n:${locale}:${digits}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }));

function toDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = new Date(value);

  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDateTime(value: string | number | null | undefined, fallback = '—', locale?: string): string {
  const d = toDate(value);

  return d ? dateTimeFormat(locale).format(d) : fallback;
}

export function formatDate(value: string | number | null | undefined, fallback = '—', locale?: string): string {
  const d = toDate(value);

  return d ? dateFormat(locale).format(d) : fallback;
}

/** `1,024` in English, `1.024` in German. */
export function formatNumber(value: number, locale?: string, fractionDigits = 0): string {
  return numberFormat(locale, fractionDigits).format(value);
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** `512 B`, `1.5 MB` (`1,5 MB` in German), `12 GB`: binary steps, one decimal below 10. */
export function formatBytes(bytes: number | null | undefined, locale?: string): string {
  if (bytes === null || bytes === undefined) return '—';
  if (Math.abs(bytes) < 1024) return `${formatNumber(Math.round(bytes), locale)} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }

  return `${Math.abs(value) < 10 ? formatNumber(value, locale, 1) : formatNumber(Math.round(value), locale)} ${BYTE_UNITS[unit]}`;
}

/** A noun's singular and plural: `{ one: 'file', other: 'files' }`. */
export type Noun = { one: string; other: string };

/** `1 file`, `3 files`, `1,024 files` (`1.024` in German). */
export function countOf(count: number, noun: Noun, locale?: string): string {
  return `${formatNumber(count, locale)} ${count === 1 ? noun.one : noun.other}`;
}

/** A measured value for reading: grouped, at most `maximumFractionDigits` decimals, none from 100 up (`1,234`, `0.25`). */
export function formatReading(value: number | null | undefined, locale?: string, maximumFractionDigits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';

  return cached(
    `r:${locale}:${Math.abs(value) >= 100 ? 0 : maximumFractionDigits}`,
    () => new Intl.NumberFormat(locale, { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : maximumFractionDigits }),
  ).format(value);
}
