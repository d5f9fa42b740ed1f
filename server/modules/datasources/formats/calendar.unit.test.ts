import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runUnderTimeZone } from '@/server/test/time-zone-child';
import { calendarCorpus } from './calendar-corpus.test-kit';
import { expandCalendar, MAX_CALENDAR_OCCURRENCES, occurrenceId } from './calendar';
import { MAX_RECURRING_SERIES } from './calendar-text';
import { expectReadable, fixture, formatErrorOf } from './formats.test-kit';
import type { CalendarEvent } from './types';

const MARCH_1 = Date.UTC(2026, 2, 1);
const MAY_1 = Date.UTC(2026, 4, 1);
const DAY = 86_400_000;
const STANDUP_UID = '040000008200E00074C5B7101A82E00800000000B0C9A1F4B2A5DC01000000000000000010000000F1A0C3E5D24C8A4B9A0E3A4D2B1C0F99';

function calendar(events: string[], header = ''): Buffer {
  return Buffer.from(['BEGIN:VCALENDAR', 'VERSION:2.0', header, ...events, 'END:VCALENDAR'].filter(Boolean).join('\r\n'));
}

function summary(events: CalendarEvent[]): string[] {
  return events.map((event) => `${event.start.dateTime} ${event.end.dateTime} ${event.status} ${event.title}`);
}

describe('expandCalendar: an Outlook calendar with a Windows zone name, across the European DST change', () => {
  const events = expandCalendar(fixture('calendar-outlook.ics'), { timeZone: 'Europe/Berlin', now: MARCH_1, from: MARCH_1, to: MAY_1 });

  it('expands the weekly series at 09:00 local on both sides of 29 March, with EXDATE, RDATE and overrides', () => {
    expect(summary(events)).toEqual([
      '2026-03-02T09:00:00+01:00 2026-03-02T09:30:00+01:00 CONFIRMED Team standup',
      '2026-03-09T09:00:00+01:00 2026-03-09T09:30:00+01:00 CONFIRMED Team standup',
      '2026-03-16T09:00:00+01:00 2026-03-16T09:30:00+01:00 CONFIRMED Team standup',
      '2026-03-18T12:00:00+01:00 2026-03-18T13:00:00+01:00 CONFIRMED Lunch & learn: accessibility',
      // RECURRENCE-ID 23 March moved to Tuesday 24 March
      '2026-03-24T10:00:00+01:00 2026-03-24T10:30:00+01:00 CONFIRMED Team standup (moved to Tuesday)',
      '2026-03-25T16:00:00+01:00 2026-03-25T17:00:00+01:00 CANCELLED Board call',
      // all day, 27 to 29 March, ending at midnight after the change to summer time
      '2026-03-27T00:00:00+01:00 2026-03-30T00:00:00+02:00 CONFIRMED Spring holiday (office closed)',
      '2026-03-30T09:00:00+02:00 2026-03-30T09:30:00+02:00 CONFIRMED Team standup',
      // RDATE on a Thursday
      '2026-04-02T09:00:00+02:00 2026-04-02T09:30:00+02:00 CONFIRMED Team standup',
      // 6 April is an EXDATE; 13 April is an override with STATUS:CANCELLED
      '2026-04-13T09:00:00+02:00 2026-04-13T09:30:00+02:00 CANCELLED Canceled: Team standup',
      '2026-04-20T09:00:00+02:00 2026-04-20T09:30:00+02:00 CONFIRMED Team standup',
      '2026-04-27T09:00:00+02:00 2026-04-27T09:30:00+02:00 CONFIRMED Team standup',
    ]);
  });

  it('writes timestamps as epoch milliseconds matching the ISO dateTime', () => {
    for (const event of events) {
      expect(new Date(event.start.dateTime).getTime()).toBe(event.start.timeStamp);
      expect(new Date(event.end.dateTime).getTime()).toBe(event.end.timeStamp);
    }
    expect(events[7]?.start.timeStamp).toBe(Date.UTC(2026, 2, 30, 7, 0));
  });

  it('reads the event fields: organizer, attendees, location, description, created and updated, all-day flag', () => {
    expect(events[0]).toMatchObject({
      status: 'CONFIRMED',
      title: 'Team standup',
      organizer: 'Maria Schulz',
      location: 'Orion (A-101)',
      description: 'Weekly sync of the platform team. Agenda: incidents, releases, blockers.\nDial-in: see the wiki.',
      isStarted: false,
      isAllDay: false,
      uid: STANDUP_UID,
      attendees: [
        { name: 'Tom Berg', status: 'ACCEPTED' },
        { name: 'Lee, Ann', status: 'TENTATIVE' },
      ],
    });
    expect(events[4]).toMatchObject({ location: 'Lyra (B-204)', organizer: 'Maria Schulz' });
    expect(events[6]).toMatchObject({ isAllDay: true, uid: 'spring-holiday-2026@example.com' });
  });

  it('gives every occurrence a UUID that stays the same across refreshes', () => {
    const ids = events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const later = expandCalendar(fixture('calendar-outlook.ics'), { timeZone: 'Europe/Berlin', now: Date.UTC(2026, 2, 20) });
    const byTitleAndStart = new Map(events.map((event) => [`${event.title}@${event.start.timeStamp}`, event.id]));
    for (const event of later) {
      const before = byTitleAndStart.get(`${event.title}@${event.start.timeStamp}`);
      if (before) expect(event.id).toBe(before);
    }
  });

  it('keeps the id of a moved occurrence: the id names its place in the series (the RECURRENCE-ID)', () => {
    const moved = events.find((event) => event.title === 'Team standup (moved to Tuesday)');
    expect(moved?.id).toBe(occurrenceId(STANDUP_UID, String(Date.UTC(2026, 2, 23, 8, 0))));
  });

  it('writes the same events in the offsets of another display zone', () => {
    const inNewYork = expandCalendar(fixture('calendar-outlook.ics'), {
      timeZone: 'America/New_York',
      now: MARCH_1,
      from: MARCH_1,
      to: MAY_1,
    });
    expect(inNewYork.find((event) => event.title === 'Team standup')?.start.dateTime).toBe('2026-03-02T03:00:00-05:00');
    // a floating time and a whole day belong to the display's zone
    expect(inNewYork.find((event) => event.title.startsWith('Lunch'))?.start.dateTime).toBe('2026-03-18T12:00:00-04:00');
    const holiday = inNewYork.find((event) => event.isAllDay);
    expect([holiday?.start.dateTime, holiday?.end.dateTime]).toEqual(['2026-03-27T00:00:00-04:00', '2026-03-30T00:00:00-04:00']);
  });

  it('defaults the window to [now − 1 day, now + 30 days] and keeps events overlapping it', () => {
    const now = Date.UTC(2026, 2, 17, 12, 0);
    const window = expandCalendar(fixture('calendar-outlook.ics'), { timeZone: 'Europe/Berlin', now });
    expect(window[0]?.title).toBe('Lunch & learn: accessibility');
    expect(window.every((event) => event.end.timeStamp > now - DAY && event.start.timeStamp < now + 30 * DAY)).toBe(true);
    expect(window.at(-1)?.start.dateTime).toBe('2026-04-13T09:00:00+02:00');
  });
});

