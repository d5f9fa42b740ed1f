import { z } from '@hono/zod-openapi';
import { MAX_EPOCH_MS } from '@/server/query/bounds.schemas';
import { TIME_ZONE_NAMES, TZ_DATABASE_VERSION } from './time-zones.schemas';

/*
 * The value rules every module shares (spec 1, DECISIONS §2), each declared once so that the validator and the
 * OpenAPI document say the same thing everywhere: integer ids, Unix epoch milliseconds, calendar dates, e-mail
 * addresses and the tenant selector. The JSON form and the path/query form (a string on the wire, parsed here)
 * sit side by side. No server imports: the console imports schemas.
 */

/** The largest integer a JSON number carries exactly. Integer ids are 64-bit sequences (spec 1), far below it. */
export const MAX_INTEGER_ID = Number.MAX_SAFE_INTEGER;

/** The latest instant the service takes (server/query/bounds.schemas.ts). */
export { MAX_EPOCH_MS };

/** The largest value of a PostgreSQL `integer` (int4) column: a count a client sets into one is at most this. */
export const MAX_INT32 = 2_147_483_647;

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
  digitsOf(
    z.number().int().min(min).max(max),
    { type: 'integer', minimum: min, maximum: max },
    min < 0 ? 'An integer' : 'A non-negative integer',
    min < 0,
  );

/** An instant as Unix epoch milliseconds (DECISIONS §2: integer timestamps), in a JSON body or answer. */
export const epochMs = z.number().int().min(0).max(MAX_EPOCH_MS).openapi({ format: 'int64' });

/** The same instant as a path or query value. */
export const epochMsParam = digitsOf(epochMs, EPOCH_MS_DOC, 'Unix epoch milliseconds: a non-negative integer');

/**
 * A UUID id (files, folders, content, devices, teams, …) in a JSON body: `format: uuid` and zod's syntax as the
 * pattern (RFC 9562 versions 1–8 and variant, the nil and max UUIDs); `format: uuid` alone is looser.
 */
export const uuid = z.string().uuid().openapi({ pattern: z.regexes.uuid().source });

/**
 * The regular expression of the decimal integers from 0 to `max` (leading zeros allowed), so that a pattern can
 * say "at most" (a resource's maxLimit, a port).
 */
export function integerUpToPattern(max: number): string {
  const digits = String(max);
  const n = digits.length;
  const alternatives = n > 1 ? [`\\d{1,${n - 1}}`] : [];
  for (let i = 0; i < n; i += 1) {
    const digit = Number(digits[i]);
    const low = i === 0 && n > 1 ? 1 : 0;
    if (digit > low) alternatives.push(`${digits.slice(0, i)}[${low}-${digit - 1}]${n - i - 1 > 0 ? `\\d{${n - i - 1}}` : ''}`);
  }
  alternatives.push(digits);

  return alternatives.join('|');
}

/** A letter in either case, spelled out for a pattern (`[pP][nN][gG]`): the document's generator writes regex flags wrongly. */
export const anyCase = (text: string) =>
  [...text].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');

/*
 * An http(s) address a screen opens (a web-page widget): the scheme in any case, a host name (labels of letters,
 * digits, `_` and `-`, the last one starting with a letter; no `xn--` label, which would have to be valid Punycode)
 * or an IPv4 address, an optional port up to 65535, then any path, query and fragment without white space. Every
 * such text is a URL the WHATWG parser (browsers, `new URL`) takes; the pattern alone is the rule, so the document
 * says exactly what is accepted. Not taken: user info, IPv6 literals, ports above 65535, white space.
 */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
// A label not starting with `xn--`, spelled without lookahead (the document's readers generate strings from patterns).
const LABEL_CHAR = '[A-Za-z0-9_-]';
const AFTER_X = `[xX](?:[A-MO-Za-mo-z0-9_-]${LABEL_CHAR}*|[nN](?:[A-Za-z0-9_]${LABEL_CHAR}*|-(?:[A-Za-z0-9_]${LABEL_CHAR}*)?)?)?`;
const LABEL = `(?:[A-WYZa-wyz0-9_-]${LABEL_CHAR}*|${AFTER_X})`;
const LAST_LABEL = `(?:[A-WYZa-wyz]${LABEL_CHAR}*|${AFTER_X})`;
export const HTTP_URL_PATTERN = `^${anyCase('http')}[sS]?://(?:(?:${OCTET}\\.){3}${OCTET}|(?:${LABEL}\\.)*${LAST_LABEL})(?::0*(?:${integerUpToPattern(65_535)}))?(?:[/?#]\\S*)?$`;
const HTTP_URL_MAX = 2_048;
export const httpUrl = z
  .string()
  .max(HTTP_URL_MAX)
  .regex(new RegExp(HTTP_URL_PATTERN), 'An http or https address')
  .openapi({ example: 'https://example.com/menu' });

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

