'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useMemo } from 'react';
import type { ChannelDraft, DateRange } from '@/components/channels/channel-draft';
import type { SectionProps } from '@/components/channels/channel-parts';
import { Button } from '@/components/ui/button';
import { CheckboxField, Field, Select } from '@/components/ui/field';
import { PlusIcon, TrashIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { weekdayNames } from '@/lib/schedule/calendar';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { dayNames } from '@/server/playback/schedule-rules.schemas';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);

  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * Whether the hour starting at `hour` on the grid's day `dayIndex` plays (any minute of it): a window from
 * later than end spans midnight and belongs to the day it starts on (its early hours show on the next day).
 */
export function hourPlays(draft: Pick<ChannelDraft, 'days' | 'allDay' | 'from' | 'end'>, dayIndex: number, hour: number): boolean {
  const today = draft.days[dayNames[dayIndex]!];
  const yesterday = draft.days[dayNames[(dayIndex + 6) % 7]!];
  if (draft.allDay) return today;
  const from = minutes(draft.from);
  const end = draft.end === '23:59' ? 1440 : minutes(draft.end);
  const [s, e] = [hour * 60, hour * 60 + 60];
  if (from < end) return today && s < end && e > from;

  return (today && e > from) || (yesterday && s < end);
}

type Props = SectionProps;

/** Days and hours on a week grid: a day's header switches the day; the window and its time zone below. */
export function WeekGrid({ draft, set, disabled }: Props) {
  const t = useTranslations('channels.when');
  const locale = useLocale();
  const weekdays = useMemo(() => weekdayNames(locale), [locale]);

  return (
    <div className="space-y-3">
      <div className="overflow-x-auto">
        <div role="group" aria-label={t('week')} className="grid min-w-[28rem] grid-cols-[2.5rem_repeat(7,1fr)] gap-x-1 text-xs">
          <span />
          {dayNames.map((d, i) => (
            <button
              key={d}
              type="button"
              aria-pressed={draft.days[d]}
              disabled={disabled}
              onClick={() => set('days', { ...draft.days, [d]: !draft.days[d] })}
              className={cn(
                'mb-1 cursor-pointer rounded-md py-1 font-medium ring-1 ring-inset disabled:cursor-default',
                draft.days[d] ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white text-zinc-500 ring-zinc-300 hover:bg-zinc-50',
              )}
            >
              {weekdays[i]}
            </button>
          ))}
          {HOURS.map((h) => (
            <div key={h} className="contents">
              <span className="pr-1 text-right leading-[0.625rem] text-zinc-400 tabular-nums">
                {h % 3 === 0 ? `${String(h).padStart(2, '0')}:00` : ''}
              </span>
              {dayNames.map((d, i) => (
                <span
                  key={d}
                  data-plays={hourPlays(draft, i, h) || undefined}
                  className={cn('h-2.5', h % 3 === 0 && 'border-t border-white', hourPlays(draft, i, h) ? 'bg-brand-500' : 'bg-zinc-100')}
                />
              ))}
            </div>
          ))}
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <CheckboxField
          id="channel-all-day"
          label={t('allDay')}
          checked={draft.allDay}
          disabled={disabled}
          onChange={(e) => set('allDay', e.target.checked)}
        />
        {!draft.allDay ? (
          <>
            <Field id="channel-from" label={t('from')}>
              <Input
                id="channel-from"
                type="time"
                value={draft.from}
                disabled={disabled}
                onChange={(e) => set('from', e.target.value)}
                className="w-32"
              />
            </Field>
            <Field id="channel-end" label={t('until')}>
              <Input
                id="channel-end"
                type="time"
                value={draft.end}
                disabled={disabled}
                onChange={(e) => set('end', e.target.value)}
                className="w-32"
              />
            </Field>
          </>
        ) : null}
        <Field id="channel-zone" label={t('zone')} className="min-w-56">
          <Select id="channel-zone" value={draft.hoursZone} disabled={disabled} onChange={(e) => set('hoursZone', e.target.value)}>
            <TimeZoneOptions emptyLabel={t('screenZone')} current={draft.hoursZone || undefined} />
          </Select>
        </Field>
      </div>
      {!draft.allDay && minutes(draft.from) > minutes(draft.end) ? <p className="text-sm text-zinc-500">{t('pastMidnight')}</p> : null}
    </div>
  );
}

/** The first and last day it plays (`validFrom`/`validTo`, the screens' own dates). */
export function ValidityFields({ draft, set, errors, disabled, idPrefix }: Props & { idPrefix: string }) {
  const t = useTranslations('channels.when');

  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:max-w-xl">
      <Field id={`${idPrefix}-valid-from`} label={t('firstDay')} error={errors.validFrom}>
        <Input
          id={`${idPrefix}-valid-from`}
          type="date"
          value={draft.validFrom}
          disabled={disabled}
          onChange={(e) => set('validFrom', e.target.value)}
        />
      </Field>
      <Field id={`${idPrefix}-valid-to`} label={t('lastDay')} error={errors.validTo}>
        <Input
          id={`${idPrefix}-valid-to`}
          type="date"
          value={draft.validTo}
          disabled={disabled}
          onChange={(e) => set('validTo', e.target.value)}
        />
      </Field>
    </div>
  );
}

/** Date ranges: included ones limit the channel to them, excluded ones are blackouts (spec 1 "Schedule interval object"). */
export function DateRanges({ draft, set, disabled }: Props) {
  const t = useTranslations('channels.when');
  const change = (i: number, patch: Partial<DateRange>) =>
    set(
      'ranges',
      draft.ranges.map((r, j) => (j === i ? { ...r, ...patch } : r)),
    );

  return (
    <div className="space-y-2">
      {draft.ranges.length === 0 ? <p className="text-sm text-zinc-500">{t('noRanges')}</p> : null}
      <ul className="space-y-2" aria-label={t('dateRanges')}>
        {draft.ranges.map((range, i) => (
          <li key={i} className="grid grid-cols-[9rem_10rem_auto_10rem_auto] items-center justify-start gap-2">
            <Select
              aria-label={t('rangeKind', { n: i + 1 })}
              value={range.isExcluded ? 'exclude' : 'include'}
              disabled={disabled}
              onChange={(e) => change(i, { isExcluded: e.target.value === 'exclude' })}
              className="w-36"
            >
              <option value="include">{t('include')}</option>
              <option value="exclude">{t('exclude')}</option>
            </Select>
            <Input
              aria-label={t('rangeFrom', { n: i + 1 })}
              type="date"
              value={range.from}
              disabled={disabled}
              onChange={(e) => change(i, { from: e.target.value })}
              className="w-40"
            />
            <span className="text-sm text-zinc-500">{t('to')}</span>
            <Input
              aria-label={t('rangeTo', { n: i + 1 })}
              type="date"
              value={range.to}
              disabled={disabled}
              onChange={(e) => change(i, { to: e.target.value })}
              className="w-40"
            />
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('removeRange', { n: i + 1 })}
              disabled={disabled}
              onClick={() =>
                set(
                  'ranges',
                  draft.ranges.filter((_, j) => j !== i),
                )
              }
            >
              <TrashIcon className="size-4" />
            </Button>
          </li>
        ))}
      </ul>
      <Button
        variant="secondary"
        size="sm"
        disabled={disabled}
        onClick={() => set('ranges', [...draft.ranges, { from: '', to: '', isExcluded: false }])}
      >
        <PlusIcon className="size-4" />
        {t('addRange')}
      </Button>
    </div>
  );
}
