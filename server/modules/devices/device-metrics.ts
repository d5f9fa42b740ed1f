import type { ServiceContext } from '@/server/context/service-context';
import { ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { deviceMetricBuckets, deviceMetricTypesOf } from './device-metrics.queries';
import { deviceMetricTypes, type DeviceGraphs, type DeviceMetricType } from './devices.schemas';
import { readDevice } from './devices.service';

/*
 * Device metric graphs (spec 3 "Reporting", device metrics): the samples a device sent, in `dataPoints` equal
 * buckets over [from, to), each bucket its average, with the totals of the range. The database groups
 * (GROUPING SETS: per bucket and per type); here only the answer's shape is built.
 */

const DEFAULT_RANGE_MS = 30 * 24 * 3_600_000;

/** GET /api/deviceStat/{deviceId}/supportedMetrics: the types the device has sent samples of, in the spec's order. */
export async function supportedMetrics(ctx: ServiceContext, deviceId: string): Promise<DeviceMetricType[]> {
  await readDevice(ctx.db, ctx, deviceId, 'id');
  const present = new Set(await deviceMetricTypesOf(ctx.db, deviceId));

  return deviceMetricTypes.filter((type) => present.has(type));
}

/** POST /api/deviceStat/{deviceId}/graphs. */
export async function deviceGraphs(
  ctx: ServiceContext,
  deviceId: string,
  input: { from?: number; to?: number; dataPoints?: number; metricTypes: DeviceMetricType[] },
): Promise<DeviceGraphs> {
  const to = input.to ?? Date.now();
  // The default window stays within the instants the API takes (none before 1970).
  const from = input.from ?? Math.max(0, to - DEFAULT_RANGE_MS);
  const points = input.dataPoints ?? 50;
  if (from >= to) throw new ValidationError(INVALID_COMBINATION, "'from' must be before 'to'", { parameter: 'from' });
  await readDevice(ctx.db, ctx, deviceId, 'id');
  const types = [...new Set(input.metricTypes)];
  const width = (to - from) / points;
  const rows = await deviceMetricBuckets(ctx.db, { deviceId, types, from, to, points });

  const graphs: DeviceGraphs['graphs'] = {};
  for (const type of types) {
    const total = rows.find((r) => r.type === type && r.bucket === null);
    const buckets = new Map(rows.filter((r) => r.type === type && r.bucket !== null).map((r) => [r.bucket!, r]));
    const values: Record<string, number> = {};
    const noDataIntervals: Array<{ from: number; to: number }> = [];
    for (let b = 1; b <= points; b++) {
      const start = Math.round(from + (b - 1) * width);
      const end = b === points ? to : Math.round(from + b * width);
      const bucket = buckets.get(b);
      if (bucket) values[String(start)] = bucket.avg!;
      else if (noDataIntervals.at(-1)?.to === start) noDataIntervals.at(-1)!.to = end;
      else noDataIntervals.push({ from: start, to: end });
    }
    graphs[type] = {
      values,
      avg: total?.avg ?? null,
      min: total?.min ?? null,
      max: total?.max ?? null,
      sum: total?.sum ?? 0,
      count: total?.count ?? 0,
      noDataIntervals,
    };
  }

  return { graphs };
}
