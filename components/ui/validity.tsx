'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useFormat } from '@/lib/i18n/use-format';

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
  const t = useTranslations('ui.validity');
  const format = useFormat();
  const state = validityState(file);
  if (state === 'expired') return <Badge tone="danger">{t('badgeExpired', { prefix, date: format.date(file.validTo) })}</Badge>;
  if (state === 'upcoming') return <Badge tone="warning">{t('badgeFrom', { prefix, date: format.date(file.validFrom) })}</Badge>;
  if (state === 'valid' && file.validTo) return <Badge>{t('badgeUntil', { prefix, date: format.date(file.validTo) })}</Badge>;

  return null;
}

/** `datetime-local` text ↔ epoch milliseconds in the browser's time zone. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const d = new Date(ms);

  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function fromLocalInput(text: string): number | null {
  if (!text) return null;
  const ms = new Date(text).getTime();

  return Number.isNaN(ms) ? null : ms;
}

type ValidityWindow = { validFrom: number | null; validTo: number | null };

/** The window the two fields describe, or `order` when it ends before it starts. */
function readValidityFields(range: { from: string; to: string }): ValidityWindow | { error: 'order' } {
  const validFrom = fromLocalInput(range.from);
  const validTo = fromLocalInput(range.to);
  if (validFrom !== null && validTo !== null && validFrom > validTo) return { error: 'order' };

  return { validFrom, validTo };
}

/** readValidityFields with its error worded in the console's language, for a form to show. */
export function useValidityReader(): (range: { from: string; to: string }) => ValidityWindow | { error: string } {
  const t = useTranslations('ui.validity');

  return (range) => {
    const window = readValidityFields(range);

    return 'error' in window ? { error: t(window.error) } : window;
  };
}

export function ValidityFields({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (next: { from: string; to: string }) => void;
}) {
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
