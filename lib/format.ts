const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function toDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = new Date(value);

  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDateTime(value: string | number | null | undefined, fallback = '—'): string {
  const d = toDate(value);

  return d ? dateTime.format(d) : fallback;
}

export function formatDate(value: string | number | null | undefined, fallback = '—'): string {
  const d = toDate(value);

  return d ? date.format(d) : fallback;
}

/** A noun's singular and plural: `{ one: 'file', other: 'files' }`. */
export type Noun = { one: string; other: string };

/** `1 file`, `3 files`, `1,024 files`. */
export function countOf(count: number, noun: Noun): string {
  return `${count.toLocaleString()} ${count === 1 ? noun.one : noun.other}`;
}

/** `512 B`, `1.5 KB`, `20 MB`, `3.2 GB` (1024-based, as the media library shows sizes). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (Math.abs(bytes) < 1024) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }

  return `${Math.abs(value) < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A number for reading: grouped, at most `maximumFractionDigits` decimals (`1,234`, `0.25`). */
export function formatNumber(value: number | null | undefined, maximumFractionDigits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';

  return value.toLocaleString(undefined, { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : maximumFractionDigits });
}
