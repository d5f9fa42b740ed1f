import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { parseSort, SORT_VALUE_PATTERN } from '@/server/query/sort';
import { SELECT_TEAM_IDS_PATTERN, TEAM_IDS_PATTERN } from '@/server/modules/teams/teams.schemas';
import { parseSelectTeamIds } from '@/server/modules/teams/team-visibility';
import { parseTeamIdsParam } from '@/server/modules/teams/team-assignments';
import { tagCsvParam, tagSchema } from '@/server/modules/tags/tags.schemas';
import { isValidTag } from '@/server/modules/tags/tags.rules';
import { assertSupportedName } from '@/server/modules/uploads/uploads.rules';
import { SUPPORTED_FILE_NAME_PATTERN } from '@/server/modules/uploads/uploads.schemas';
import { configValuePattern } from '@/server/modules/resource-limits/resource-limits.schemas';
import { reportSortFields } from '@/server/modules/proof-of-play/reports.schemas';
import { sortValuePattern } from '@/server/query/sort';
import { TIME_ZONE_NAMES } from './time-zones.schemas';
import {
  customerIdSelector,
  DATE_PATTERN,
  dateOnly,
  emailAddress,
  epochMs,
  epochMsParam,
  HTTP_URL_PATTERN,
  httpUrl,
  ianaTimeZone,
  integerParam,
  integerUpToPattern,
  intId,
  intIdParam,
  isIanaTimeZone,
  MAX_EPOCH_MS,
  MAX_INTEGER_ID,
  NON_BLANK_PATTERN,
  nonBlankText,
  resourceName,
  userEmail,
} from './wire.schemas';
import { clearable, nullsDropped, updateBody } from './update-body';

/*
 * The shared value rules (issue 27 §3.3): what each accepts and refuses. The document side (what
 * /api/openapi.json says of them) is checked in wire.schemas.api.test.ts.
 */

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;
/** Whether `run` returns rather than throws. */
const succeeds = (run: () => unknown) => {
  try {
    run();

    return true;
  } catch {
    return false;
  }
};

describe('integer ids', () => {
  it('are positive safe integers in JSON', () => {
    for (const ok of [1, 42, MAX_INTEGER_ID]) expect(accepts(intId, ok), String(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, MAX_INTEGER_ID + 1, '5', null]) expect(accepts(intId, bad), String(bad)).toBe(false);
  });

  it('are digits in a path or query, parsed to numbers', () => {
    expect(intIdParam.parse('42')).toBe(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '', ' 1', '1e3', '99999999999999999']) expect(accepts(intIdParam, bad), bad).toBe(false);
  });
});

describe('the tenant selector', () => {
  it('takes an id, -1, null or nothing (an empty value counts as none)', () => {
    expect(customerIdSelector.parse('7')).toBe(7);
    expect(customerIdSelector.parse('-1')).toBe(-1);
    expect(customerIdSelector.parse('null')).toBeNull();
    expect(customerIdSelector.parse('')).toBeUndefined();
    expect(customerIdSelector.parse(undefined)).toBeUndefined();
    for (const bad of ['0', '-2', 'abc', 'NULL', ' 7']) expect(accepts(customerIdSelector, bad), bad).toBe(false);
  });
});

describe('epoch milliseconds', () => {
  it('are integers from 0 to the latest date JavaScript holds', () => {
    for (const ok of [0, Date.UTC(2026, 0, 1), MAX_EPOCH_MS]) expect(accepts(epochMs, ok)).toBe(true);
    for (const bad of [-1, 0.5, MAX_EPOCH_MS + 1]) expect(accepts(epochMs, bad), String(bad)).toBe(false);
    expect(epochMsParam.parse('1767225600000')).toBe(1_767_225_600_000);
    for (const bad of ['-1', '1.5', 'now', '9999999999999999']) expect(accepts(epochMsParam, bad), bad).toBe(false);
  });
});

describe('bounded integers in a query', () => {
  it('hold their range', () => {
    const rotation = integerParam(60, 604_800);
    expect(rotation.parse('60')).toBe(60);
    for (const bad of ['59', '604801', '-60', '6e1']) expect(accepts(rotation, bad), bad).toBe(false);
    expect(integerParam(-5, 5).parse('-5')).toBe(-5);
  });
});

