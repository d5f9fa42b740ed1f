'use client';

import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useDeviceSchedule } from '@/lib/api/devices';
import { cn } from '@/lib/cn';
import { useElementWidth } from '@/lib/hooks/use-element-width';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { fittingTicks, formatSpan, type Tick, timelineBars, timelineTicks } from '@/lib/schedule/timeline';
import type { Segment } from '@/server/modules/display/display.schemas';
import { useNow } from '@/lib/hooks/use-now';

const HOUR = 3_600_000;
const RANGES = [
  { key: 'day', span: 24 * HOUR, tickHours: 3 },
  { key: 'week', span: 7 * 24 * HOUR, tickHours: 24 },
] as const;
type RangeKey = (typeof RANGES)[number]['key'];

/** The layers of spec 4 §4, highest first, as the console colours them (the label table names them). */
const LAYERS: Record<Segment['layer'], { bar: string; tone: BadgeTone }> = {
  EMERGENCY: { bar: 'bg-red-500', tone: 'danger' },
  SCHEDULE: { bar: 'bg-violet-500', tone: 'info' },
  CONTENT: { bar: 'bg-brand-500', tone: 'brand' },
  CHANNELS: { bar: 'bg-emerald-500', tone: 'success' },
  NONE: { bar: 'bg-zinc-200', tone: 'neutral' },
};

/** What a segment shows: its content, else the channels eligible in it. */
function segmentWhat(segment: Segment): string {
  if (segment.content) return segment.content.name;
  const names = segment.channels.map((c) => (typeof c.name === 'string' ? c.name : null)).filter((n): n is string => Boolean(n));

  return names.length > 0 ? names.join(', ') : '—';
}

/** The width a tick's label takes in the axis's font (its wider line), measured on a canvas. */
function labelMeasure(element: HTMLElement | null): (tick: Tick) => number {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context || !element) return (tick) => 7 * Math.max(tick.label.length, tick.sub?.length ?? 0);
  const style = getComputedStyle(element);
  // Major ticks are semibold: measure every label at that weight, the wider one.
  context.font = `600 ${style.fontSize} ${style.fontFamily}`;

  return (tick) => Math.ceil(Math.max(context.measureText(tick.label).width, tick.sub ? context.measureText(tick.sub).width : 0));
}

/**
 * What the screen plays over the next 24 hours or 7 days (`GET /api/v2/device/{id}/schedule`, the
 * resolution the screen itself gets), on an axis in the screen's time zone, with the segments listed.
 */
export function ScreenTimeline({ deviceId }: { deviceId: string }) {
  const t = useTranslations('devices.timeline');
  const label = useLabel();
  const { locale } = useFormat();
  const [rangeKey, setRangeKey] = useState<RangeKey>('day');
  const range = RANGES.find((r) => r.key === rangeKey)!;
  const now = useNow(5 * 60_000, 60_000);
  const period = useMemo(() => ({ from: now, to: now + range.span }), [now, range.span]);
  const schedule = useDeviceSchedule(deviceId, period);
  const timeZone = schedule.data?.timeZone ?? 'UTC';
  const segments = schedule.data?.segments ?? [];
  const bars = timelineBars(segments, period);
  const [axis, setAxis] = useState<HTMLDivElement | null>(null);
  const axisWidth = useElementWidth(axis);
  const ticks = useMemo(
    () => fittingTicks(timelineTicks(period, timeZone, range.tickHours, locale), axisWidth, labelMeasure(axis)),
    [period, timeZone, range.tickHours, axisWidth, axis, locale],
  );

  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">{t('heading')}</h2>
          <p className="text-xs text-zinc-500">{t('zone', { timeZone })}</p>
        </div>
        <div role="group" aria-label={t('range')} className="inline-flex rounded-md ring-1 ring-zinc-200">
          {RANGES.map((r) => (
            <button
              key={r.key}
              type="button"
              aria-pressed={r.key === rangeKey}
              onClick={() => setRangeKey(r.key)}
              className={cn(
                'px-3 py-1 text-xs font-medium first:rounded-l-md last:rounded-r-md',
                r.key === rangeKey ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-50',
              )}
            >
              {t(r.key)}
            </button>
          ))}
        </div>
      </div>
      {schedule.isPending ? <Spinner className="m-4 size-5" label={t('loading')} /> : null}
      {schedule.isError ? <p className="text-sm text-red-700">{t('loadError')}</p> : null}
      {schedule.isSuccess ? (
        <>
          <div className="relative h-8 overflow-hidden rounded-md bg-zinc-100" data-testid="schedule-bar">
            {bars.map(({ item, left, width }) => (
              <div
                key={`${item.from}-${item.layer}`}
                className={cn('absolute inset-y-0 border-r border-white/70', LAYERS[item.layer].bar)}
                style={{ left: `${left}%`, width: `${width}%` }}
                title={t('bar', { layer: label('layer', item.layer), what: segmentWhat(item), span: formatSpan(item, timeZone, locale) })}
              />
            ))}
          </div>
          <div ref={setAxis} className="relative mt-1 h-7 text-[10px] leading-3 text-zinc-500" aria-hidden data-testid="timeline-ticks">
            {ticks.map((tick) => (
              <span
                key={tick.at}
                data-testid="timeline-tick"
                // Only labels that fit are drawn (fittingTicks); those at the ends stay inside the card.
                className={cn(
                  'absolute flex flex-col whitespace-nowrap',
                  tick.anchor === 'start'
                    ? 'items-start'
                    : tick.anchor === 'end'
                      ? '-translate-x-full items-end'
                      : '-translate-x-1/2 items-center',
                  tick.major && 'font-semibold text-zinc-700',
                )}
                style={{ left: `${tick.left}%` }}
              >
                <span>{tick.label}</span>
                {tick.sub ? <span>{tick.sub}</span> : null}
              </span>
            ))}
          </div>
          <ol className="mt-3 divide-y divide-zinc-100 text-sm" aria-label={t('segments')}>
            {segments.map((segment) => (
              <li key={`${segment.from}-${segment.layer}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5">
                <span className="w-80 shrink-0 text-zinc-600 tabular-nums">{formatSpan(segment, timeZone, locale)}</span>
                <Badge tone={LAYERS[segment.layer].tone}>{label('layer', segment.layer)}</Badge>
                <span className="min-w-0 truncate text-zinc-900">{segmentWhat(segment)}</span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Card>
  );
}
