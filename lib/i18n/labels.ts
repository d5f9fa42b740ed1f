import { useMessages } from 'next-intl';
import { useCallback } from 'react';
import type { Messages } from '@/messages/en';

/*
 * The one label table (item 11): how the console names every enum value it shows, keyed by enum and value, in the
 * catalogues (messages/<locale>/labels.json). Add a value there, in every locale; the unit test checks every value of
 * the server's enums has a label.
 */
export type LabelTable = Messages['labels'];
export type LabelEnum = keyof LabelTable;
export type LabelValue<E extends LabelEnum> = keyof LabelTable[E] & string;

/** `label('role', 'OWNER')` → "Administrator"; a value the table lacks shows as it is, a missing one as `fallback`. */
export type Label = <E extends LabelEnum>(table: E, value: LabelValue<E> | (string & {}) | null | undefined, fallback?: string) => string;

export function labelFrom(table: LabelTable, tableName: LabelEnum, value: string | null | undefined, fallback = '—'): string {
  if (value === null || value === undefined || value === '') return fallback;
  const labels = table[tableName] as Record<string, string>;

  return Object.hasOwn(labels, value) ? (labels[value] as string) : value;
}

/** The label accessor of the console's locale. */
export function useLabel(): Label {
  const { labels } = useMessages();

  return useCallback<Label>((table, value, fallback) => labelFrom(labels, table, value, fallback), [labels]);
}

/** The values of one enum with their labels, in the table's order: for selects and filters. */
export function useLabelOptions<E extends LabelEnum>(table: E): Array<{ value: LabelValue<E>; label: string }> {
  const labels = useMessages().labels[table] as Record<string, string>;

  return Object.entries(labels).map(([value, label]) => ({ value: value as LabelValue<E>, label }));
}
