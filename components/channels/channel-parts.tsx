'use client';

import type { ReactNode } from 'react';
import type { ChannelDraft, Named } from '@/components/channels/channel-draft';
import { Field, Select } from '@/components/ui/field';
import { XIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useQuickFilters, type QuickFilterType } from '@/lib/api/quick-filters';

/** What every section of the channel editor gets: the draft, its setter, the API's field errors. */
export type SectionProps = {
  draft: ChannelDraft;
  set: <K extends keyof ChannelDraft>(key: K, value: ChannelDraft[K]) => void;
  errors: Partial<Record<string, string>>;
  disabled: boolean;
};

export function FieldError({ message }: { message?: string }) {
  return message ? <p className="text-sm text-red-700">{message}</p> : null;
}

export function Chips<I extends string | number>({ items, label, onRemove, disabled }: { items: Named<I>[]; label: string; onRemove: (id: I) => void; disabled: boolean }) {
  if (items.length === 0) return null;

  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li key={String(item.id)} className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-sm text-brand-800 ring-1 ring-brand-200 ring-inset">
          {item.name}
          <button type="button" aria-label={`Remove ${item.name}`} disabled={disabled} onClick={() => onRemove(item.id)} className="cursor-pointer rounded-full p-0.5 hover:bg-brand-100">
            <XIcon className="size-3.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A folder tree whose clicks add or remove folders, the chosen ones as chips below it. */
export function FolderChooser({ hint, tree, chosen, label, onRemove, error, disabled }: { hint: ReactNode; tree: ReactNode | null; chosen: Named[]; label: string; onRemove: (id: string) => void; error?: string; disabled: boolean }) {
  return (
    <div className="space-y-2">
      <p className="text-sm text-zinc-500">{hint}</p>
      <div className="max-h-64 overflow-y-auto rounded-md p-2 ring-1 ring-zinc-200 ring-inset">{tree ?? <Spinner className="m-2 size-4" />}</div>
      <Chips items={chosen} label={label} disabled={disabled} onRemove={onRemove} />
      <FieldError message={error} />
    </div>
  );
}

/** Adds `item` to a list of named items, or takes it out when it is there. */
export const toggled = <I,>(list: readonly Named<I>[], item: Named<I>): Named<I>[] => (list.some((x) => x.id === item.id) ? list.filter((x) => x.id !== item.id) : [...list, item]);

/** A quick filter of one entity type, chosen in a select (the filter's items or screens are read when played). */
export function QuickFilterField({ id, label, type, value, onChange, error, disabled }: { id: string; label: string; type: QuickFilterType; value: string; onChange: (id: string) => void; error?: string; disabled: boolean }) {
  const filters = useQuickFilters(type);

  return (
    <Field id={id} label={label} error={error}>
      <Select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose a filter…</option>
        {(filters.data?.content ?? []).map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}
