import { describe, expect, it } from 'vitest';
import {
  dateOf,
  dayBlocks,
  dayLanes,
  dayNumber,
  intervalOf,
  monthOf,
  scheduleColour,
  scheduleSpans,
  shiftInterval,
  wallMinute,
  weekdayNames,
  weekOf,
} from './calendar';

const day = dayNumber;
const at = (date: string, time: string) => wallMinute(date, time);

describe('calendar days', () => {
  it('names the weekdays Monday first in the locale', () => {
    expect(weekdayNames('en')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(weekdayNames('de')[0]).toMatch(/^Mo/);
  });

  it('counts weeks from Monday and months in whole weeks', () => {
    expect(weekOf('2026-06-10').map(dateOf)).toEqual([
      '2026-06-08',
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
      '2026-06-12',
      '2026-06-13',
      '2026-06-14',
    ]);
    const june = monthOf('2026-06-17');
    expect(dateOf(june[0]!)).toBe('2026-06-01');
    expect(dateOf(june.at(-1)!)).toBe('2026-07-05');
    expect(june).toHaveLength(35);
  });

  it('neither skips nor repeats a day across DST changes (EU and US spring and autumn)', () => {
    for (const date of ['2026-03-29', '2026-10-25', '2026-03-08', '2026-11-01']) {
      const week = weekOf(date);
      expect(week.map((d) => d - week[0]!)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(week.map(dateOf)).toContain(date);
    }
  });
});

describe('scheduleSpans and dayBlocks', () => {
  const week = weekOf('2026-03-25'); // Mon 23 .. Sun 29 March 2026 (Europe's spring-forward Sunday)
  const first = week[0]!;
  const last = week.at(-1)!;

  it('lays one interval out as a block on its day', () => {
    const spans = scheduleSpans(
      {
        id: 1,
        affectedDateRanges: {
          intervals: [{ from: '2026-03-24', fromTime: '09:00', to: '2026-03-24', toTime: '11:30', isExcluded: false }],
        },
      },
      first,
      last,
    );
    expect(spans).toEqual([{ interval: 0, spans: [[at('2026-03-24', '09:00'), at('2026-03-24', '11:30')]] }]);
    expect(dayBlocks(spans[0]!.spans, week)).toEqual([
      { day: day('2026-03-24'), start: 540, end: 690, continuesBefore: false, continuesAfter: false },
    ]);
  });

  it('splits an interval across midnight into the evening and the morning after', () => {
    const spans = scheduleSpans(
      {
        id: 1,
        affectedDateRanges: {
          intervals: [{ from: '2026-03-25', fromTime: '22:00', to: '2026-03-26', toTime: '02:00', isExcluded: false }],
        },
      },
      first,
      last,
    );
    expect(dayBlocks(spans[0]!.spans, week)).toEqual([
      { day: day('2026-03-25'), start: 1320, end: 1440, continuesBefore: false, continuesAfter: true },
      { day: day('2026-03-26'), start: 0, end: 120, continuesBefore: true, continuesAfter: false },
    ]);
  });

  it('keeps wall-clock times on a DST day: 01:00–04:00 on 29 March is drawn 01:00–04:00 (a screen plays it at its own local hours)', () => {
    const spans = scheduleSpans(
      {
        id: 1,
        affectedDateRanges: {
          intervals: [{ from: '2026-03-29', fromTime: '01:00', to: '2026-03-29', toTime: '04:00', isExcluded: false }],
        },
      },
      first,
      last,
    );
    expect(dayBlocks(spans[0]!.spans, week)).toEqual([
      { day: day('2026-03-29'), start: 60, end: 240, continuesBefore: false, continuesAfter: false },
    ]);
  });

  it('repeats daily hours on the affected days inside the range, a window across midnight belonging to its first day', () => {
    const interval = {
      from: '2026-03-23',
      to: '2026-03-29',
      affectedDays: { tuesday: true },
      affectedHours: { allDay: false, from: '22:00', end: '02:00' },
      isExcluded: false,
    };
    const blocks = dayBlocks(scheduleSpans({ id: 1, affectedDateRanges: { intervals: [interval] } }, first, last)[0]!.spans, week);
    expect(blocks.map((b) => [dateOf(b.day), b.start, b.end])).toEqual([
      ['2026-03-24', 1320, 1440],
      ['2026-03-25', 0, 120],
    ]);
  });

  it('cuts by validity and by excluded intervals; an open schedule fills the week', () => {
    const spans = scheduleSpans(
      {
        id: 1,
        validFrom: Date.UTC(2026, 2, 24),
        validTo: Date.UTC(2026, 2, 25),
        affectedDateRanges: {
          intervals: [
            { isExcluded: false },
            { from: '2026-03-24', fromTime: '12:00', to: '2026-03-24', toTime: '13:00', isExcluded: true },
          ],
        },
      },
      first,
      last,
    );
    expect(spans[0]!.spans).toEqual([
      [at('2026-03-24', '00:00'), at('2026-03-24', '12:00')],
      [at('2026-03-24', '13:00'), at('2026-03-26', '00:00')],
    ]);
    expect(scheduleSpans({ id: 2, affectedDateRanges: { intervals: [] } }, first, last)).toEqual([
      { interval: -1, spans: [[first * 1440, (last + 1) * 1440]] },
    ]);
  });

  it('draws a campaign limited to weekdays 9–17 only there, inside its interval', () => {
    const weekdays = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false };
    const hours = { allDay: false, from: '09:00', end: '17:00' };
    // No included interval: valid the whole week, the campaign's own days and hours narrow it.
    const always = scheduleSpans(
      { id: 3, affectedDateRanges: { intervals: [] }, affectedDays: weekdays, affectedHours: hours },
      first,
      last,
    );
    expect(always).toEqual([{ interval: -1, spans: week.slice(0, 5).map((d) => [d * 1440 + 540, d * 1440 + 1020]) }]);
    // An interval Friday 12:00 to Saturday 12:00: Friday 12–17 only.
    const friday = { from: '2026-03-27', fromTime: '12:00', to: '2026-03-28', toTime: '12:00', isExcluded: false };
    expect(
      scheduleSpans({ id: 4, affectedDateRanges: { intervals: [friday] }, affectedDays: weekdays, affectedHours: hours }, first, last),
    ).toEqual([{ interval: 0, spans: [[at('2026-03-27', '12:00'), at('2026-03-27', '17:00')]] }]);
    // Days alone (all day) and hours alone (every day).
    expect(scheduleSpans({ id: 5, affectedDays: { sunday: true } }, first, last)).toEqual([
      { interval: -1, spans: [[last * 1440, (last + 1) * 1440]] },
    ]);
    expect(scheduleSpans({ id: 6, affectedHours: { allDay: false, from: '22:00', end: '02:00' } }, first, last)[0]!.spans[0]).toEqual([
      first * 1440,
      first * 1440 + 120,
    ]);
    // allDay: no limit.
    expect(scheduleSpans({ id: 7, affectedHours: { allDay: true } }, first, last)).toEqual([
      { interval: -1, spans: [[first * 1440, (last + 1) * 1440]] },
    ]);
  });

  it('leaves out intervals outside the days shown', () => {
    expect(
      scheduleSpans(
        { id: 1, affectedDateRanges: { intervals: [{ from: '2026-04-01', to: '2026-04-02', isExcluded: false }] } },
        first,
        last,
      ),
    ).toEqual([]);
  });
});

describe('intervals from the calendar', () => {
  it('writes a dragged range as the spec interval, an end at midnight as 23:59 of the day', () => {
    expect(intervalOf(at('2026-03-24', '09:00'), at('2026-03-24', '10:30'))).toEqual({
      from: '2026-03-24',
      fromTime: '09:00',
      to: '2026-03-24',
      toTime: '10:30',
      isExcluded: false,
    });
    expect(intervalOf(at('2026-03-24', '00:00'), at('2026-03-25', '00:00'))).toEqual({
      from: '2026-03-24',
      fromTime: '00:00',
      to: '2026-03-24',
      toTime: '23:59',
      isExcluded: false,
    });
  });

  it('moves an interval across days and midnight, shifting its daily hours with it', () => {
    const moved = shiftInterval(
      { from: '2026-03-24', fromTime: '09:00', to: '2026-03-24', toTime: '10:00', isExcluded: false },
      24 * 60 + 14 * 60 + 30,
    );
    expect(moved).toEqual({ from: '2026-03-25', fromTime: '23:30', to: '2026-03-26', toTime: '00:30', isExcluded: false });
    const daily = shiftInterval(
      { from: '2026-03-23', to: '2026-03-29', affectedHours: { allDay: false, from: '08:00', end: '09:00' }, isExcluded: false },
      60,
    );
    expect(daily).toMatchObject({
      from: '2026-03-23',
      fromTime: '01:00',
      to: '2026-03-30',
      toTime: '01:00',
      affectedHours: { from: '09:00', end: '10:00' },
    });
    expect(shiftInterval({ from: '2026-03-24', isExcluded: false }, 60)).toBeNull();
  });

  it('gives each schedule a stable colour', () => {
    expect(scheduleColour(7)).toEqual(scheduleColour(7));
    expect(scheduleColour(7).background).not.toBe(scheduleColour(8).background);
  });
});

describe('dayLanes', () => {
  const place = (blocks: Array<[string, number, number]>, minLength = 0) =>
    Object.fromEntries(
      [
        ...dayLanes(
          blocks.map(([key, start, end]) => ({ key, start, end })),
          minLength,
        ),
      ].map(([key, p]) => [key, [p.lane, p.span, p.of]]),
    );

  it('narrows only the blocks that overlap: a brief four-way overlap leaves the rest of the day full width', () => {
    expect(
      place([
        ['a', 480, 540],
        ['b', 480, 540],
        ['c', 480, 540],
        ['d', 480, 540],
        ['evening', 1080, 1200],
      ]),
    ).toEqual({ a: [0, 1, 4], b: [1, 1, 4], c: [2, 1, 4], d: [3, 1, 4], evening: [0, 1, 1] });
  });

  it('widens a block over the lanes to its right that stay free while it lasts', () => {
    // The all-day block holds lane 0 all day; 'late' overlaps only it, so it spreads over lanes 1 and 2.
    expect(
      place([
        ['allDay', 0, 1440],
        ['morning', 480, 600],
        ['overlap', 540, 660],
        ['late', 900, 1000],
      ]),
    ).toEqual({ allDay: [0, 1, 3], morning: [1, 1, 3], overlap: [2, 1, 3], late: [1, 2, 3] });
  });

  it('counts a short block by the room it takes on screen', () => {
    expect(
      place([
        ['a', 600, 605],
        ['b', 610, 640],
      ]),
    ).toEqual({ a: [0, 1, 1], b: [0, 1, 1] });
    expect(
      place(
        [
          ['a', 600, 605],
          ['b', 610, 640],
        ],
        27,
      ),
    ).toEqual({ a: [0, 1, 2], b: [1, 1, 2] });
  });
});
