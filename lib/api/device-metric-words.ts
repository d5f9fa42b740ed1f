import { formatBytes, formatReading } from '@/lib/format';
import type { DeviceMetricType } from '@/server/modules/devices/devices.schemas';

/*
 * The unit each device metric's values are in (spec 3 "Device metric types" names them, not their units;
 * docs/decisions.md "Device metrics in the console" records the reading). Their names are the catalogue's
 * (`devices.metrics.type.<TYPE>`).
 */

export type MetricUnit = 'percent' | 'celsius' | 'bytes' | 'ms' | 'dbm' | 'fps' | 'load' | 'count';

export const METRIC_UNITS: Record<DeviceMetricType, MetricUnit> = {
  CPU: 'percent',
  CPU_LOAD_1: 'load',
  CPU_LOAD_5: 'load',
  CPU_TEMP: 'celsius',
  GPU: 'percent',
  GPU_TEMP: 'celsius',
  GPU_MEM: 'bytes',
  FPS: 'fps',
  USED_SYS_MEM: 'bytes',
  USED_VM_MEM: 'bytes',
  USED_APP_MEM: 'bytes',
  USED_STORAGE: 'bytes',
  FILE_COUNT: 'count',
  U_FILE_COUNT: 'count',
  NET_APP_RX: 'bytes',
  NET_APP_TX: 'bytes',
  NET_SYS_RX: 'bytes',
  NET_SYS_TX: 'bytes',
  NET_APP_SERVER_RX: 'bytes',
  NET_APP_SERVER_TX: 'bytes',
  REQ_COUNT: 'count',
  SERVER_AVG_REQ: 'ms',
  SERVER_PING: 'ms',
  WIFI_SIGNAL_DBM: 'dbm',
  WIFI_SIGNAL_LEVEL: 'count',
  NET_INTERNET_CONNECTION: 'count',
  BATTERY: 'percent',
  NUMBER_OF_THREADS: 'count',
  NUMBER_OF_PROCESSES: 'count',
  GC_COUNT: 'count',
  GC_RUN_AVG: 'ms',
  LOG_INFO: 'count',
  LOG_WARN: 'count',
  LOG_ERROR: 'count',
  STARTUP_COUNT: 'count',
  CRASH_COUNT: 'count',
  WEB_VIEW_CRASH_COUNT: 'count',
  ANR_COUNT: 'count',
  SYSTEM_ERROR_COUNT: 'count',
  FRONTEND_PROCESS_CRASH_COUNT: 'count',
  SENSOR_EVENT_COUNT: 'count',
  USER_INTERACTION_COUNT: 'count',
  STATUS: 'count',
  RECONNECT: 'count',
};

/** A metric type the API declares (a newer player may report others: they show by their code, counted). */
export function isMetricType(type: string): type is DeviceMetricType {
  return Object.hasOwn(METRIC_UNITS, type);
}

export function metricUnit(type: string): MetricUnit {
  return isMetricType(type) ? METRIC_UNITS[type] : 'count';
}

/** A value with its unit in a locale: `42 %`, `61.5 °C`, `1.5 GB` (`1,5 GB` in German), `35 ms`, `-60 dBm`, `59.9 fps`. */
export function formatMetric(unit: MetricUnit, value: number | null | undefined, locale?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'percent':
      return `${formatReading(value, locale)} %`;
    case 'celsius':
      return `${formatReading(value, locale)} °C`;
    case 'bytes':
      return formatBytes(value, locale);
    case 'ms':
      return `${formatReading(value, locale)} ms`;
    case 'dbm':
      return `${formatReading(value, locale)} dBm`;
    case 'fps':
      return `${formatReading(value, locale)} fps`;
    case 'load':
      return formatReading(value, locale, 2);
    default:
      return formatReading(value, locale);
  }
}

/**
 * The value axis of a chart: percentages 0–100; anything else from 0 (or its minimum when below 0) to a round
 * number above its maximum, so a small value does not fill the chart and a flat 0 is a line at the bottom.
 */
export function metricAxis(unit: MetricUnit, min: number, max: number): { lo: number; hi: number } {
  if (unit === 'percent') return { lo: 0, hi: Math.max(100, niceCeil(max)) };
  const lo = min < 0 ? -niceCeil(-min) : 0;
  const hi = max > 0 ? niceCeil(max) : lo < 0 ? 0 : 1;

  return { lo, hi: hi > lo ? hi : lo + 1 };
}

/** The next of 1, 2, 5 × 10ⁿ (powers of 1024 for bytes read the same; the label carries the unit). */
function niceCeil(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((s) => s * power >= value)!;

  return step * power;
}
