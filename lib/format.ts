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
