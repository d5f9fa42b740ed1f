import { describe, expect, it } from 'vitest';
import { deviceMetricTypes } from '@/server/modules/devices/devices.schemas';
import de from '@/messages/de';
import en from '@/messages/en';
import { METRIC_UNITS, formatMetric, metricAxis, metricUnit } from './device-metric-words';

describe('device metric words', () => {
  it('names every metric type of the API, in every locale, and gives it a unit', () => {
    for (const type of deviceMetricTypes) {
      expect(METRIC_UNITS[type]).toBeDefined();
      for (const catalogue of [en, de]) expect(catalogue.devices.metrics.type[type]).not.toMatch(/_/);
    }
    expect(Object.keys(en.devices.metrics.type).sort()).toEqual([...deviceMetricTypes].sort());
    expect(metricUnit('SOMETHING_NEW')).toBe('count');
  });

  it('shows values with their units', () => {
    expect(formatMetric(metricUnit('USED_SYS_MEM'), 1_610_612_736)).toBe('1.5 GB');
    expect(formatMetric(metricUnit('USED_STORAGE'), 250 * 1024 * 1024)).toBe('250 MB');
    expect(formatMetric(metricUnit('NET_SYS_RX'), 512)).toBe('512 B');
    expect(formatMetric(metricUnit('CPU'), 42.25)).toBe('42.3 %');
    expect(formatMetric(metricUnit('CPU_TEMP'), 61.5)).toBe('61.5 °C');
    expect(formatMetric(metricUnit('SERVER_PING'), 35)).toBe('35 ms');
    expect(formatMetric(metricUnit('WIFI_SIGNAL_DBM'), -60)).toBe('-60 dBm');
    expect(formatMetric(metricUnit('FPS'), 59.94)).toBe('59.9 fps');
    expect(formatMetric(metricUnit('CRASH_COUNT'), null)).toBe('—');
    expect(formatMetric(metricUnit('USED_SYS_MEM'), 1_610_612_736, 'de')).toBe('1,5 GB');
    expect(formatMetric(metricUnit('CPU'), 42.25, 'de')).toBe('42,3 %');
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
