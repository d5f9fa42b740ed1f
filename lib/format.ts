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
