'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { formatMetric, isMetricType, metricAxis, metricUnit, type MetricUnit } from '@/lib/api/device-metric-words';
import { useDeviceGraphs, useSupportedMetrics } from '@/lib/api/devices';
import { useFormat } from '@/lib/i18n/use-format';
import type { DeviceMetricType } from '@/server/modules/devices/devices.schemas';

/** The metrics shown first when a screen reports them (spec 3 groups: CPU, memory, storage, network). */
const PREFERRED: readonly DeviceMetricType[] = ['CPU', 'USED_SYS_MEM', 'USED_STORAGE', 'NET_SYS_RX', 'NET_SYS_TX'];
const RANGES = [
  ['24h', 'last24h', 24 * 3_600_000],
  ['7d', 'last7d', 7 * 24 * 3_600_000],
  ['30d', 'last30d', 30 * 24 * 3_600_000],
] as const;
type RangeKey = (typeof RANGES)[number][0];
const POINTS = 60;
const TICK_MS = 60_000;

/** A screen's metrics over a chosen range: a line per metric with its minimum, average and maximum. */
export function MetricsCard({ deviceId }: { deviceId: string }) {
  const t = useTranslations('devices.metrics');
  const { locale } = useFormat();
  const supported = useSupportedMetrics(deviceId);
  const [range, setRange] = useState<RangeKey>('24h');
  // The window ends a minute or two ahead of now and moves each minute (a new query key): samples that arrive while
  // the page is open fall inside it, and the key stays stable between ticks.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);

    return () => clearInterval(timer);
  }, []);
  const span = useMemo(() => {
    const to = Math.ceil(now / TICK_MS) * TICK_MS + TICK_MS;

    return { from: to - RANGES.find(([key]) => key === range)![2], to };
  }, [range, now]);
  const types = useMemo(() => {
    const all = supported.data ?? [];

    return [...PREFERRED.filter((t) => all.includes(t)), ...all.filter((t) => !PREFERRED.includes(t))].slice(0, 4);
  }, [supported.data]);
  const graphs = useDeviceGraphs(deviceId, { metricTypes: types, ...span, dataPoints: POINTS });

  return (
    <Card className="p-5">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900">{t('heading')}</h2>
        <div className="w-48">
          <Select aria-label={t('range')} value={range} onChange={(e) => setRange(e.target.value as RangeKey)}>
            {RANGES.map(([key, text]) => (
              <option key={key} value={key}>
                {t(text)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {supported.isPending || (types.length > 0 && graphs.isPending) ? <Spinner className="m-4 size-5" label={t('loading')} /> : null}
      {supported.isSuccess && types.length === 0 ? <p className="text-sm text-zinc-500">{t('none')}</p> : null}
      {graphs.isError ? <p className="text-sm text-red-700">{t('loadError')}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2" data-testid="device-metrics">
        {types.map((type) => {
          const graph = graphs.data?.graphs[type];
          if (!graph) return null;
          const label = isMetricType(type) ? t(`type.${type}`) : type;
          const unit = metricUnit(type);
          const value = (v: number | null | undefined) => formatMetric(unit, v, locale);

          return (
            <figure key={type} className="min-w-0" data-testid={`metric-${type}`}>
              <figcaption className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs">
                <span className="font-medium text-zinc-700">{label}</span>
                {graph.count > 0 ? (
                  <span className="text-zinc-500 tabular-nums">
                    {t('summary', { min: value(graph.min), avg: value(graph.avg), max: value(graph.max) })}
                  </span>
                ) : null}
              </figcaption>
              <Sparkline
                values={graph.values}
                format={value}
                unit={unit}
                from={span.from}
                to={span.to}
                title={t('chart', { metric: label, range })}
              />
            </figure>
          );
        })}
      </div>
    </Card>
  );
}

/**
 * A line over the window, broken where there is no data, on an axis that fits the unit (metricAxis): the top and
 * bottom values are written at the left. A lone sample is a dot; no sample in the range says so.
 */
function Sparkline({
  values,
  format,
  unit,
  from,
  to,
  title,
}: {
  values: Record<string, number>;
  format: (value: number) => string;
  unit: MetricUnit;
  from: number;
  to: number;
  title: string;
}) {
  const t = useTranslations('devices.metrics');
  const points = Object.entries(values)
    .map(([t, v]) => [Number(t), v] as const)
    .sort((a, b) => a[0] - b[0]);
  if (points.length === 0) {
    return <p className="mt-1 flex h-16 items-center justify-center rounded bg-zinc-50 text-xs text-zinc-500">{t('noData')}</p>;
  }
  const W = 300;
  const H = 60;
  const { lo, hi } = metricAxis(unit, Math.min(...points.map(([, v]) => v)), Math.max(...points.map(([, v]) => v)));
  const bucket = (to - from) / POINTS;
  const x = (t: number) => ((t - from) / (to - from)) * W;
  const y = (v: number) => H - 2 - ((v - lo) / (hi - lo)) * (H - 4);
  // A new segment starts after a gap longer than one bucket; a segment of one point is drawn as a dot.
  const segments: Array<Array<readonly [number, number]>> = [];
  for (const [i, point] of points.entries()) {
    if (i === 0 || point[0] - points[i - 1]![0] > bucket * 1.5) segments.push([]);
    segments.at(-1)!.push(point);
  }

  return (
    <div className="mt-1 flex gap-1">
      <div
        className="flex h-16 w-14 shrink-0 flex-col justify-between text-right text-[10px] leading-none text-zinc-400 tabular-nums"
        aria-hidden
      >
        <span>{format(hi)}</span>
        <span>{format(lo)}</span>
      </div>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={title}
        className="h-16 min-w-0 flex-1 rounded bg-zinc-50 text-brand-600"
      >
        <line x1="0" x2={W} y1={H / 2} y2={H / 2} stroke="currentColor" strokeOpacity="0.12" vectorEffect="non-scaling-stroke" />
        {segments.map((segment) =>
          segment.length === 1 ? (
            <circle key={segment[0]![0]} cx={x(segment[0]![0])} cy={y(segment[0]![1])} r="2" fill="currentColor" />
          ) : (
            <path
              key={segment[0]![0]}
              d={segment.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
              fill="none"
              stroke="currentColor"
              strokeWidth="1.5"
              vectorEffect="non-scaling-stroke"
            />
          ),
        )}
      </svg>
    </div>
  );
}
