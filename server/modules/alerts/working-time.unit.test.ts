import { describe, expect, it } from 'vitest';
import { isWorkingTime, nextWorkingInstant, type WorkingSchedule } from './working-time';

const weekdays = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false };
const everyDay = { ...weekdays, saturday: true, sunday: true };
const office = (zone = 'Europe/Berlin'): WorkingSchedule => ({
  workingDays: weekdays,
  workingTime: { allDay: false, from: '08:00', end: '18:00', timeZone: zone },
});
const at = (iso: string) => Date.parse(iso);

describe('isWorkingTime', () => {
  it('reads the days and the window in the rule’s zone', () => {
    // Monday 2026-06-15: Berlin is UTC+2.
    expect(isWorkingTime(office(), at('2026-06-15T05:59:00Z'))).toBe(false);
    expect(isWorkingTime(office(), at('2026-06-15T06:00:00Z'))).toBe(true);
    expect(isWorkingTime(office(), at('2026-06-15T15:59:59Z'))).toBe(true);
    expect(isWorkingTime(office(), at('2026-06-15T16:00:00Z'))).toBe(false);
    // Saturday, and Friday 23:30 UTC which is already Saturday in Berlin.
    expect(isWorkingTime(office(), at('2026-06-20T10:00:00Z'))).toBe(false);
    expect(isWorkingTime({ ...office(), workingTime: { allDay: true, timeZone: 'Europe/Berlin' } }, at('2026-06-19T23:30:00Z'))).toBe(
      false,
    );
    expect(isWorkingTime({ ...office(), workingTime: { allDay: true, timeZone: 'Europe/Berlin' } }, at('2026-06-19T21:30:00Z'))).toBe(true);
    // The same instant in New York is Friday 17:30: a working day there.
    expect(isWorkingTime({ ...office(), workingTime: { allDay: true, timeZone: 'America/New_York' } }, at('2026-06-19T23:30:00Z'))).toBe(
      true,
    );
  });

  it('keeps the wall-clock window on DST days (Berlin 2026-03-29 and 2026-10-25)', () => {
    const sundays: WorkingSchedule = {
      workingDays: everyDay,
      workingTime: { allDay: false, from: '01:00', end: '04:00', timeZone: 'Europe/Berlin' },
    };
    // Spring forward: 02:00 CET → 03:00 CEST. 01:00 CET = 00:00Z; 04:00 CEST = 02:00Z.
    expect(isWorkingTime(sundays, at('2026-03-28T23:59:00Z'))).toBe(false);
    expect(isWorkingTime(sundays, at('2026-03-29T00:00:00Z'))).toBe(true);
    expect(isWorkingTime(sundays, at('2026-03-29T01:59:00Z'))).toBe(true);
    expect(isWorkingTime(sundays, at('2026-03-29T02:00:00Z'))).toBe(false);
    // Fall back: 03:00 CEST → 02:00 CET. 01:00 CEST = 23:00Z the day before; 04:00 CET = 03:00Z: four hours of work.
    expect(isWorkingTime(sundays, at('2026-10-24T22:59:00Z'))).toBe(false);
    expect(isWorkingTime(sundays, at('2026-10-24T23:00:00Z'))).toBe(true);
    expect(isWorkingTime(sundays, at('2026-10-25T02:59:00Z'))).toBe(true);
    expect(isWorkingTime(sundays, at('2026-10-25T03:00:00Z'))).toBe(false);
    // An all-day Sunday is 23 hours in March and 25 in October.
    const sunday: WorkingSchedule = {
      workingDays: { sunday: true },
      workingTime: { allDay: true, timeZone: 'Europe/Berlin' },
    };
    expect(isWorkingTime(sunday, at('2026-03-28T22:59:00Z'))).toBe(false);
    expect(isWorkingTime(sunday, at('2026-03-28T23:00:00Z'))).toBe(true);
    expect(isWorkingTime(sunday, at('2026-03-29T21:59:00Z'))).toBe(true);
    expect(isWorkingTime(sunday, at('2026-03-29T22:00:00Z'))).toBe(false);
    expect(isWorkingTime(sunday, at('2026-10-24T21:59:00Z'))).toBe(false);
    expect(isWorkingTime(sunday, at('2026-10-24T22:00:00Z'))).toBe(true);
    expect(isWorkingTime(sunday, at('2026-10-25T22:59:00Z'))).toBe(true);
    expect(isWorkingTime(sunday, at('2026-10-25T23:00:00Z'))).toBe(false);
  });

  it('runs an end of 23:59 to midnight, and reads an all-day rule without zone in UTC', () => {
    const late: WorkingSchedule = { workingDays: everyDay, workingTime: { allDay: false, from: '20:00', end: '23:59', timeZone: 'UTC' } };
    expect(isWorkingTime(late, at('2026-06-15T23:59:30Z'))).toBe(true);
    expect(isWorkingTime(late, at('2026-06-16T00:00:00Z'))).toBe(false);
    const utc: WorkingSchedule = { workingDays: { monday: true }, workingTime: { allDay: true } };
    expect(isWorkingTime(utc, at('2026-06-15T00:00:00Z'))).toBe(true);
    expect(isWorkingTime(utc, at('2026-06-14T23:59:59Z'))).toBe(false);
  });

  it('never holds without working days', () => {
    expect(isWorkingTime({ ...office(), workingDays: null }, at('2026-06-15T10:00:00Z'))).toBe(false);
    expect(isWorkingTime({ ...office(), workingDays: {} }, at('2026-06-15T10:00:00Z'))).toBe(false);
  });
});

describe('nextWorkingInstant', () => {
  it('answers the instant itself within working time, else the next window start', () => {
    expect(nextWorkingInstant(office(), at('2026-06-15T10:00:00Z'))).toBe(at('2026-06-15T10:00:00Z'));
    expect(nextWorkingInstant(office(), at('2026-06-15T17:00:00Z'))).toBe(at('2026-06-16T06:00:00Z'));
    // Friday evening → Monday 08:00 Berlin.
    expect(nextWorkingInstant(office(), at('2026-06-19T17:00:00Z'))).toBe(at('2026-06-22T06:00:00Z'));
    // Across the spring change: Friday evening before → Monday 08:00 CEST (06:00Z), the Friday at 08:00 CET (07:00Z).
    expect(nextWorkingInstant(office(), at('2026-03-26T20:00:00Z'))).toBe(at('2026-03-27T07:00:00Z'));
    expect(nextWorkingInstant(office(), at('2026-03-27T20:00:00Z'))).toBe(at('2026-03-30T06:00:00Z'));
  });

  it('is null when no day is a working day', () => {
    expect(nextWorkingInstant({ ...office(), workingDays: null }, at('2026-06-15T10:00:00Z'))).toBeNull();
    expect(nextWorkingInstant({ ...office(), workingDays: { monday: false } }, at('2026-06-15T10:00:00Z'))).toBeNull();
  });
});
