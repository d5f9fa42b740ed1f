'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ClockIcon } from '@/components/ui/icons';
import { toLocalInput, useValidityReader, ValidityBadge, ValidityFields, validityState, type Validity } from '@/components/ui/validity';
import { useFormat } from '@/lib/i18n/use-format';

/** Whether a playlist item (or the file it shows) is outside its validity now: screens skip it. */
export function isOutOfValidity(...windows: Array<Validity | undefined>): boolean {
  return windows.some((w) => w !== undefined && ['expired', 'upcoming'].includes(validityState(w)));
}

/** The validity window in words: "Always plays", or from – until. */
function useDescribe(): (item: Validity) => string {
  const t = useTranslations('content.validity');
  const format = useFormat();

  return (item) =>
    !item.validFrom && !item.validTo
      ? t('always')
      : t('range', { from: format.dateTime(item.validFrom, t('anyTime')), until: format.dateTime(item.validTo, t('noEnd')) });
}

/** A playlist item's validity under its name: expired, upcoming or until …, and whether screens skip it now. */
export function ItemValidityBadges({ item, file }: { item: Validity; file: Validity | undefined }) {
  const t = useTranslations('content.validity');
  const describe = useDescribe();

  return (
    <span className="flex flex-wrap items-center gap-1" data-testid="item-validity" title={describe(item)}>
      <ValidityBadge file={item} />
      {file ? <ValidityBadge file={file} prefix={t('filePrefix')} /> : null}
      {isOutOfValidity(item, file) ? <span className="text-zinc-500">{t('skipped')}</span> : null}
    </span>
  );
}

/**
 * The button that sets a playlist item's validity in a small dialog. `onChange` gets the new window (an open
 * side as undefined, so it leaves the document) and goes through the editor's history like every other item edit.
 */
export function ItemValidityButton({
  item,
  name,
  onChange,
}: {
  item: Validity;
  name: string;
  onChange: (next: { validFrom?: number; validTo?: number }) => void;
}) {
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState({ from: '', to: '' });
  useEffect(() => {
    if (open) setRange({ from: toLocalInput(item.validFrom), to: toLocalInput(item.validTo) });
  }, [open, item.validFrom, item.validTo]);
  const isSet = Boolean(item.validFrom || item.validTo);
  const t = useTranslations('content.validity');
  const describe = useDescribe();
  const readValidityFields = useValidityReader();

  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t('of', { name })}
        title={t('title', { window: describe(item) })}
        onClick={() => setOpen(true)}
        className={isSet ? 'text-brand-700' : undefined}
      >
        <ClockIcon className="size-4" />
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('of', { name })}
        description={t('description')}
        confirmLabel={t('submit')}
        onConfirm={async () => {
          const window = readValidityFields(range);
          if ('error' in window) throw new Error(window.error);
          onChange({ validFrom: window.validFrom ?? undefined, validTo: window.validTo ?? undefined });
        }}
      >
        <ValidityFields from={range.from} to={range.to} onChange={setRange} />
        {range.from || range.to ? (
          <Button variant="ghost" size="sm" onClick={() => setRange({ from: '', to: '' })}>
            {t('clear')}
          </Button>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
