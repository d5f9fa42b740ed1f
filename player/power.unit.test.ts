import { describe, expect, it } from 'vitest';
import { PowerSchedule, isWorking, localTime, parseHhmm, rebootDue, type WorkingHours } from './power';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

describe("local time in the screen's zone", () => {
  it('reads the wall clock of the zone given, whatever the process zone', () => {
    // 2026-11-23 is a Monday; 00:00 UTC is 05:30 in Kolkata, 19:00 the day before in New York.
    expect(localTime(at('2026-11-23T00:00:00Z'), 'Asia/Kolkata')).toMatchObject({ minute: 5 * 60 + 30, weekday: 0 });
    expect(localTime(at('2026-11-23T00:00:00Z'), 'America/New_York')).toMatchObject({ minute: 19 * 60, weekday: 6 });
    expect(localTime(at('2026-11-23T00:00:00Z'), 'UTC').date - localTime(at('2026-11-22T23:59:00Z'), 'UTC').date).toBe(1);
    expect(() => localTime(0, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('parses HH:mm only', () => {
    expect(parseHhmm('08:05')).toBe(485);
    expect(parseHhmm('23:59')).toBe(1_439);
    for (const bad of ['24:00', '8:00', '08:60', 800, undefined]) expect(parseHhmm(bad)).toBeUndefined();
  });
});

describe('working hours', () => {
  const weekdays: WorkingHours = { mode: 'SCREEN', days: { MON: { from: '08:00', to: '18:00' } } };

  it("works inside [from, to) of a listed day, in the manifest's zone", () => {
    const kolkata = (iso: string) => isWorking(weekdays, 'Asia/Kolkata', at(iso));
    expect(kolkata('2026-11-23T02:29:00Z')).toBe(false); // 07:59 IST
    expect(kolkata('2026-11-23T02:30:00Z')).toBe(true); // 08:00
    expect(kolkata('2026-11-23T12:29:59Z')).toBe(true); // 17:59:59
    expect(kolkata('2026-11-23T12:30:00Z')).toBe(false); // 18:00
    // The same instants read in UTC would say otherwise: 08:00 UTC Monday works there, not in Kolkata (13:30 → works too), 17:00 UTC (22:30 IST) does not.
    expect(isWorking(weekdays, 'UTC', at('2026-11-23T17:00:00Z'))).toBe(true);
    expect(kolkata('2026-11-23T17:00:00Z')).toBe(false);
  });

  it('a day not listed does not work', () => {
    expect(isWorking(weekdays, 'UTC', at('2026-11-24T10:00:00Z'))).toBe(false); // Tuesday
  });

  it('a window across midnight belongs to the day it started', () => {
    const nights: WorkingHours = { mode: 'DEVICE', days: { FRI: { from: '22:00', to: '02:00' } } };
    const utc = (iso: string) => isWorking(nights, 'UTC', at(iso));
    expect(utc('2026-11-27T21:59:00Z')).toBe(false); // Friday
    expect(utc('2026-11-27T23:00:00Z')).toBe(true);
    expect(utc('2026-11-28T01:59:00Z')).toBe(true); // Saturday, Friday's night
    expect(utc('2026-11-28T02:00:00Z')).toBe(false);
    expect(utc('2026-11-27T00:30:00Z')).toBe(false); // early Friday: Thursday's night, not listed
  });

  it('to 23:59 is to the end of the day; from equal to to is the whole day', () => {
    expect(isWorking({ days: { MON: { from: '08:00', to: '23:59' } } }, 'UTC', at('2026-11-23T23:59:30Z'))).toBe(true);
    expect(isWorking({ days: { MON: { from: '00:00', to: '00:00' } } }, 'UTC', at('2026-11-23T03:00:00Z'))).toBe(true);
  });

  it('no working hours, no day in them, or times that cannot be read: no restriction', () => {
    const monday3am = at('2026-11-23T03:00:00Z');
    expect(isWorking(undefined, 'UTC', monday3am)).toBe(true);
    expect(isWorking({ mode: 'SCREEN', days: {} }, 'UTC', monday3am)).toBe(true);
    expect(isWorking({ mode: 'SCREEN' }, 'UTC', monday3am)).toBe(true);
    expect(isWorking({ days: { MON: { from: 'soon', to: '18:00' } } }, 'UTC', monday3am)).toBe(true);
  });
});

describe('the daily reboot time', () => {
  /** The instants, one a minute from `from` for `minutes`, at which the reboot is due. */
  const dueTicks = (time: string, zone: string, from: string, minutes: number) => {
    const start = at(from);
    const due: string[] = [];
    for (let i = 1; i <= minutes; i++)
      if (rebootDue(time, zone, start + (i - 1) * MINUTE, start + i * MINUTE)) due.push(new Date(start + i * MINUTE).toISOString());

    return due;
  };

  it('is due once a day, on its local minute', () => {
    expect(dueTicks('03:30', 'Asia/Kolkata', '2026-11-22T12:00:00Z', 2 * 1_440)).toEqual([
      '2026-11-22T22:00:00.000Z',
      '2026-11-23T22:00:00.000Z',
    ]);
  });

  it('a time skipped when clocks spring forward is passed at the first minute after the gap', () => {
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00 UTC); 02:30 does not exist.
    expect(dueTicks('02:30', 'Europe/Berlin', '2026-03-28T23:00:00Z', 6 * 60)).toEqual(['2026-03-29T01:00:00.000Z']);
  });

  it('a time that repeats when clocks fall back is passed once, the first time', () => {
    // Berlin, 2026-10-25: 03:00 CEST becomes 02:00 CET (01:00 UTC); 02:30 happens at 00:30 and 01:30 UTC.
    expect(dueTicks('02:30', 'Europe/Berlin', '2026-10-24T22:00:00Z', 6 * 60)).toEqual(['2026-10-25T00:30:00.000Z']);
    // A time after the repeated hour is reached as usual (04:30 CET = 03:30 UTC).
    expect(dueTicks('04:30', 'Europe/Berlin', '2026-10-24T22:00:00Z', 6 * 60)).toEqual(['2026-10-25T03:30:00.000Z']);
    // Lord Howe Island falls back by half an hour (02:00 → 01:30 on 2026-04-05, at 15:00 UTC the day before).
    expect(dueTicks('01:45', 'Australia/Lord_Howe', '2026-04-04T13:00:00Z', 4 * 60)).toEqual(['2026-04-04T14:45:00.000Z']);
  });

  it('a wait longer than a minute (a throttled timer) still passes it; none is due without a time or going back', () => {
    expect(rebootDue('23:59', 'UTC', at('2026-11-23T23:50:00Z'), at('2026-11-24T00:10:00Z'))).toBe(true);
    expect(rebootDue('00:05', 'UTC', at('2026-11-23T23:50:00Z'), at('2026-11-24T00:10:00Z'))).toBe(true);
    expect(rebootDue(undefined, 'UTC', 0, 86_400_000)).toBe(false);
    expect(rebootDue('03:30', 'UTC', at('2026-11-24T03:31:00Z'), at('2026-11-24T03:29:00Z'))).toBe(false);
  });
});

/** An injected clock and timers: `advance` runs the timers due, in order. */
function fakeTime(start: number) {
  let now = start;
  let timers: { fn: () => void; at: number; id: number }[] = [];
  let ids = 0;

  return {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => {
      timers.push({ fn, at: now + ms, id: ++ids });
      return ids;
    },
    clearTimer: (id: unknown) => {
      timers = timers.filter((t) => t.id !== id);
    },
    advance(to: number, early = 0) {
      for (;;) {
        const next = timers.sort((a, b) => a.at - b.at)[0];
        if (!next || next.at > to) break;
        timers = timers.filter((t) => t !== next);
        now = next.at - early;
        next.fn();
      }
      now = to;
    },
    pending: () => timers.length,
  };
}

describe('the power schedule', () => {
  it("turns the screen off and on at the working hours' minutes and reloads at the reboot time, in the manifest's zone", () => {
    // Monday 07:58:30 in Kolkata.
    const time = fakeTime(at('2026-11-23T02:28:30Z'));
    const events: string[] = [];
    const schedule = new PowerSchedule({
      ...time,
      working: (on) => events.push(`${on ? 'on' : 'off'} ${new Date(time.now()).toISOString()}`),
      reboot: () => events.push(`reboot ${new Date(time.now()).toISOString()}`),
    });
    schedule.update(
      { workingHours: { mode: 'SCREEN', days: { MON: { from: '08:00', to: '18:00' } } }, rebootTime: '08:01' },
      'Asia/Kolkata',
    );
    expect(events).toEqual(['off 2026-11-23T02:28:30.000Z']);
    time.advance(at('2026-11-23T02:29:50Z'));
    expect(events).toHaveLength(1);
    time.advance(at('2026-11-23T02:31:30Z'));
    expect(events).toEqual(['off 2026-11-23T02:28:30.000Z', 'on 2026-11-23T02:30:00.000Z', 'reboot 2026-11-23T02:31:00.000Z']);
    // After the reboot nothing more is scheduled (the page reloads).
    expect(time.pending()).toBe(0);
  });

  it('reads a timer that fires a little early as the minute it was set for, and a new manifest at once', () => {
    const time = fakeTime(at('2026-11-23T17:59:10Z'));
    const events: string[] = [];
    const schedule = new PowerSchedule({ ...time, working: (on) => events.push(on ? 'on' : 'off'), reboot: () => events.push('reboot') });
    schedule.update({ workingHours: { days: { MON: { from: '08:00', to: '18:00' } } } }, 'UTC');
    time.advance(at('2026-11-23T18:00:30Z'), 3);
    expect(events).toEqual(['on', 'off']);
    // New settings without working hours: on again at once, without waiting for the minute.
    schedule.update({}, 'UTC');
    expect(events).toEqual(['on', 'off', 'on']);
    schedule.stop();
    expect(time.pending()).toBe(0);
  });

  it('ignores settings in an unknown zone (the screen stays on) and says so', () => {
    const time = fakeTime(at('2026-11-24T10:00:00Z'));
    const events: string[] = [];
    const schedule = new PowerSchedule({
      ...time,
      working: (on) => events.push(on ? 'on' : 'off'),
      reboot: () => events.push('reboot'),
      warn: (m) => events.push(m),
    });
    schedule.update({ workingHours: { days: { MON: { from: '08:00', to: '18:00' } } } }, 'Mars/Olympus');
    expect(events[0]).toMatch(/ignored/);
    expect(events[1]).toBe('on');
  });
});
