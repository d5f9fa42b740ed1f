import { describe, expect, it } from 'vitest';
import { listQueryOf } from '@/lib/api/resource';
import { scheduleResource, withInterval } from '@/lib/api/schedules';

describe('schedule list query', () => {
  it('asks the server for TOP campaigns of the folder or its ancestors whose validity overlaps the days shown', () => {
    const query: Record<string, unknown> = listQueryOf(scheduleResource.definition, {
      page: 0,
      size: 100,
      sort: 'weight,asc',
      folderIds: ['r', 'f'],
      fromDay: 1000,
      toDay: 2000,
    });
    expect(query.search).toBe(
      'level=TOP,campaignDeviceGroupAssignments.deviceGroupId∈r%2Cf,validFrom=NULL|validFrom≤2000,validTo=NULL|validTo≥1000',
    );
    expect(String(query.select)).toContain('affectedDateRanges');
    expect(String(query.select)).toContain('deviceGroupAssignments');
    // The campaign's own days and hours (drawn on the calendar) and its teams (edited in the dialog).
    expect(String(query.select).split(',')).toEqual(expect.arrayContaining(['affectedDays', 'affectedHours', 'teamAccessList']));
  });
});

describe('withInterval', () => {
  const a = { from: '2026-01-01', isExcluded: false };
  const b = { from: '2026-02-01', isExcluded: true };
  const c = { from: '2026-03-01', isExcluded: false };

  it('replaces one interval and keeps the others and the flags', () => {
    expect(withInterval({ intervals: [a, b], allowDayOfWeekOverflow: false }, 0, c)).toEqual({
      intervals: [c, b],
      allowDayOfWeekOverflow: false,
    });
  });

  it('adds an interval to a schedule that had no included one', () => {
    expect(withInterval({ intervals: [b] }, -1, c)).toEqual({ intervals: [b, c] });
    expect(withInterval(undefined, -1, c)).toEqual({ intervals: [c] });
  });
});