describe('expandCalendar: a Google calendar in America/New_York', () => {
  it('keeps 18:00 local across the US DST change and reads floating times in X-WR-TIMEZONE', () => {
    const events = expandCalendar(fixture('calendar-google-us.ics'), {
      timeZone: 'America/New_York',
      now: MARCH_1,
      from: MARCH_1,
      to: Date.UTC(2026, 2, 20),
    });
    expect(summary(events)).toEqual([
      '2026-03-05T18:00:00-05:00 2026-03-05T19:30:00-05:00 CONFIRMED Evening yoga',
      '2026-03-09T00:00:00-04:00 2026-03-10T00:00:00-04:00 CONFIRMED Fire inspection',
      '2026-03-10T17:00:00-04:00 2026-03-10T18:00:00-04:00 CONFIRMED Floating-time reception',
      // RDATE;VALUE=DATE adds a second day to the yearly all-day series
      '2026-03-11T00:00:00-04:00 2026-03-12T00:00:00-04:00 CONFIRMED Fire inspection',
      '2026-03-12T18:00:00-04:00 2026-03-12T19:30:00-04:00 CONFIRMED Evening yoga',
      '2026-03-19T18:00:00-04:00 2026-03-19T19:30:00-04:00 CONFIRMED Evening yoga',
    ]);
    expect(events[0]).toMatchObject({
      location: 'Studio 2, Level 3',
      created: Date.UTC(2026, 0, 10, 15),
      updated: Date.UTC(2026, 1, 20, 9),
    });
  });

  it('makes a whole day without DTEND one day long on the day clocks go back (25 hours)', () => {
    const events = expandCalendar(fixture('calendar-google-us.ics'), {
      timeZone: 'America/New_York',
      now: Date.UTC(2026, 9, 30),
      from: Date.UTC(2026, 9, 30),
      to: Date.UTC(2026, 10, 4),
    });
    const fallBack = events.find((event) => event.title === 'Clocks go back');
    expect([fallBack?.start.dateTime, fallBack?.end.dateTime]).toEqual(['2026-11-01T00:00:00-04:00', '2026-11-02T00:00:00-05:00']);
    expect((fallBack?.end.timeStamp ?? 0) - (fallBack?.start.timeStamp ?? 0)).toBe(25 * 3_600_000);
  });
});

