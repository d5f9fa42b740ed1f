import { z } from '@hono/zod-openapi';

/*
 * The value rules every module shares (spec 1, DECISIONS §2), each declared once so that the validator and the
 * OpenAPI document say the same thing everywhere: integer ids, Unix epoch milliseconds, calendar dates, e-mail
 * addresses and the tenant selector. The JSON form and the path/query form (a string on the wire, parsed here)
 * sit side by side. No server imports: the console imports schemas.
 */

/** The largest integer a JSON number carries exactly. Integer ids are 64-bit sequences (spec 1), far below it. */
export const MAX_INTEGER_ID = Number.MAX_SAFE_INTEGER;

/**
 * The latest instant the service takes, in epoch milliseconds: the last millisecond of year 9999. ISO-8601 and
 * PostgreSQL write four-digit years; a later instant (JavaScript's dates reach year 275760) is no timestamp
 * PostgreSQL reads back or takes as a parameter.
 */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const integerDoc = (minimum: number, maximum: number) => ({ type: 'integer', format: 'int64', minimum, maximum }) as const;

/** How the document states an integer id and an epoch-ms value given as a path or query string (for the few routes that check them in their service). */
export const INTEGER_ID_DOC = integerDoc(1, MAX_INTEGER_ID);
export const EPOCH_MS_DOC = integerDoc(0, MAX_EPOCH_MS);

/** An integer as a path or query value (digits; a leading `-` when `signed`), parsed to a number and checked by `json`. */
const digitsOf = (json: z.ZodNumber, doc: Record<string, unknown>, message: string, signed = false) =>
  z
    .string()
    .regex(signed ? /^-?\d{1,16}$/ : /^\d{1,16}$/, message)
    .transform(Number)
    .pipe(json)
    .openapi(doc);

/** An integer id (customer, campaign, message, message group, UI profile, licence order, …) in a JSON body or answer. */
export const intId = z.number().int().min(1).max(MAX_INTEGER_ID).openapi({ format: 'int64' });

/** The same id as a path or query value. */
export const intIdParam = digitsOf(intId, INTEGER_ID_DOC, 'An id: a positive integer');

/** A bounded integer as a path or query value (signed when `min` is negative). */
export const integerParam = (min: number, max: number) =>
  digitsOf(z.number().int().min(min).max(max), { type: 'integer', minimum: min, maximum: max }, min < 0 ? 'An integer' : 'A non-negative integer', min < 0);

/** An instant as Unix epoch milliseconds (DECISIONS §2: integer timestamps), in a JSON body or answer. */
export const epochMs = z.number().int().min(0).max(MAX_EPOCH_MS).openapi({ format: 'int64' });

/** The same instant as a path or query value. */
export const epochMsParam = digitsOf(epochMs, EPOCH_MS_DOC, 'Unix epoch milliseconds: a non-negative integer');

/*
 * A calendar date `yyyy-MM-dd` that exists (DECISIONS §2: date-only fields), years 0001 to 9999 as PostgreSQL and
 * the query language take them. The pattern alone says which dates exist (month lengths, leap years), so a client
 * reading the document knows that 2026-02-31 is refused.
 */
const YEAR = '(?:000[1-9]|00[1-9]\\d|0[1-9]\\d{2}|[1-9]\\d{3})';
const MONTH_AND_DAY = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const LEAP_YEAR = '(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
export const DATE_PATTERN = new RegExp(`^(?:${YEAR}-${MONTH_AND_DAY}|${LEAP_YEAR}-02-29)$`);

/** True for a calendar date written `yyyy-MM-dd` that exists (no 2026-02-30). */
export const isDateOnly = (value: string): boolean => DATE_PATTERN.test(value);

export const dateOnly = z.string().regex(DATE_PATTERN, 'A date that exists, written yyyy-MM-dd').openapi({ format: 'date', example: '2026-12-24' });

/** The e-mail syntax the service accepts (zod's), stated as the pattern too: `format: email` alone is looser. */
export const EMAIL_PATTERN = z.regexes.email;
export const EMAIL_MAX = 254;

/** An e-mail address (a user's key, a contact address). */
export const emailAddress = z
  .email({ pattern: EMAIL_PATTERN, error: 'An e-mail address' })
  .max(EMAIL_MAX)
  .openapi({ format: 'email', pattern: EMAIL_PATTERN.source, example: 'jane.doe@example.com' });

/** A user's e-mail, the key of the account: any case on the wire, compared and stored in lower case. */
export const userEmail = emailAddress.transform((value) => value.toLowerCase());

/**
 * The tenant selector `customerId` (spec 1): a customer's id; ADMIN also `-1` (every tenant, as when omitted) and
 * `null` (what belongs to no tenant, such as unclaimed devices). An empty value counts as omitted.
 */
export const customerIdSelector = z
  .preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .union([
        intIdParam,
        z.literal('-1').transform(() => -1 as const).openapi({ type: 'integer', enum: [-1] }),
        z.literal('null').transform(() => null),
      ])
      .optional(),
  )
  .openapi({
    description: 'Tenant selector (spec 1); ADMIN: -1 or omitted = all tenants, `null` = what belongs to no tenant (unclaimed devices)',
  });

/*
 * Rules between several values of one request (a type that needs a field, `from` before `to`, an either-or pair, a
 * widget naming another page): JSON Schema cannot state them for a body of this shape, so each schema words them in
 * its description and the server answers them with a key of their own, `request.error.invalidCombination`, instead
 * of `request.error.invalid` (which always means a rule the schema states). Every such rule adds its issue through
 * `combinationIssue` or refines with `combinationRule`; the validation hook (server/http/errors.ts) picks the key.
 */
export const INVALID_COMBINATION = 'request.error.invalidCombination';
const COMBINATION = { rule: 'combination' } as const;

type IssueSink = { addIssue: (issue: { code: 'custom'; path: PropertyKey[]; message: string; params: Record<string, unknown> }) => void };

/** Adds the issue of a rule between several values (in a `superRefine`). */
export function combinationIssue(ctx: IssueSink, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message, params: COMBINATION });
}

/** The options of a `.refine` that checks a rule between several values. */
export const combinationRule = (message: string, path: PropertyKey[] = []) => ({ message, path, params: COMBINATION });

/** Whether a zod issue is such a rule's. */
export const isCombinationIssue = (issue: { code?: string; params?: unknown }): boolean =>
  issue.code === 'custom' && (issue.params as { rule?: unknown } | undefined)?.rule === COMBINATION.rule;
