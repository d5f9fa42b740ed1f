import { describe, expect, it } from 'vitest';
import {
  dayWindow,
  defaultReportState,
  exceedsThreeMonths,
  formatPlayTime,
  periodStarts,
  playsPerPeriod,
  readReportState,
  reportPath,
  reportQuery,
  requestOf,
  writeReportState,
  type ReportRow,
} from '@/lib/reports/report-params';

const NOW = Date.UTC(2026, 10, 27, 20, 0); // 2026-11-28 01:30 in Kolkata
const row = (timestamp: number, plays: number): ReportRow => ({
  timestamp,
  readableDateTime: '',
  groupBy: { type: 'DEVICE', id: 'x', name: 'X' },
  duration: 0,
  impressionStartCount: plays,
  impressionEndCount: plays,
  clickCount: 0,
  viewerCount: 0,
  viewerAttention: 0,
  viewerAttentionRatio: 0,
  viewerAverageAttention: 0,
});

describe('report state in the URL', () => {
  const defaults = defaultReportState('Asia/Kolkata', NOW);

  it('defaults to the last 7 local days in the browser zone, daily, all screens by screen', () => {
    expect(defaults).toMatchObject({
      on: 'device',
      from: '2026-11-22',
      to: '2026-11-28',
      tz: 'Asia/Kolkata',
      resolution: 'DAILY',
      groupBy: 'DEVICE',
    });
    expect(writeReportState(defaults, defaults).toString()).toBe('');
  });

  it('round-trips, spells everything out for a shared link, and drops what is not valid', () => {
    const state = {
      ...defaults,
      on: 'content' as const,
      groupBy: 'DEVICE' as const,
      tz: 'Europe/Berlin',
      channel: '42',
      sort: 'impressionStartCount,desc',
    };
    const query = writeReportState(state, defaults);
    expect(query.get('groupBy')).toBe('DEVICE');
    expect(query.get('from')).toBeNull();
    expect(readReportState(query, defaults)).toEqual(state);
    const complete = writeReportState(defaults, defaults, { complete: true });
    expect(complete.get('from')).toBe('2026-11-22');
    expect(complete.get('tz')).toBe('Asia/Kolkata');
    const hostile = new URLSearchParams({
      on: 'x',
      tz: 'Mars/Base',
      from: '2026-13',
      resolution: 'DAILY;',
      groupBy: 'WIDGETS',
      channel: '1 or 1',
      sort: 'name,up',
    });
    expect(readReportState(hostile, defaults)).toEqual(defaults);
  });

  it('a content report groups by content unless told otherwise', () => {
    expect(readReportState(new URLSearchParams({ on: 'content' }), defaults).groupBy).toBe('CONTENT');
    expect(readReportState(new URLSearchParams({ on: 'content', groupBy: 'WIDGET' }), defaults).groupBy).toBe('WIDGET');
    expect(readReportState(new URLSearchParams({ on: 'file' }), defaults).groupBy).toBe('MEDIA_FILE');
  });

  it('a channel or a screen narrows the report to that entity', () => {
    expect(reportPath(requestOf({ ...defaults, channel: '42' }))).toBe('/api/v2/proof-of-display/campaign/42');
    expect(reportPath(requestOf({ ...defaults, screen: 'abc-1' }))).toBe('/api/v2/proof-of-display/device/abc-1');
    expect(reportPath(requestOf(defaults))).toBe('/api/v2/proof-of-display/device/all');
  });
});

describe('windows and periods in a zone', () => {
  it('cuts whole local days, also on half-hour offsets and across a DST change', () => {
    expect(dayWindow('2026-11-22', '2026-11-28', 'Asia/Kolkata')).toEqual({
      from: Date.UTC(2026, 10, 21, 18, 30),
      to: Date.UTC(2026, 10, 28, 18, 30),
    });
    const berlin = dayWindow('2026-03-28', '2026-03-29', 'Europe/Berlin');
    expect(berlin).toEqual({ from: Date.UTC(2026, 2, 27, 23), to: Date.UTC(2026, 2, 29, 22) });
    expect(periodStarts(berlin, 'Europe/Berlin', 'DAILY')).toEqual([Date.UTC(2026, 2, 27, 23), Date.UTC(2026, 2, 28, 23)]);
    // The day of the change has 23 hours.
    expect(periodStarts({ from: Date.UTC(2026, 2, 28, 23), to: Date.UTC(2026, 2, 29, 22) }, 'Europe/Berlin', 'HOURLY')).toHaveLength(23);
  });

  it('starts weeks on Monday and months on the first, and TOTAL is one period at from', () => {
    const window = dayWindow('2026-11-04', '2026-12-02', 'UTC');
    expect(periodStarts(window, 'UTC', 'WEEKLY')).toEqual([
      Date.UTC(2026, 10, 2),
      Date.UTC(2026, 10, 9),
      Date.UTC(2026, 10, 16),
      Date.UTC(2026, 10, 23),
      Date.UTC(2026, 10, 30),
    ]);
    expect(periodStarts(window, 'UTC', 'MONTHLY')).toEqual([Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)]);
    expect(periodStarts(window, 'UTC', 'TOTAL')).toEqual([window.from]);
  });

  it('refuses more than 3 months', () => {
    expect(exceedsThreeMonths('2026-01-01', '2026-03-31')).toBe(false);
    expect(exceedsThreeMonths('2026-01-01', '2026-04-01')).toBe(true);
  });

  it('adds the rows up per period, every period present', () => {
    expect(playsPerPeriod([row(1, 2), row(1, 3), row(3, 1)], [1, 2, 3])).toEqual([
      { at: 1, plays: 5 },
      { at: 2, plays: 0 },
      { at: 3, plays: 1 },
    ]);
  });
});

describe('query and formatting', () => {
  it('sends what the API reads, blanks left out', () => {
    expect(reportQuery({ from: 1, to: 2, timeZone: 'UTC', resolution: 'TOTAL', search: '  ' })).toEqual({
      from: 1,
      to: 2,
      timeZone: 'UTC',
      resolution: 'TOTAL',
      groupBy: undefined,
      search: undefined,
      sort: undefined,
      limit: undefined,
    });
  });

  it('writes play time', () => {
    expect(formatPlayTime(0)).toBe('0 s');
    expect(formatPlayTime(45_400)).toBe('45 s');
    expect(formatPlayTime(125_000)).toBe('2 min 5 s');
    expect(formatPlayTime(3_720_000)).toBe('1 h 2 min');
  });
});