describe('expandCalendar: independence of the process time zone', () => {
  const MODULE = fileURLToPath(new URL('./calendar-corpus.test-kit.ts', import.meta.url));
  const runUnder = (tz: string) => runUnderTimeZone(MODULE, 'calendarCorpus', tz);

  it('answers byte-identical events under TZ=UTC, America/New_York and Asia/Kathmandu', { timeout: 120_000 }, async () => {
    const zones = ['UTC', 'America/New_York', 'Asia/Kathmandu'];
    const runs = await Promise.all(zones.map(runUnder));
    // the children really ran in those zones: their offset on 2026-01-01, in minutes behind UTC
    expect(runs.map((run) => run.offset)).toEqual([0, 300, -345]);
    const here = JSON.stringify(calendarCorpus());
    for (const run of runs) expect(run.json).toBe(here);
  });
});

describe('expandCalendar: time-zone names', () => {
  const event = (tzid: string) =>
    calendar([
      `BEGIN:VEVENT`,
      `UID:tz-${tzid}`,
      `DTSTART;TZID=${tzid}:20260701T090000`,
      `DTEND;TZID=${tzid}:20260701T100000`,
      `SUMMARY:x`,
      `END:VEVENT`,
    ]);
  const startOf = (body: Buffer, timeZone = 'UTC') =>
    expandCalendar(body, { timeZone, now: Date.UTC(2026, 6, 1), from: Date.UTC(2026, 5, 30), to: Date.UTC(2026, 6, 3) })[0]?.start
      .timeStamp;

  it.each([
    ['"W. Europe Standard Time"', Date.UTC(2026, 6, 1, 7)],
    ['"(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"', Date.UTC(2026, 6, 1, 7)],
    ['Eastern Standard Time', Date.UTC(2026, 6, 1, 13)],
    ['"Tokyo Standard Time"', Date.UTC(2026, 7 - 1, 1, 0)],
    ['Europe/Lisbon', Date.UTC(2026, 6, 1, 8)],
    ['"UTC+05:30"', Date.UTC(2026, 6, 1, 3, 30)],
  ])('reads TZID=%s', (tzid, expected) => {
    expect(startOf(event(tzid))).toBe(expected);
  });

  it('reads an unknown TZID in the calendar’s zone, never the process zone', () => {
    expect(startOf(event('"Customized Time Zone"'), 'Asia/Tokyo')).toBe(Date.UTC(2026, 6, 1, 0));
    expect(startOf(event('Mars/Olympus_Mons'), 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 7));
  });

  it('refuses an unknown display zone', () => {
    expect(formatErrorOf(() => expandCalendar(event('UTC'), { timeZone: 'Mars/Base', now: 0 })).message).toBe(
      '"Mars/Base" is not a known time zone.',
    );
  });
});

