import { formatBytes, formatReading } from '@/lib/format';
import type { DeviceMetricType } from '@/server/modules/devices/devices.schemas';

/*
 * What each device metric is called in the console and the unit its values are in (spec 3 "Device metric types"
 * names them, not their units; docs/decisions.md "Device metrics in the console" records the reading).
 */

export type MetricUnit = 'percent' | 'celsius' | 'bytes' | 'ms' | 'dbm' | 'fps' | 'load' | 'count';

export const METRIC_WORDS: Record<DeviceMetricType, { label: string; unit: MetricUnit }> = {
  CPU: { label: 'CPU use', unit: 'percent' },
  CPU_LOAD_1: { label: 'CPU load (1 min)', unit: 'load' },
  CPU_LOAD_5: { label: 'CPU load (5 min)', unit: 'load' },
  CPU_TEMP: { label: 'CPU temperature', unit: 'celsius' },
  GPU: { label: 'GPU use', unit: 'percent' },
  GPU_TEMP: { label: 'GPU temperature', unit: 'celsius' },
  GPU_MEM: { label: 'GPU memory', unit: 'bytes' },
  FPS: { label: 'Frame rate', unit: 'fps' },
  USED_SYS_MEM: { label: 'Memory used (system)', unit: 'bytes' },
  USED_VM_MEM: { label: 'Memory used (virtual machine)', unit: 'bytes' },
  USED_APP_MEM: { label: 'Memory used (player)', unit: 'bytes' },
  USED_STORAGE: { label: 'Storage used', unit: 'bytes' },
  FILE_COUNT: { label: 'Files', unit: 'count' },
  U_FILE_COUNT: { label: 'Files not yet downloaded', unit: 'count' },
  NET_APP_RX: { label: 'Received (player)', unit: 'bytes' },
  NET_APP_TX: { label: 'Sent (player)', unit: 'bytes' },
  NET_SYS_RX: { label: 'Received (system)', unit: 'bytes' },
  NET_SYS_TX: { label: 'Sent (system)', unit: 'bytes' },
  NET_APP_SERVER_RX: { label: 'Received from the server', unit: 'bytes' },
  NET_APP_SERVER_TX: { label: 'Sent to the server', unit: 'bytes' },
  REQ_COUNT: { label: 'Requests', unit: 'count' },
  SERVER_AVG_REQ: { label: 'Average request time', unit: 'ms' },
  SERVER_PING: { label: 'Server round trip', unit: 'ms' },
  WIFI_SIGNAL_DBM: { label: 'Wi-Fi signal', unit: 'dbm' },
  WIFI_SIGNAL_LEVEL: { label: 'Wi-Fi signal level', unit: 'count' },
  NET_INTERNET_CONNECTION: { label: 'Internet connection', unit: 'count' },
  BATTERY: { label: 'Battery', unit: 'percent' },
  NUMBER_OF_THREADS: { label: 'Threads', unit: 'count' },
  NUMBER_OF_PROCESSES: { label: 'Processes', unit: 'count' },
  GC_COUNT: { label: 'Garbage collections', unit: 'count' },
  GC_RUN_AVG: { label: 'Garbage collection time', unit: 'ms' },
  LOG_INFO: { label: 'Info log lines', unit: 'count' },
  LOG_WARN: { label: 'Warning log lines', unit: 'count' },
  LOG_ERROR: { label: 'Error log lines', unit: 'count' },
  STARTUP_COUNT: { label: 'Starts', unit: 'count' },
  CRASH_COUNT: { label: 'Crashes', unit: 'count' },
  WEB_VIEW_CRASH_COUNT: { label: 'Web view crashes', unit: 'count' },
  ANR_COUNT: { label: 'Not responding', unit: 'count' },
  SYSTEM_ERROR_COUNT: { label: 'System errors', unit: 'count' },
  FRONTEND_PROCESS_CRASH_COUNT: { label: 'Front-end crashes', unit: 'count' },
  SENSOR_EVENT_COUNT: { label: 'Sensor events', unit: 'count' },
  USER_INTERACTION_COUNT: { label: 'Touches and clicks', unit: 'count' },
  STATUS: { label: 'Status', unit: 'count' },
  RECONNECT: { label: 'Reconnections', unit: 'count' },
};

const FALLBACK = { label: 'Metric', unit: 'count' as MetricUnit };

export function metricWords(type: string): { label: string; unit: MetricUnit } {
  return METRIC_WORDS[type as DeviceMetricType] ?? { ...FALLBACK, label: type };
}

/** A value with its unit: `42 %`, `61.5 °C`, `1.5 GB`, `35 ms`, `-60 dBm`, `59.9 fps`. */
export function formatMetric(unit: MetricUnit, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  switch (unit) {
    case 'percent':
      return `${formatReading(value)} %`;
    case 'celsius':
      return `${formatReading(value)} °C`;
    case 'bytes':
      return formatBytes(value);
    case 'ms':
      return `${formatReading(value)} ms`;
    case 'dbm':
      return `${formatReading(value)} dBm`;
    case 'fps':
      return `${formatReading(value)} fps`;
    case 'load':
      return formatReading(value, undefined, 2);
    default:
      return formatReading(value);
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
