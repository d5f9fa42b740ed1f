import { describe, expect, it } from 'vitest';
import { deviceMetricTypes } from '@/server/modules/devices/devices.schemas';
import { METRIC_WORDS, formatMetric, metricAxis, metricWords } from './device-metric-words';

describe('device metric words', () => {
  it('names every metric type of the API', () => {
    for (const type of deviceMetricTypes) expect(METRIC_WORDS[type].label).not.toMatch(/_/);
  });

  it('shows values with their units', () => {
    expect(formatMetric(metricWords('USED_SYS_MEM').unit, 1_610_612_736)).toBe('1.5 GB');
    expect(formatMetric(metricWords('USED_STORAGE').unit, 250 * 1024 * 1024)).toBe('250 MB');
    expect(formatMetric(metricWords('NET_SYS_RX').unit, 512)).toBe('512 B');
    expect(formatMetric(metricWords('CPU').unit, 42.25)).toBe('42.3 %');
    expect(formatMetric(metricWords('CPU_TEMP').unit, 61.5)).toBe('61.5 °C');
    expect(formatMetric(metricWords('SERVER_PING').unit, 35)).toBe('35 ms');
    expect(formatMetric(metricWords('WIFI_SIGNAL_DBM').unit, -60)).toBe('-60 dBm');
    expect(formatMetric(metricWords('FPS').unit, 59.94)).toBe('59.9 fps');
    expect(formatMetric(metricWords('CRASH_COUNT').unit, null)).toBe('—');
  });

  it('scales the chart axis to the values, percentages over 0–100', () => {
    expect(metricAxis('percent', 3, 7)).toEqual({ lo: 0, hi: 100 });
    // A small count does not fill the chart; a flat zero has an axis.
    expect(metricAxis('count', 0, 3)).toEqual({ lo: 0, hi: 5 });
    expect(metricAxis('count', 0, 0)).toEqual({ lo: 0, hi: 1 });
    expect(metricAxis('bytes', 0, 1_300_000)).toEqual({ lo: 0, hi: 2_000_000 });
    expect(metricAxis('dbm', -72, -40)).toEqual({ lo: -100, hi: 0 });
  });
});
