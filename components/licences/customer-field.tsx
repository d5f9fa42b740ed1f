'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { Field, fieldAria, Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useCustomerSelect } from '@/lib/api/customers';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';

export type CustomerChoice = { id: number; name: string };

/**
 * The customer an order is for, among the tenants the caller reaches (ADMIN: every tenant, a network owner: its
 * network); a search narrows long lists. `emptyLabel`: what no choice means (a network owner's own customer), or
 * none when a choice is required.
 */
export function CustomerField({
  value,
  error,
  emptyLabel,
  onChange,
}: {
  value: CustomerChoice | null;
  error?: string;
  emptyLabel?: string;
  onChange: (customer: CustomerChoice | null) => void;
}) {
  const t = useTranslations('licences.customer');
  const id = useId();
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, 200);
  const query = useCustomerSelect({ text: debounced, page: 0, size: 50 });
  const options = query.data?.content ?? [];
  const total = query.data?.totalElements ?? 0;
  // The chosen customer stays listed while a search shows others.
  const listed = value && !options.some((c) => c.id === value.id) ? [value, ...options] : options;
  const hint = total > options.length ? t('shown', { shown: options.length, total }) : undefined;

  return (
    <Field id={id} label={t('label')} error={error} hint={hint}>
      <div className="space-y-2">
        <Input type="search" aria-label={t('search')} placeholder={t('search')} value={text} onChange={(e) => setText(e.target.value)} />
        <Select
          {...fieldAria(id, error, hint !== undefined)}
          value={value ? String(value.id) : ''}
          onChange={(e) => {
            const picked = listed.find((c) => String(c.id) === e.target.value);
            onChange(picked ? { id: picked.id, name: picked.name } : null);
          }}
        >
          <option value="">{query.isPending ? t('loading') : (emptyLabel ?? t('choose'))}</option>
          {listed.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </div>
    </Field>
  );
}
