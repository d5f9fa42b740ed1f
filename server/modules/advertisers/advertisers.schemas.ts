import { z } from '@hono/zod-openapi';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { clearable, orNull, updateBody } from '@/server/http/update-body';
import { combinationRule, dateOnly, keyedRule, ianaTimeZone, intId, nonBlankText } from '@/server/http/wire.schemas';

// The console's advertiser form checks dates with the same rule.
export { isDateOnly } from '@/server/http/wire.schemas';

/*
 * Wire shapes of advertisers (spec 2 "Advertiser", "Advertisers"). No server imports: the console
 * imports these for its forms and types.
 */

/*
 * The cron expression of an advertiser's `validity` is checked for syntax only (spec 2 is silent on the
 * dialect): five fields (minute hour day-of-month month day-of-week) or six (seconds first, as Spring and
 * Quartz write them). Each field is a comma list of `*`, `?` (day fields only), a value or a range `a-b`,
 * each optionally stepped `/n`; months and week days also by their English three-letter names.
 */

type FieldRule = { min: number; max: number; names?: readonly string[]; question?: boolean };

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

const FIVE: readonly FieldRule[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31, question: true },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 7, names: DAYS, question: true },
];
const SIX: readonly FieldRule[] = [{ min: 0, max: 59 }, ...FIVE];

/** The longest expression accepted (a sanity cap, far above any real schedule). */
const CRON_MAX_LENGTH = 200;

export function isCronExpression(value: string): boolean {
  if (value.length > CRON_MAX_LENGTH) return false;
  const fields = value.trim().split(/\s+/);
  const rules = fields.length === 5 ? FIVE : fields.length === 6 ? SIX : undefined;
  if (!rules) return false;

  return fields.every((field, i) => field.split(',').every((part) => isPart(part, rules[i]!)));
}

function isPart(part: string, rule: FieldRule): boolean {
  const [base = '', step, ...extra] = part.split('/');
  if (extra.length > 0) return false;
  if (step !== undefined && !(/^\d{1,3}$/.test(step) && Number(step) >= 1 && Number(step) <= rule.max)) return false;
  if (base === '*') return true;
  if (base === '?') return rule.question === true && step === undefined;
  const [from = '', to, ...more] = base.split('-');
  if (more.length > 0) return false;
  const low = valueOf(from, rule);
  const high = to === undefined ? low : valueOf(to, rule);

  return low !== undefined && high !== undefined && low <= high;
}

function valueOf(token: string, rule: FieldRule): number | undefined {
  if (/^\d{1,2}$/.test(token)) {
    const n = Number(token);

    return n >= rule.min && n <= rule.max ? n : undefined;
  }
  const index = rule.names?.indexOf(token.toUpperCase() as never) ?? -1;
  if (index < 0) return undefined;

  // Names count from the field's first value (JAN = 1, SUN = 0).
  return index + rule.min;
}

/** Spec 1 "Limits": an advertiser name has at most 25 characters. */
const ADVERTISER_NAME_MAX = 25;
const ADVERTISER_COMMENT_MAX = 4_000;

export const advertiserName = nonBlankText(ADVERTISER_NAME_MAX);
export const advertiserComment = z.string().max(ADVERTISER_COMMENT_MAX);

const cronExpression = z
  .string()
  .trim()
  .max(CRON_MAX_LENGTH)
  .refine(
    isCronExpression,
    keyedRule('advertiser.error.invalidCron', 'A cron expression of 5 fields (minute hour day month weekday) or 6 (seconds first)'),
  )
  .openapi({
    pattern: '^\\s*\\S+(\\s+\\S+){4,5}\\s*$',
    description:
      'A cron expression: 5 fields (minute hour day month weekday) or 6 (seconds first), each `*`, a value, a range `a-b`, a step `/n` or a comma list; months and weekdays also by name (JAN, MON); `?` for day or weekday. The server checks each field (400 `advertiser.error.invalidCron`)',
    example: '0 8-18 * * MON-FRI',
  });

/** `fromDate` must not be after `toDate` (both yyyy-MM-dd, so the strings compare as dates). */
export function isOrderedRange(validity: { fromDate?: string | null; toDate?: string | null }): boolean {
  return !validity.fromDate || !validity.toDate || validity.fromDate <= validity.toDate;
}

