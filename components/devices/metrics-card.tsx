'use client';

import { useMemo, useState } from 'react';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useDeviceGraphs, useSupportedMetrics } from '@/lib/api/devices';

/** The metrics shown first when a screen reports them (spec 3 groups: CPU, memory, storage, network). */
const PREFERRED = ['CPU', 'USED_SYS_MEM', 'USED_STORAGE', 'NET_SYS_RX', 'NET_SYS_TX'];
const RANGES = [
  ['24h', 'Last 24 hours', 24 * 3_600_000],
  ['7d', 'Last 7 days', 7 * 24 * 3_600_000],
  ['30d', 'Last 30 days', 30 * 24 * 3_600_000],
] as const;
type RangeKey = (typeof RANGES)[number][0];
const POINTS = 60;

const label = (type: string) => type.toLowerCase().replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
const number = (v: number | null | undefined) => (v === null || v === undefined ? '—' : Math.abs(v) >= 100 ? Math.round(v).toLocaleString() : v.toLocaleString(undefined, { maximumFractionDigits: 1 }));

/** A screen's metrics over a chosen range: a line per metric with its minimum, average and maximum. */
export function MetricsCard({ deviceId }: { deviceId: string }) {
  const supported = useSupportedMetrics(deviceId);
  const [range, setRange] = useState<RangeKey>('24h');
  // The window moves only when the range changes, so the query key stays stable between renders.
  const span = useMemo(() => {
    const to = Date.now();

    return { from: to - RANGES.find(([key]) => key === range)![2], to };
  }, [range]);
  const types = useMemo(() => {
    const all = supported.data ?? [];

    return [...PREFERRED.filter((t) => all.includes(t)), ...all.filter((t) => !PREFERRED.includes(t))].slice(0, 4);
  }, [supported.data]);
  const graphs = useDeviceGraphs(deviceId, { metricTypes: types, ...span, dataPoints: POINTS });

  return (
    <Card className="p-5">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900">Metrics</h2>
        <div className="w-40">
          <Select aria-label="Metrics range" value={range} onChange={(e) => setRange(e.target.value as RangeKey)}>
            {RANGES.map(([key, text]) => (
              <option key={key} value={key}>
                {text}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {supported.isPending || (types.length > 0 && graphs.isPending) ? <Spinner className="m-4 size-5" label="Loading metrics" /> : null}
      {supported.isSuccess && types.length === 0 ? <p className="text-sm text-zinc-500">This screen has not reported any metrics yet.</p> : null}
      {graphs.isError ? <p className="text-sm text-red-700">The metrics could not be loaded.</p> : null}
      <div className="grid gap-4 sm:grid-cols-2" data-testid="device-metrics">
        {types.map((type) => {
          const graph = graphs.data?.graphs[type];
          if (!graph) return null;

          return (
            <figure key={type} className="min-w-0">
              <figcaption className="flex items-baseline justify-between gap-2 text-xs">
                <span className="font-medium text-zinc-700">{label(type)}</span>
                <span className="text-zinc-500 tabular-nums">
                  min {number(graph.min)} · avg {number(graph.avg)} · max {number(graph.max)}
                </span>
              </figcaption>
              <Sparkline values={graph.values} from={span.from} to={span.to} title={`${label(type)} over the ${RANGES.find(([k]) => k === range)![1].toLowerCase()}`} />
            </figure>
          );
        })}
      </div>
    </Card>
  );
}

/** A line over the window, broken where there is no data. */
function Sparkline({ values, from, to, title }: { values: Record<string, number>; from: number; to: number; title: string }) {
  const points = Object.entries(values)
    .map(([t, v]) => [Number(t), v] as const)
    .sort((a, b) => a[0] - b[0]);
  const W = 300;
  const H = 60;
  const min = Math.min(...points.map(([, v]) => v), 0);
  const max = Math.max(...points.map(([, v]) => v), min + 1);
  const bucket = (to - from) / POINTS;
  const x = (t: number) => ((t - from) / (to - from)) * W;
  const y = (v: number) => H - 2 - ((v - min) / (max - min)) * (H - 4);
  // A new segment starts after a gap longer than one bucket.
  const path = points.map(([t, v], i) => `${i > 0 && t - points[i - 1]![0] > bucket * 1.5 ? 'M' : i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');

  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="mt-1 h-16 w-full rounded bg-zinc-50">
      {points.length > 0 ? <path d={path} fill="none" stroke="currentColor" strokeWidth="1.5" className="text-brand-600" vectorEffect="non-scaling-stroke" /> : null}
    </svg>
  );
}
