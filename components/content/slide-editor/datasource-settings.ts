import type { DatasourceWidget } from '@/server/modules/content/content-data.schemas';

/*
 * The datasource widget's settings as the properties panel writes them (datasource-properties.tsx): only values
 * the slide schema accepts, and nothing written for what is the default.
 */

type Format = NonNullable<DatasourceWidget['format']>;

const CURRENCY = /^[A-Z]{3}$/;
const COLUMN = /^[^,]{1,255}$/;
const MAX_COLUMNS = 50;

/** The widget's format after a change of one of its parts; a plain value (as it is, nothing around it) is no format. */
export function nextFormat(current: DatasourceWidget['format'], patch: Partial<Format>): DatasourceWidget['format'] {
  const next: Format = { kind: 'text', ...current, ...patch };
  const isPlain = next.kind === 'text' && !next.prefix && !next.suffix;

  return isPlain ? undefined : next;
}

/** The columns typed as a comma-separated list; none: all of the data's. */
export function columnsOf(text: string): string[] | undefined {
  const columns = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

  return columns.length > 0 ? columns : undefined;
}

/** Whether the typed columns can be written (at most 50, each 1–255 characters). */
export function areColumnsValid(text: string): boolean {
  const columns = columnsOf(text) ?? [];

  return columns.length <= MAX_COLUMNS && columns.every((c) => COLUMN.test(c));
}

/** A currency code as typed (any case) in the form the schema takes, or undefined when it is none. */
export function currencyOf(text: string): string | undefined {
  const code = text.trim().toUpperCase();

  return CURRENCY.test(code) ? code : undefined;
}