export const dateOnly = z
  .string()
  .regex(DATE_PATTERN, 'A date that exists, written yyyy-MM-dd')
  .openapi({ format: 'date', example: '2026-12-24' });

/** The e-mail syntax the service accepts (zod's), stated as the pattern too: `format: email` alone is looser. */
export const EMAIL_PATTERN = z.regexes.email;
export const EMAIL_MAX = 254;

/** An e-mail address (a user's key, a contact address). */
export const emailAddress = z
  .email({ pattern: EMAIL_PATTERN })
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
        z
          .literal('-1')
          .transform(() => -1 as const)
          .openapi({ type: 'integer', enum: [-1] }),
        z.literal('null').transform(() => null),
      ])
      .optional(),
  )
  .openapi({
    description: 'Tenant selector (spec 1); ADMIN: -1 or omitted = all tenants, `null` = what belongs to no tenant (unclaimed devices)',
  });

/**
 * Text that must say something (a name, a serial, a location): trimmed, then 1 to `max` characters. The document
 * says it with the pattern `\S` (a character that is no white space; JavaScript's `\s` is exactly what `trim`
 * removes), so a client knows that a name of spaces alone is refused.
 */
export const NON_BLANK_PATTERN = '\\S';
export const nonBlankText = (max: number) => z.string().trim().min(1).max(max).openapi({ pattern: NON_BLANK_PATTERN });

/** The name of a resource (a customer, a user, content, a campaign, a folder, …): 1 to 255 characters, not only spaces, kept trimmed. */
export const resourceName = nonBlankText(255);

/*
 * A time zone: a name of the IANA tz database, spelled exactly (zones and their links, such as `Europe/Berlin`,
 * `Asia/Kolkata` and `Asia/Calcutta`, `UTC`, `Etc/GMT+5`). The document lists them in one component, `TimeZone`,
 * that every use names by `$ref`. Offsets (`+01:00`), abbreviations Intl alone takes (`IST`) and other spellings
 * (`europe/berlin`) are refused: a zone must follow its DST rules, and a client must know what it may send.
 */
const timeZoneSet = new Set(TIME_ZONE_NAMES);

/** True for a time zone name the service accepts. */
export const isIanaTimeZone = (value: string): boolean => timeZoneSet.has(value);

export const ianaTimeZone = z.enum(TIME_ZONE_NAMES as [string, ...string[]]).openapi('TimeZone', {
  description: `An IANA time zone (tz database ${TZ_DATABASE_VERSION}: zones and their links), spelled exactly`,
  example: 'Europe/Berlin',
});

/*
 * Rules between several values of one request (a type that needs a field, `from` before `to`, an either-or pair, a
 * widget naming another page): JSON Schema cannot state them for a body of this shape, so each schema words them in
 * its description and the server answers them with a key of their own, `request.error.invalidCombination`, instead
 * of `request.error.invalid` (which always means a rule the schema states). Every such rule adds its issue through
 * `combinationIssue` or refines with `combinationRule`; the validation hook (server/http/errors.ts) picks the key.
 * A small language the server checks (a cron expression) is the same kind of rule: `keyedRule` gives it its key.
 */
export const INVALID_COMBINATION = 'request.error.invalidCombination';
const RULE_KEY = 'ruleKey';

type IssueSink = { addIssue: (issue: { code: 'custom'; path: PropertyKey[]; message: string; params: Record<string, unknown> }) => void };

/** The options of a `.refine` whose failure answers `key` (when it is the request's only kind of issue). */
export const keyedRule = (key: string, message: string, path: PropertyKey[] = []) => ({ message, path, params: { [RULE_KEY]: key } });

/** Adds the issue of a rule between several values (in a `superRefine`). */
export function combinationIssue(ctx: IssueSink, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message, params: { [RULE_KEY]: INVALID_COMBINATION } });
}

/** The options of a `.refine` that checks a rule between several values. */
export const combinationRule = (message: string, path: PropertyKey[] = []) => keyedRule(INVALID_COMBINATION, message, path);

/** The key of a keyed rule's issue (undefined for any rule the schema states). */
export const ruleKeyOf = (issue: { code?: string; params?: unknown }): string | undefined => {
  const key = issue.code === 'custom' ? (issue.params as Record<string, unknown> | undefined)?.[RULE_KEY] : undefined;

  return typeof key === 'string' ? key : undefined;
};

/*
 * The service's words for the shared formats above. They are the fallback (zod's global map), not the schemas'
 * own: a schema's own message outranks the error map a caller passes when it parses, so it would also beat a
 * console form's words in the user's language (lib/forms/form-messages.ts). zod's own words for the time zone
 * would list every zone.
 */
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_format' && issue.format === 'email') return 'An e-mail address';
    // By its values: a use may derive a copy of the schema (`.openapi({ description })`).
    if (issue.code === 'invalid_value' && issue.values.length === TIME_ZONE_NAMES.length && issue.values.includes('Europe/Berlin'))
      return 'An IANA time zone such as Europe/Berlin';

    return undefined;
  },
});