export const AdvertiserValidityInputSchema = z
  .object({
    fromDate: dateOnly.nullish().openapi({ description: 'First day (yyyy-MM-dd), read in `timeZone`' }),
    toDate: dateOnly.nullish().openapi({ description: 'Last day (yyyy-MM-dd), inclusive, read in `timeZone`' }),
    cron: cronExpression.nullish(),
    timeZone: orNull(ianaTimeZone).optional(),
  })
  .refine(isOrderedRange, combinationRule('fromDate must not be after toDate', ['toDate']))
  .openapi('AdvertiserValidityInput', {
    description: 'Every member optional; null or omitted means no bound. `fromDate` not after `toDate`',
  });

const AdvertiserValiditySchema = z
  .object({ fromDate: dateOnly.optional(), toDate: dateOnly.optional(), cron: z.string().optional(), timeZone: z.string().optional() })
  .openapi('AdvertiserValidity');

export const AdvertiserCreateSchema = z
  .object({
    name: advertiserName.openapi({ description: 'Unique in the customer; 1 to 25 characters' }),
    comment: advertiserComment.nullish(),
    enabled: z.boolean().optional().openapi({ description: 'Default false' }),
    validity: orNull(AdvertiserValidityInputSchema).optional(),
    customerId: intId.optional().openapi({ description: "Ignored: the tenant is the `customerId` query parameter (or the caller's own)" }),
    proofOfPlayAccessSecretConfigured: z
      .boolean()
      .optional()
      .openapi({ description: 'Ignored: set by enableProofOfPlayLinks / disableProofOfPlayLinks' }),
  })
  .openapi('AdvertiserCreate');

export const AdvertiserUpdateSchema = updateBody('AdvertiserUpdate', {
  name: advertiserName,
  comment: clearable(advertiserComment),
  enabled: z.boolean(),
  validity: clearable(AdvertiserValidityInputSchema),
  customerId: intId.openapi({ description: 'Ignored: an advertiser stays in its customer' }),
  proofOfPlayAccessSecretConfigured: z
    .boolean()
    .openapi({ description: 'Ignored: set by enableProofOfPlayLinks / disableProofOfPlayLinks' }),
});

export type AdvertiserCreate = z.infer<typeof AdvertiserCreateSchema>;
export type AdvertiserUpdate = z.infer<typeof AdvertiserUpdateSchema>;
export type AdvertiserValidityInput = z.infer<typeof AdvertiserValidityInputSchema>;

export const AdvertiserSchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    comment: z.string().optional(),
    enabled: z.boolean().optional(),
    customerId: intId.optional(),
    validity: AdvertiserValiditySchema.optional(),
    readOnly: z.boolean().optional().openapi({ description: 'The caller sees the advertiser only through read-only team assignments' }),
    proofOfPlayAccessSecretConfigured: z.boolean().optional().openapi({ description: 'Proof-of-play links are enabled' }),
  })
  .openapi('Advertiser');

export type Advertiser = z.infer<typeof AdvertiserSchema>;

export const SimpleAdvertiserSchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    readOnly: z.boolean().optional().openapi({ description: 'With includeReadOnlyInfo=true' }),
  })
  .openapi('SimpleAdvertiser');

export type SimpleAdvertiser = z.infer<typeof SimpleAdvertiserSchema>;

export const SimpleAdvertiserListSchema = z.object({ content: z.array(SimpleAdvertiserSchema) }).openapi('SimpleAdvertiserList');

export const includeReadOnlyInfo = booleanQuery('Adds `readOnly` to each item', false);

/** Spec 2 "Proof-of-play links object". */
export const ProofOfPlayLinksSchema = z
  .object({
    exportHistoryAsCSV: z
      .string()
      .optional()
      .openapi({ format: 'uri', description: 'The public CSV export URL with its token; absent while the links are disabled' }),
    enabled: z.boolean(),
  })
  .openapi('ProofOfPlayLinks');

export type ProofOfPlayLinks = z.infer<typeof ProofOfPlayLinksSchema>;
