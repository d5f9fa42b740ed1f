import { readFileSync } from 'node:fs';
import { expandCalendar } from './calendar';

/*
 * The calendars the time-zone independence test expands in this process and in child processes started under
 * other TZ= values: the answers must be byte-identical.
 */

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

export function calendarCorpus(): unknown {
  return {
    outlookBerlin: expandCalendar(fixture('calendar-outlook.ics'), {
      timeZone: 'Europe/Berlin',
      now: Date.UTC(2026, 2, 16),
      from: Date.UTC(2026, 2, 1),
      to: Date.UTC(2026, 4, 1),
    }),
    outlookNewYork: expandCalendar(fixture('calendar-outlook.ics'), {
      timeZone: 'America/New_York',
      now: Date.UTC(2026, 2, 16),
      from: Date.UTC(2026, 2, 1),
      to: Date.UTC(2026, 4, 1),
    }),
    googleSpring: expandCalendar(fixture('calendar-google-us.ics'), {
      timeZone: 'America/New_York',
      now: Date.UTC(2026, 2, 1),
      from: Date.UTC(2026, 2, 1),
      to: Date.UTC(2026, 2, 20),
    }),
    googleAutumn: expandCalendar(fixture('calendar-google-us.ics'), {
      timeZone: 'America/New_York',
      now: Date.UTC(2026, 9, 25),
      from: Date.UTC(2026, 9, 25),
      to: Date.UTC(2026, 10, 8),
    }),
  };
}
