import { describe, expect, it } from 'vitest';
import { QUARTER_MS, readableDateTime, reportPeriods } from './report-periods';

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(`${iso}Z`);

describe('reportPeriods', () => {
  it('cuts Kolkata days at 18:30 UTC, each split into the runs of slots of the two UTC days it overlaps', () => {
    const p = reportPeriods({
      from: utc('2026-03-01T18:30:00'),
      to: utc('2026-03-03T18:30:00'),
      timeZone: 'Asia/Kolkata',
      resolution: 'DAILY',
    });
    expect(p.periods.map((x) => x.readableDateTime)).toEqual(['2026-03-02 00:00', '2026-03-03 00:00']);
    expect(p.slices.filter((s) => s.period === 0)).toEqual([
      { day: '2026-03-01', period: 0, fromSlot: 74, toSlot: 96 },
      { day: '2026-03-02', period: 0, fromSlot: 0, toSlot: 74 },
    ]);
    expect(p.firstDay).toBe('2026-03-01');
    expect(p.lastDay).toBe('2026-03-03');
  });

  it('starts the first period before `from` but counts from `from` (widened to the quarter hour), and ends at `to` (rounded up)', () => {
    const from = utc('2026-03-02T10:07:00');
    const p = reportPeriods({ from, to: utc('2026-03-02T11:01:00'), timeZone: 'UTC', resolution: 'DAILY' });
    expect(p.periods).toEqual([
      {
        timestamp: utc('2026-03-02T00:00:00'),
        readableDateTime: '2026-03-02 00:00',
        start: utc('2026-03-02T10:00:00'),
        end: utc('2026-03-02T11:15:00'),
      },
    ]);
    expect(p.slices).toEqual([{ day: '2026-03-02', period: 0, fromSlot: 40, toSlot: 45 }]);
    const total = reportPeriods({ from, to: utc('2026-03-04T00:00:00'), timeZone: 'UTC', resolution: 'TOTAL' });
    expect(total.periods).toHaveLength(1);
    expect(total.periods[0]!.timestamp).toBe(from);
    expect(total.slices.map((s) => [s.day, s.fromSlot, s.toSlot])).toEqual([
      ['2026-03-02', 40, 96],
      ['2026-03-03', 0, 96],
    ]);
  });

  it('Berlin: the fall-back day lasts 25 hours with two 02:00 hours; weeks start on Monday; months at local midnight', () => {
    const day = reportPeriods({
      from: utc('2026-10-24T22:00:00'),
      to: utc('2026-10-25T23:00:00'),
      timeZone: 'Europe/Berlin',
      resolution: 'HOURLY',
    });
    expect(day.periods).toHaveLength(25);
    expect(day.periods.filter((x) => x.readableDateTime === '2026-10-25 02:00')).toHaveLength(2);
    const week = reportPeriods({
      from: utc('2026-10-25T10:00:00'),
      to: utc('2026-10-26T10:00:00'),
      timeZone: 'Europe/Berlin',
      resolution: 'WEEKLY',
    });
    expect(week.periods.map((x) => x.readableDateTime)).toEqual(['2026-10-19 00:00', '2026-10-26 00:00']);
    const month = reportPeriods({
      from: utc('2026-03-15T00:00:00'),
      to: utc('2026-04-15T00:00:00'),
      timeZone: 'Europe/Berlin',
      resolution: 'MONTHLY',
    });
    expect(month.periods.map((x) => [x.readableDateTime, x.timestamp])).toEqual([
      ['2026-03-01 00:00', utc('2026-02-28T23:00:00')],
      ['2026-04-01 00:00', utc('2026-03-31T22:00:00')],
    ]);
  });

  it('Kathmandu (+5:45): hour boundaries are quarter hours in UTC', () => {
    const p = reportPeriods({
      from: utc('2026-03-01T00:00:00'),
      to: utc('2026-03-01T03:00:00'),
      timeZone: 'Asia/Kathmandu',
      resolution: 'HOURLY',
    });
    expect(p.periods.every((x) => x.timestamp % QUARTER_MS === 0)).toBe(true);
    expect(p.periods[0]!.timestamp).toBe(utc('2026-02-28T23:15:00'));
    expect(readableDateTime(utc('2026-02-28T23:15:00'), 'Asia/Kathmandu')).toBe('2026-03-01 05:00');
    expect(p.periods.at(-1)!.end - p.periods[0]!.start).toBe(3 * HOUR);
  });

  // The contract fuzz found it: Africa/Monrovia kept its local mean time (-0:44:30) until 1972, so its midnights were
  // off the quarter hour; the report answered 500.
  it('a historical local mean time (Monrovia, -0:44:30): boundaries floored to the quarter hour, contiguous, no error', () => {
    const p = reportPeriods({ from: 1, to: 758, timeZone: 'Africa/Monrovia', resolution: 'WEEKLY' });
    expect(p.periods).toHaveLength(1);
    expect(p.periods[0]!.readableDateTime).toBe('1969-12-29 00:00');
    const days = reportPeriods({
      from: utc('1970-01-01T00:00:00'),
      to: utc('1970-01-04T00:00:00'),
      timeZone: 'Africa/Monrovia',
      resolution: 'DAILY',
    });
    expect(days.periods.map((x) => x.readableDateTime)).toEqual([
      '1969-12-31 00:00',
      '1970-01-01 00:00',
      '1970-01-02 00:00',
      '1970-01-03 00:00',
    ]);
    for (const [i, x] of days.periods.entries()) {
      expect(x.start % QUARTER_MS).toBe(0);
      expect(x.end % QUARTER_MS).toBe(0);
      if (i > 0) expect(x.start).toBe(days.periods[i - 1]!.end);
    }
    expect(days.periods[0]!.start).toBe(utc('1970-01-01T00:00:00'));
    expect(days.periods.at(-1)!.end).toBe(utc('1970-01-04T00:00:00'));
    // 00:00 in Monrovia was 00:44:30 UTC: floored, the day is counted from 00:30 UTC.
    expect(days.periods[1]!.start).toBe(utc('1970-01-01T00:30:00'));
  });
});
