import { describe, expect, it } from 'vitest';
import { dateOnly } from '@/server/http/wire.schemas';
import { CampaignHoursSchema, ScheduleIntervalsSchema, WorkingTimeSchema } from './schedule-rules.schemas';

describe('schedule rule wire shapes', () => {
  it('answers times as HH:mm whichever form came in (DECISIONS §2)', () => {
    expect(CampaignHoursSchema.parse({ allDay: false, from: 8 * 3_600_000 + 30 * 60_000, end: '17:00' })).toMatchObject({
      from: '08:30',
      end: '17:00',
    });
    // 2026-07-01T06:15:00Z is 08:15 in Berlin (CEST)
    expect(
      CampaignHoursSchema.parse({ allDay: false, from: Date.UTC(2026, 6, 1, 6, 15), end: '20:00', timeZone: 'Europe/Berlin' }).from,
    ).toBe('08:15');
  });

  it('takes a window across midnight for campaigns but not for working time', () => {
    expect(CampaignHoursSchema.safeParse({ allDay: false, from: '22:00', end: '02:00' }).success).toBe(true);
    expect(CampaignHoursSchema.safeParse({ allDay: false, from: '22:00', end: '22:00' }).success).toBe(false);
    expect(WorkingTimeSchema.safeParse({ allDay: false, from: '22:00', end: '02:00', timeZone: 'UTC' }).success).toBe(false);
    expect(WorkingTimeSchema.safeParse({ allDay: false, from: '08:00', end: '18:00' }).success).toBe(false);
    expect(WorkingTimeSchema.safeParse({ allDay: false, from: '08:00', end: '18:00', timeZone: 'Europe/Berlin' }).success).toBe(true);
  });

  it('refuses dates that do not exist and intervals that end before they start', () => {
    expect(dateOnly.safeParse('2026-02-29').success).toBe(false);
    expect(dateOnly.safeParse('2028-02-29').success).toBe(true);
    expect(ScheduleIntervalsSchema.safeParse({ intervals: [{ from: '2026-05-02', to: '2026-05-01', isExcluded: false }] }).success).toBe(
      false,
    );
    expect(ScheduleIntervalsSchema.safeParse({ intervals: [{ from: '2026-05-01' }] }).success).toBe(false);
  });
});
