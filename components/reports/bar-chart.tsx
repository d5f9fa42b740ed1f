import { useTranslations } from 'next-intl';
import { cn } from '@/lib/cn';
import { useFormat } from '@/lib/i18n/use-format';

export type Bar = {
  key: string | number;
  label: string;
  value: number;
  title?: string;
  /** Where the bar leads (the report of its period). */ href?: string;
};

/** A round step (1, 2, 5 × 10ⁿ) giving about `count` gridlines up to `max`. */
function niceStep(max: number, count: number): number {
  const raw = Math.max(max, 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;

  return Math.max(1, step);
}

/**
 * A small SVG bar chart: one bar a value, gridlines at round values, labels under the bars (thinned out
 * when there are many). The figures are in the page beside it (a table); the chart carries its summary
 * as its accessible name and each bar its value (in plays, unless the bar has its own `title`) as a tooltip.
 */
export function BarChart({
  bars,
  label,
  className,
  width = 600,
  height = 160,
}: {
  bars: readonly Bar[];
  label: string;
  className?: string;
  /** The drawing's own size; it scales to the width of its box, so a wide box wants a wider drawing (text stays small). */
  width?: number;
  height?: number;
}) {
  const t = useTranslations('reports.chart');
  const format = useFormat();
  const max = Math.max(0, ...bars.map((b) => b.value));
  const step = niceStep(max, 4);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const gridlines = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const left = 36;
  const bottom = 22;
  const plot = { x: left, y: 6, w: width - left - 4, h: height - bottom - 6 };
  const slot = bars.length ? plot.w / bars.length : plot.w;
  const barWidth = Math.max(1, Math.min(48, slot * 0.7));
  // At most about 12 labels, evenly spaced.
  const labelEvery = Math.max(1, Math.ceil(bars.length / 12));
  const y = (value: number) => plot.y + plot.h - (value / top) * plot.h;

  return (
    <svg viewBox={`0 0 ${width} ${height}`} className={cn('h-auto w-full', className)} role="img" aria-label={label}>
      {gridlines.map((g) => (
        <g key={g}>
          <line
            x1={plot.x}
            x2={plot.x + plot.w}
            y1={y(g)}
            y2={y(g)}
            className="stroke-zinc-200"
            strokeWidth={1}
            vectorEffect="non-scaling-stroke"
          />
          <text x={plot.x - 6} y={y(g)} textAnchor="end" dominantBaseline="middle" className="fill-zinc-400 text-[10px]">
            {format.number(g)}
          </text>
        </g>
      ))}
      {bars.map((bar, i) => {
        const x = plot.x + slot * i + (slot - barWidth) / 2;
        const title = bar.title ?? t('bar', { label: bar.label, value: bar.value });
        const h = plot.y + plot.h - y(bar.value);

        const body = (
          <>
            <title>{title}</title>
            {/* The whole slot answers the pointer, so thin bars and zeros show their tooltip too. */}
            <rect x={plot.x + slot * i} y={plot.y} width={slot} height={plot.h} className="fill-transparent hover:fill-zinc-100" />
            <rect
              x={x}
              y={y(bar.value)}
              width={barWidth}
              height={Math.max(0, h)}
              rx={Math.min(3, barWidth / 4)}
              className="pointer-events-none fill-brand-500"
            />
            {i % labelEvery === 0 ? (
              <text x={plot.x + slot * i + slot / 2} y={height - 6} textAnchor="middle" className="fill-zinc-500 text-[10px]">
                {bar.label}
              </text>
            ) : null}
          </>
        );

        return (
          <g key={bar.key} data-testid="chart-bar" data-value={bar.value} data-label={bar.label}>
            {bar.href ? (
              <a href={bar.href} aria-label={title}>
                {body}
              </a>
            ) : (
              body
            )}
          </g>
        );
      })}
    </svg>
  );
}