describe('expandCalendar: hostile and malformed calendars', () => {
  const now = Date.UTC(2026, 2, 16);

  it('truncates to the soonest 5 000 occurrences', () => {
    const series = Array.from({ length: 8 }, (_, index) =>
      [
        'BEGIN:VEVENT',
        `UID:hourly-${index}`,
        `DTSTART:20260301T00${index}000Z`,
        'DURATION:PT5M',
        'RRULE:FREQ=HOURLY',
        `SUMMARY:Hourly ${index}`,
        'END:VEVENT',
      ].join('\r\n'),
    );
    const events = expandCalendar(calendar(series), { timeZone: 'UTC', now });
    expect(events).toHaveLength(MAX_CALENDAR_OCCURRENCES);
    expect(events[0]?.start.timeStamp).toBeGreaterThanOrEqual(now - DAY - 5 * 60_000);
    expect(events.every((event, index) => index === 0 || (events[index - 1]?.start.timeStamp ?? 0) <= event.start.timeStamp)).toBe(true);
    expect(events.at(-1)?.start.timeStamp).toBeLessThan(now + 30 * DAY);
  });

  it('refuses more than 1 000 recurring series around the window, before expanding any', () => {
    const weekly = (index: number, until = '') =>
      ['BEGIN:VEVENT', `UID:weekly-${index}`, 'DTSTART:20260302T090000Z', `RRULE:FREQ=WEEKLY${until}`, 'SUMMARY:Weekly', 'END:VEVENT'].join(
        '\r\n',
      );
    const tooMany = calendar(Array.from({ length: MAX_RECURRING_SERIES + 1 }, (_, index) => weekly(index)));
    expect(formatErrorOf(() => expandCalendar(tooMany, { timeZone: 'UTC', now })).message).toBe(
      'The calendar has more than 1000 recurring events around the requested period: too many to expand.',
    );
    // series that ended long before the window are not counted (nor read)
    const ended = Array.from({ length: MAX_RECURRING_SERIES + 1 }, (_, index) => weekly(index, ';UNTIL=20240101T000000Z'));
    const mixed = calendar([...ended.map((text) => text.replace('20260302', '20230302')), weekly(99_999)]);
    expect(expandCalendar(mixed, { timeZone: 'UTC', now }).map((event) => event.uid)).toEqual(Array(5).fill('weekly-99999'));
  });

  it('refuses a rule that repeats too often to expand, naming the event', () => {
    const body = calendar([
      'BEGIN:VEVENT',
      'UID:spam',
      'DTSTART:20260301T000000Z',
      'RRULE:FREQ=SECONDLY',
      'SUMMARY:Every second',
      'END:VEVENT',
    ]);
    const error = formatErrorOf(() => expandCalendar(body, { timeZone: 'UTC', now }));
    expect(error.message).toMatch(/^The event "Every second" cannot be expanded: /);
    expectReadable(error);
  });

  it.each([
    [
      'a web page',
      '<!DOCTYPE html><html><body>Sign in</body></html>',
      'The document is not an iCalendar file: it has no BEGIN:VCALENDAR line.',
    ],
    [
      'an event without its end',
      'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260316T090000Z',
      'The calendar ends inside an event: its END:VEVENT is missing.',
    ],
    [
      'crossed components',
      'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nEND:VCALENDAR\r\nEND:VEVENT',
      'The calendar is malformed: END:VCALENDAR on line 4 does not close BEGIN:VEVENT.',
    ],
  ])('refuses %s with a readable reason', (_, text, message) => {
    const error = formatErrorOf(() => expandCalendar(Buffer.from(text), { timeZone: 'UTC', now }));
    expect(error.message).toBe(message);
    expectReadable(error);
  });

  it('treats UIDs and property names like __proto__ as data', () => {
    const body = calendar([
      ['BEGIN:VEVENT', 'UID:__proto__', 'DTSTART:20260316T090000Z', 'SUMMARY:Proto', 'X-__PROTO__:x', 'END:VEVENT'].join('\r\n'),
      ['BEGIN:VEVENT', 'UID:toString', 'DTSTART:20260316T100000Z', 'SUMMARY:ToString', '__PROTO__:y', 'END:VEVENT'].join('\r\n'),
    ]);
    const events = expandCalendar(body, { timeZone: 'UTC', now });
    expect(events.map((event) => [event.uid, event.title])).toEqual([
      ['__proto__', 'Proto'],
      ['toString', 'ToString'],
    ]);
    expect(Reflect.get({}, 'summary')).toBeUndefined();
    expect(Reflect.get(Object.prototype.toString, 'summary')).toBeUndefined();
  });

  it('removes NUL characters and gives an event without UID a stable id', () => {
    const body = calendar(['BEGIN:VEVENT', 'DTSTART:20260316T090000Z', 'SUMMARY:Nu\u0000ll', 'END:VEVENT']);
    const [first] = expandCalendar(body, { timeZone: 'UTC', now });
    expect(first?.title).toBe('Null');
    expect(expandCalendar(body, { timeZone: 'UTC', now: now + DAY / 2 })[0]?.id).toBe(first?.id);
  });

  it('reads an RDATE period with its own length', () => {
    const body = calendar([
      [
        'BEGIN:VEVENT',
        'UID:p',
        'DTSTART:20260316T090000Z',
        'DTEND:20260316T093000Z',
        'RDATE;VALUE=PERIOD:20260317T140000Z/PT2H,20260318T080000Z/20260318T081500Z',
        'SUMMARY:P',
        'END:VEVENT',
      ].join('\r\n'),
    ]);
    const events = expandCalendar(body, { timeZone: 'UTC', now });
    expect(events.map((event) => [event.start.dateTime, event.end.dateTime])).toEqual([
      ['2026-03-16T09:00:00+00:00', '2026-03-16T09:30:00+00:00'],
      ['2026-03-17T14:00:00+00:00', '2026-03-17T16:00:00+00:00'],
      ['2026-03-18T08:00:00+00:00', '2026-03-18T08:15:00+00:00'],
    ]);
  });
});