describe('calendar dates', () => {
  it('refuse dates that do not exist, and years outside 0001–9999', () => {
    for (const ok of ['2026-12-24', '2028-02-29', '2000-02-29', '0001-01-01', '9999-12-31', '0004-02-29'])
      expect(accepts(dateOnly, ok), ok).toBe(true);
    for (const bad of [
      '2026-02-31',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '0000-01-01',
      '2026-13-01',
      '2026-1-01',
      '20261-01-01',
      '2026-12-24T00:00:00Z',
    ]) {
      expect(accepts(dateOnly, bad), bad).toBe(false);
    }
  });

  it('accept exactly the days a calendar has (the pattern alone says so)', () => {
    const day = fc.record({ y: fc.integer({ min: 0, max: 9999 }), m: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }) });
    fc.assert(
      fc.property(day, ({ y, m, d }) => {
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        let exists = y >= 1 && m >= 1 && m <= 12 && d >= 1;
        if (exists) exists = d <= Temporal.PlainYearMonth.from({ year: y, month: m }).daysInMonth;
        expect(DATE_PATTERN.test(text), text).toBe(exists);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('e-mail addresses', () => {
  it('take the syntax the pattern states; a user e-mail is kept in lower case', () => {
    expect(accepts(emailAddress, 'jane.doe@example.com')).toBe(true);
    for (const bad of ['jane', 'jane@', ' jane@example.com', 'a!b@example.com', `${'a'.repeat(250)}@example.com`])
      expect(accepts(emailAddress, bad), bad).toBe(false);
    expect(userEmail.parse('Jane.Doe@Example.COM')).toBe('jane.doe@example.com');
  });
});

describe('tags', () => {
  it('follow spec 3 syntax in the schema exactly as the tag rules do', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', 'ä', '1', '_', '#', '.', '"', '-', ' ', ',', '\u0301', '٣', '!', '\t'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(text, (tag) => {
        expect(accepts(tagSchema, tag), JSON.stringify(tag)).toBe(isValidTag(tag));
      }),
      { numRuns: 2000 },
    );
  });

  it('as one query value: comma-separated, spaces around each, empty entries skipped', () => {
    for (const ok of ['', 'lobby', 'lobby, entrance', ' a ,, b ', 'größe,#1']) expect(accepts(tagCsvParam, ok), ok).toBe(true);
    for (const bad of ['-lobby', 'a b', 'lobby,-x', 'a;b']) expect(accepts(tagCsvParam, bad), bad).toBe(false);
  });
});

describe('sort', () => {
  const parses = (value: string) => {
    try {
      parseSort(value);

      return true;
    } catch {
      return false;
    }
  };

  it('the pattern of the document accepts exactly the syntax the parser takes', () => {
    const pattern = new RegExp(SORT_VALUE_PATTERN);
    const part = fc.constantFrom('name', 'a', '_x1', 'content', '.', ',', 'asc', 'DESC', 'Desc', 'up', ' ', '1a', '', 'b.c');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const value = parts.join('');
        expect(pattern.test(value), JSON.stringify(value)).toBe(parses(value));
      }),
      {
        numRuns: 3000,
      },
    );
    for (const value of ['name', 'name,desc', ' content.name , ASC ', '', 'a.b.c.d.e.f.g.h']) expect(pattern.test(value), value).toBe(true);
    for (const value of ['name,up', 'name,asc,x', ',asc', 'a.b.c.d.e.f.g.h.i', 'na me']) expect(pattern.test(value), value).toBe(false);
  });
});

describe('team id lists in a query', () => {
  const uuid = '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11';

  it('state in their patterns what the parsers take', () => {
    const samples = [
      '',
      ' ',
      uuid,
      `${uuid}:true`,
      ` ${uuid}:false , ${uuid} `,
      `${uuid}:yes`,
      `${uuid},`,
      `,${uuid}`,
      'abc',
      `${uuid}:true:false`,
      `${uuid.toUpperCase()}`,
    ];
    for (const value of samples) {
      expect(TEAM_IDS_PATTERN.test(value), `teamIds ${value}`).toBe(succeeds(() => parseTeamIdsParam(value)));
      expect(SELECT_TEAM_IDS_PATTERN.test(value), `selectTeamIds ${value}`).toBe(succeeds(() => parseSelectTeamIds(value)));
    }
  });
});

describe('update bodies', () => {
  const body = updateBody('WireTestUpdate', {
    name: z.string().min(1).max(5),
    comment: clearable(z.string().max(10)),
    limits: z.object({ n: z.number() }),
  });

  it('take null for every attribute and keep it out of the parsed value', () => {
    expect(body.parse({ name: null, comment: null, limits: null })).toEqual({});
    expect(body.parse({ comment: '' })).toEqual({ comment: null });
    expect(body.safeParse({ name: 'toolong' }).success).toBe(false);
  });

  it('declare null beside each attribute without changing what it takes otherwise', () => {
    const shape = nullsDropped({ n: z.number().int() });
    expect(shape.n.safeParse(null).success).toBe(true);
    expect(shape.n.safeParse(1.5).success).toBe(false);
  });
});

