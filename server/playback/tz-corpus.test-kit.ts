import { campaign, content, device, file, group, message } from './fixtures.test-kit';
import { explain, resolveSegments } from './resolver';
import type { PlaybackRules } from './types';

/*
 * A fixed corpus of resolutions (zones with DST changes, half-hour and 45-minute offsets, windows across
 * midnight, hours in their own zone, date ranges, RANDOM order, message groups). tz-independence.unit.test.ts
 * runs it under several process time zones and compares the JSON: resolution never reads the process zone.
 */

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Pacific/Chatham', 'Asia/Kathmandu', 'America/Chicago', 'UTC'];
const WINDOWS = ['2026-03-07', '2026-03-28', '2026-04-04', '2026-10-03', '2026-10-24', '2026-10-31', '2027-01-01'].map((d) => {
  const from = Date.parse(`${d}T00:00:00Z`);

  return { from, to: from + 3 * 86_400_000 };
});

const rules: PlaybackRules = {
  campaigns: [
    campaign(1, {
      weight: 1,
      affectedHours: { allDay: false, from: '22:00', end: '02:30' },
      affectedDays: { friday: true, saturday: true },
    }),
    campaign(2, {
      weight: 0,
      saturation: 2,
      orderingMode: 'RANDOM',
      files: [1, 2, 3, 4, 5].map((n) => file(n)),
      affectedHours: { allDay: false, from: '02:30', end: '23:59', timeZone: 'America/Los_Angeles' },
    }),
    campaign(3, {
      level: 'TOP',
      files: [],
      contents: [content(3)],
      affectedDateRanges: {
        intervals: [
          {
            from: '2026-03-08',
            fromTime: '01:30',
            to: '2026-10-25',
            toTime: '02:30',
            isExcluded: false,
            affectedHours: { allDay: false, from: '06:00', end: '09:00' },
          },
          { affectedDays: { sunday: true }, isExcluded: true },
        ],
      },
    }),
    campaign(4, {
      validFrom: '2026-03-29',
      validTo: '2026-10-25',
      files: [file(7, { validFrom: Date.parse('2026-04-05T01:00:00Z'), validTo: Date.parse('2026-10-04T12:00:00Z') })],
    }),
    campaign(5, {
      files: [],
      contentShuffleMode: 'BALANCED',
      messageGroups: [
        group(1, [
          message(1, {
            affectedHours: { allDay: false, from: '00:00', end: '03:00' },
            orderingMode: 'RANDOM',
            files: [file(11), file(12), file(13)],
            saturation: 0,
          }),
          message(2, { validTo: '2026-10-03' }),
        ]),
      ],
    }),
  ],
};

export function corpus() {
  return ZONES.map((timeZone) => {
    const d = device({ timeZone });

    return {
      timeZone,
      schedules: WINDOWS.map((w) => resolveSegments(rules, d, w)),
      explanations: WINDOWS.flatMap((w) => [0, 7, 26, 49].map((h) => explain(rules, d, w.from + h * 3_600_000 + 30 * 60_000))),
    };
  });
}
