import { z } from '@hono/zod-openapi';
import { combinationRule, dateOnly, ianaTimeZone } from '@/server/http/wire.schemas';
import { tagSchema } from '@/server/modules/tags/tags.schemas';

/*
 * The time rules of spec 1 ("Schedule interval object", "Working days and working time objects") as wire
 * shapes, shared by every resource that carries them (campaigns, messages, alert rules, datasources) and by
 * the playback resolver. No server imports: the console's forms use these too.
 */

const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type DayName = (typeof DAY_NAMES)[number];
export const dayNames: readonly DayName[] = DAY_NAMES;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const MS_PER_DAY = 86_400_000;

/** A time of day as `HH:mm` (the only form answered). */
const timeOfDay = z.string().regex(HHMM, 'A time of day as HH:mm').openapi({ example: '08:30' });

const pad = (n: number) => String(n).padStart(2, '0');

/** `HH:mm` of milliseconds after midnight (seconds dropped). */
const msToTimeOfDay = (ms: number) => `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor((ms % 3_600_000) / 60_000))}`;

/** `HH:mm` of an epoch instant read in `timeZone`. */
function epochToTimeOfDay(epochMs: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(epochMs),
  );
  const hour = parts.find((p) => p.type === 'hour')?.value ?? '00';
  const minute = parts.find((p) => p.type === 'minute')?.value ?? '00';

  return `${hour}:${minute}`;
}

/**
 * A time of day on input (DECISIONS §2): `HH:mm`, or an integer: below 86 400 000 milliseconds after midnight,
 * otherwise an epoch timestamp (kept as a number here; the enclosing object reads it in its `timeZone`).
 */
const timeOfDayInput = z.union([timeOfDay, z.number().int().min(0).max(8_640_000_000_000_000)]);

const normaliseTime = (value: string | number | undefined, timeZone: string | undefined): string | undefined => {
  if (value === undefined || typeof value === 'string') return value;
  if (value < MS_PER_DAY) return msToTimeOfDay(value);

  return epochToTimeOfDay(value, timeZone ?? 'UTC');
};

/** The days of a week a rule holds on; a day left out does not hold. */
export const WorkingDaysSchema = z
  .object(Object.fromEntries(DAY_NAMES.map((d) => [d, z.boolean().optional()])) as Record<DayName, z.ZodOptional<z.ZodBoolean>>)
  .openapi('WorkingDays', { description: 'Seven booleans, monday..sunday; a day left out is false' });
export type WorkingDays = z.infer<typeof WorkingDaysSchema>;

/** The spec's edge-case flags of time windows (recorded interpretation in docs/decisions.md). */
const windowFlags = {
  allowPartialStartingSegment: z.boolean().optional(),
  allowPartialEndingSegment: z.boolean().optional(),
  allowDayOfWeekOverflow: z.boolean().optional(),
};

const workingTimeShape = z.object({
  allDay: z.boolean().optional(),
  from: timeOfDayInput.optional(),
  end: timeOfDayInput.optional(),
  timeZone: ianaTimeZone.optional(),
  ...windowFlags,
});

const normaliseWorkingTime = (v: z.infer<typeof workingTimeShape>) => ({
  ...v,
  from: normaliseTime(v.from, v.timeZone),
  end: normaliseTime(v.end, v.timeZone),
});

/**
 * A campaign's or message's `affectedHours`: half-open `[from, end)` read in `timeZone` (else the device's);
 * `end` 23:59 runs to the end of the day; `from` later than `end` is a window across midnight. `from` equal
 * to `end` is refused (an empty or a whole-day window is said with `allDay`).
 */
export const CampaignHoursSchema = workingTimeShape
  .transform(normaliseWorkingTime)
  .refine(
    (v) => v.allDay !== false || (v.from !== undefined && v.end !== undefined),
    combinationRule('A bounded window needs from and end', ['from']),
  )
  .refine((v) => v.allDay !== false || v.from !== v.end, combinationRule('end must differ from from', ['end']))
  .openapi('CampaignHours', {
    description:
      'Working time object (spec 1); from later than end spans midnight. A bounded window (`allDay` false) needs `from` and `end`, and they differ',
  });
export type CampaignHours = z.output<typeof CampaignHoursSchema>;

/** The working time object of alert rules (spec 1): a bounded window needs `timeZone` and `end` after `from`. */
export const WorkingTimeSchema = workingTimeShape
  .transform(normaliseWorkingTime)
  .refine(
    (v) => v.allDay !== false || (v.from !== undefined && v.end !== undefined && v.timeZone !== undefined),
    combinationRule('A bounded window needs from, end and timeZone', ['from']),
  )
  .refine((v) => v.allDay !== false || (v.from ?? '') < (v.end ?? ''), combinationRule('end must be after from', ['end']))
  .openapi('WorkingTime', {
    description:
      'Working time object (spec 1). A bounded window (`allDay` false) needs `from`, `end` and `timeZone`, with `end` after `from`',
  });

/** One interval of a schedule interval object (spec 1); omitted fields take the spec's defaults. */
export const ScheduleIntervalSchema = z
  .object({
    affectedDays: WorkingDaysSchema.optional(),
    affectedHours: z
      .object({ allDay: z.boolean().optional(), from: timeOfDayInput.optional(), end: timeOfDayInput.optional() })
      .transform((h) => ({ ...h, from: normaliseTime(h.from, undefined), end: normaliseTime(h.end, undefined) }))
      .optional(),
    from: dateOnly.optional(),
    fromTime: timeOfDay.optional(),
    to: dateOnly.optional(),
    toTime: timeOfDay.optional(),
    isExcluded: z.boolean(),
  })
  .refine((i) => !i.from || !i.to || i.from <= i.to, combinationRule('to must not be before from', ['to']))
  .openapi('ScheduleInterval', { description: '`to` must not be before `from`' });
export type ScheduleInterval = z.output<typeof ScheduleIntervalSchema>;

/** `{intervals}`: several combine with OR, an excluded one wins over an included one; none: no restriction. */
export const ScheduleIntervalsSchema = z
  .object({ intervals: z.array(ScheduleIntervalSchema).max(200), ...windowFlags })
  .openapi('ScheduleIntervals', { description: 'Schedule interval object (spec 1)' });
export type ScheduleIntervals = z.output<typeof ScheduleIntervalsSchema>;

/** `{tags, operator}`: AND every tag, OR at least one. */
export const TagConditionSchema = z.object({ tags: z.array(tagSchema).max(100), operator: z.enum(['AND', 'OR']) }).openapi('TagCondition');
export type TagCondition = z.infer<typeof TagConditionSchema>;