describe('time zones', () => {
  it('accept exactly the names the document lists, each one this runtime can compute with', () => {
    for (const zone of TIME_ZONE_NAMES) {
      expect(accepts(ianaTimeZone, zone), zone).toBe(true);
      expect(isIanaTimeZone(zone)).toBe(true);
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone }), zone).not.toThrow();
      expect(() => Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(zone), zone).not.toThrow();
    }
    for (const zone of ['Europe/Berlin', 'Asia/Kolkata', 'Asia/Calcutta', 'UTC', 'Etc/GMT+5', 'US/Eastern'])
      expect(TIME_ZONE_NAMES, zone).toContain(zone);
  });

  it('refuse offsets, abbreviations Intl alone takes, other spellings and unknown names', () => {
    for (const zone of ['+01:00', 'IST', 'europe/berlin', 'Europe/Berlin ', '', 'Factory', 'Mars/Olympus', 'Europe/../etc']) {
      expect(accepts(ianaTimeZone, zone), zone).toBe(false);
      expect(isIanaTimeZone(zone), zone).toBe(false);
    }
  });
});

describe('names and other text that must say something', () => {
  it('are refused exactly when the pattern \\S does not match (only white space) or they are too long once trimmed', () => {
    const pattern = new RegExp(NON_BLANK_PATTERN);
    const text = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\u3000', 'a', 'é', '#'), maxLength: 8 });
    fc.assert(
      fc.property(text, (value) => {
        expect(accepts(nonBlankText(5), value), JSON.stringify(value)).toBe(pattern.test(value) && value.trim().length <= 5);
      }),
      { numRuns: 2000 },
    );
    expect(resourceName.parse('  Lobby ')).toBe('Lobby');
  });
});

describe('integers up to a maximum, as a pattern', () => {
  it('match exactly the decimal integers from 0 to the maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 20_000_000 }), (max, n) => {
        expect(new RegExp(`^(?:${integerUpToPattern(max)})$`).test(String(n)), `${n} <= ${max}`).toBe(n <= max);
      }),
      { numRuns: 3000 },
    );
  });

  it('state the limit values the service takes for each maximum', () => {
    for (const max of [1_000, 10_000, 100_000]) {
      const pattern = new RegExp(configValuePattern(max));
      for (const ok of ['0', String(max), ' 25 ', '007']) expect(pattern.test(ok), ok).toBe(true);
      for (const bad of [String(max + 1), '-1', '1.5', 'ten', '', '1 2']) expect(pattern.test(bad), bad).toBe(false);
    }
  });
});

describe('web addresses', () => {
  it('every text the pattern takes is an http(s) URL the WHATWG parser takes', () => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(HTTP_URL_PATTERN), { size: 'small' }), (value) => {
        expect(accepts(httpUrl, value) || value.length > 2_048, value).toBe(true);
        expect(['http:', 'https:'], value).toContain(new URL(value).protocol);
      }),
      { numRuns: 2000 },
    );
  });

  it('take common addresses and refuse what the pattern does not say', () => {
    for (const ok of [
      'https://example.com',
      'HTTP://Example.COM:8080/a b?c#d'.replace(' ', '%20'),
      'http://10.0.0.1/menu',
      'http://localhost:3000/',
    ])
      expect(accepts(httpUrl, ok), ok).toBe(true);
    for (const bad of [
      'ftp://example.com',
      'http://',
      'http://8^ >#DHO(',
      'http://1.2.3.999',
      'http://a.123',
      'http://xn--a.com',
      'http://a:65536',
      'http://user@host',
      'http://[::1]/',
    ]) {
      expect(accepts(httpUrl, bad), bad).toBe(false);
    }
  });
});

describe('upload file names', () => {
  it('the pattern of the document takes exactly the names the upload takes', () => {
    const pattern = new RegExp(SUPPORTED_FILE_NAME_PATTERN);
    const part = fc.constantFrom('a', 'poster', '.', 'png', 'PnG', 'jpeg', 'woff2', 'exe', '/', '\\', ' ', 'mp4', 'ſ', 'K');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const name = parts.join('');
        expect(pattern.test(name) && name.length >= 1 && name.length <= 255, JSON.stringify(name)).toBe(
          succeeds(() => assertSupportedName(name)),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('report sort', () => {
  it('the pattern of the report routes takes exactly the row fields and directions the reports sort by', () => {
    const pattern = new RegExp(sortValuePattern(reportSortFields));
    for (const ok of ['name', 'duration,DESC', ' timestamp , asc ', '']) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['name,up', 'nope', 'name.x', 'name,asc,x', 'yg,¯%Tc#$']) expect(pattern.test(bad), bad).toBe(false);
  });
});
