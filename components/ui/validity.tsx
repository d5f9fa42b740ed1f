'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/lib/format';

/*
 * A validity window (`validFrom`, `validTo`: epoch milliseconds, either side open) of a file or a playlist
 * item: its state now, its badge, and the two date-and-time fields that edit it.
 */

export type Validity = { validFrom?: number | null; validTo?: number | null };

export type ValidityState = 'expired' | 'upcoming' | 'valid' | 'unlimited';

export function validityState(item: Validity, now = Date.now()): ValidityState {
  if (item.validTo !== undefined && item.validTo !== null && item.validTo < now) return 'expired';
  if (item.validFrom !== undefined && item.validFrom !== null && item.validFrom > now) return 'upcoming';
  if (item.validFrom || item.validTo) return 'valid';

  return 'unlimited';
}

/** "Expired …", "From …" or "Until …"; nothing when there is no limit (or only a start in the past). */
export function ValidityBadge({ file, prefix = '' }: { file: Validity; prefix?: string }) {
  const state = validityState(file);
  if (state === 'expired') return <Badge tone="danger">{prefix}Expired {formatDate(file.validTo)}</Badge>;
  if (state === 'upcoming') return <Badge tone="warning">{prefix}From {formatDate(file.validFrom)}</Badge>;
  if (state === 'valid' && file.validTo) return <Badge>{prefix}Until {formatDate(file.validTo)}</Badge>;

  return null;
}

/** `datetime-local` text ↔ epoch milliseconds in the browser's time zone. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const d = new Date(ms);

  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function fromLocalInput(text: string): number | null {
  if (!text) return null;
  const ms = new Date(text).getTime();

  return Number.isNaN(ms) ? null : ms;
}

/** The window the two fields describe, or the message that says why not. */
export function readValidityFields(range: { from: string; to: string }): { validFrom: number | null; validTo: number | null } | { error: string } {
  const validFrom = fromLocalInput(range.from);
  const validTo = fromLocalInput(range.to);
  if (validFrom !== null && validTo !== null && validFrom > validTo) return { error: '“Valid from” must be before “Valid until”.' };

  return { validFrom, validTo };
}

export function ValidityFields({ from, to, onChange }: { from: string; to: string; onChange: (next: { from: string; to: string }) => void }) {
  const fromId = useId();
  const toId = useId();
  const t = useTranslations('ui.validity');

  return (
    <div className="grid grid-cols-2 gap-3">
      <Field id={fromId} label={t('from')}>
        <Input id={fromId} type="datetime-local" value={from} onChange={(e) => onChange({ from: e.target.value, to })} />
      </Field>
      <Field id={toId} label={t('until')}>
        <Input id={toId} type="datetime-local" value={to} onChange={(e) => onChange({ from, to: e.target.value })} />
      </Field>
    </div>
  );
}
