import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  LimitReachedError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '@/server/errors';
import { z } from '@hono/zod-openapi';
import { toErrorBody, validationErrorBody } from './errors';
import { AdvertiserValidityInputSchema } from '@/server/modules/advertisers/advertisers.schemas';
import { CampaignCreateSchema } from '@/server/modules/campaigns/campaigns.schemas';
import { PlaylistData, SlideDocument } from '@/server/modules/content/content-data.schemas';
import { ContentCreateSchema } from '@/server/modules/content/content.schemas';
import { AssignToCustomerSchema } from '@/server/modules/display/display.schemas';
import { MessageCreateSchema } from '@/server/modules/messages/messages.schemas';
import { CampaignHoursSchema, ScheduleIntervalSchema, WorkingTimeSchema } from '@/server/playback/schedule-rules.schemas';
import { combinationIssue, combinationRule, keyedRule } from './wire.schemas';

describe('toErrorBody', () => {
  it('maps an unknown error to 500 server.error.internal without its message or stack', () => {
    const err = new Error('secret detail: select * from app_user');
    const { body, headers } = toErrorBody(err);
    expect(body).toEqual({ status: 500, key: 'server.error.internal', message: 'Internal server error' });
    expect(headers).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('maps non-Error throwables to 500 too', () => {
    for (const value of ['boom', 42, null, undefined, { message: 'secret' }]) {
      expect(toErrorBody(value).body).toEqual({ status: 500, key: 'server.error.internal', message: 'Internal server error' });
    }
  });

  it('maps a unique violation wrapped by drizzle (cause) to 409, naming the constraint only', () => {
    const pg = Object.assign(new Error('duplicate key value violates unique constraint "customer_name_key"'), {
      code: '23505',
      constraint: 'customer_name_key',
      detail: 'Key (name)=(Secret Corp) already exists.',
    });
    const wrapped = new Error('Failed query: insert into "customer" ("name") values ($1)', { cause: pg });
    const { body } = toErrorBody(wrapped);
    expect(body).toMatchObject({ status: 409, key: 'request.error.duplicate', details: { constraint: 'customer_name_key' } });
    expect(JSON.stringify(body)).not.toMatch(/Secret Corp|insert into/);
  });

  it('maps a bare unique violation (fake {code}) and one nested twice', () => {
    expect(toErrorBody({ code: '23505' }).body.status).toBe(409);
    expect(toErrorBody({ cause: { code: '23505' } }).body).toMatchObject({ status: 409, key: 'request.error.duplicate' });
    expect(toErrorBody(new Error('a', { cause: new Error('b', { cause: { code: '23505' } }) })).body.status).toBe(409);
  });

  it('maps a foreign-key violation to 409 and invalid text representations to 400', () => {
    expect(toErrorBody({ cause: { code: '23503' } }).body).toMatchObject({ status: 409, key: 'request.error.referenced' });
    expect(toErrorBody({ cause: { code: '22P02' } }).body).toMatchObject({ status: 400, key: 'request.error.invalidValue' });
  });

  it('maps every data exception (class 22) to 400: a timestamp whose year has six digits is one (22009)', () => {
    for (const code of ['22009', '22001', '22021', '22023'])
      expect(toErrorBody({ cause: { code } }).body).toMatchObject({ status: 400, key: 'request.error.invalidValue' });
  });

  it('does not treat arbitrary `code` values (e.g. Node errno strings) as PostgreSQL errors', () => {
    expect(toErrorBody(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).body.status).toBe(500);
    expect(toErrorBody({ cause: { code: '08006' } }).body.status).toBe(500);
  });

  it('passes typed application errors through with key, message, details and headers', () => {
    expect(toErrorBody(new ConflictError('customer.error.nameExists', 'exists', { name: 'x' })).body).toEqual({
      status: 409,
      key: 'customer.error.nameExists',
      message: 'exists',
      details: { name: 'x' },
    });
    expect(toErrorBody(new NotFoundError('file', 'abc')).body).toEqual({
      status: 404,
      key: 'file.error.notFound',
      message: 'No file with id abc',
    });
    expect(toErrorBody(new ForbiddenError()).body.status).toBe(403);
    expect(toErrorBody(new ValidationError('search.error.syntax', 'bad', { position: 3 })).body.details).toEqual({ position: 3 });
    const unauthorized = toErrorBody(new UnauthorizedError());
    expect(unauthorized.body.status).toBe(401);
    expect(unauthorized.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(toErrorBody(new TooManyRequestsError(30)).headers).toEqual({ 'Retry-After': '30' });
  });

  it('keeps the spec shape of the resource-limit error', () => {
    expect(toErrorBody(new LimitReachedError('device', 5, 5)).body).toMatchObject({
      status: 400,
      key: 'resourceLimit.error.limitReached',
      details: { resource: 'device', used: 5, limit: 5 },
    });
  });

  it('maps Hono HTTP exceptions by status', () => {
    expect(toErrorBody(new HTTPException(400, { message: 'Malformed JSON in request body' })).body).toEqual({
      status: 400,
      key: 'request.error.invalid',
      message: 'Malformed JSON in request body',
    });
    expect(toErrorBody(new HTTPException(413)).body.key).toBe('request.error.payloadTooLarge');
    expect(toErrorBody(new HTTPException(415)).body.key).toBe('request.error.unsupportedMediaType');
  });
});

describe('validationErrorBody', () => {
  const Range = z.object({ from: z.number().int(), to: z.number().int() }).superRefine((r, ctx) => {
    if (r.to < r.from) combinationIssue(ctx, ['to'], 'to must not be before from');
  });

  it('answers a rule between values with its own key, and any rule the schema states as request.error.invalid', () => {
    const combination = Range.safeParse({ from: 2, to: 1 });
    expect(combination.success).toBe(false);
    expect(validationErrorBody(combination.error!, 'json')).toMatchObject({
      status: 400,
      key: 'request.error.invalidCombination',
      details: { issues: [{ path: 'to', message: 'to must not be before from' }] },
    });
    const shape = Range.safeParse({ from: 'x', to: 1 });
    expect(validationErrorBody(shape.error!, 'json').key).toBe('request.error.invalid');
    const refined = z
      .object({ a: z.number(), b: z.number() })
      .refine((v) => v.a < v.b, combinationRule('a before b', ['b']))
      .safeParse({ a: 2, b: 1 });
    expect(validationErrorBody(refined.error!, 'json').key).toBe('request.error.invalidCombination');
    // A language the server checks answers its own key; mixed with an issue the schema states, the schema's key.
    const cron = z.object({
      cron: z.string().refine((v) => v.split(' ').length === 5, keyedRule('advertiser.error.invalidCron', 'five fields')),
      n: z.number(),
    });
    expect(validationErrorBody(cron.safeParse({ cron: 'x', n: 1 }).error!, 'json').key).toBe('advertiser.error.invalidCron');
    expect(validationErrorBody(cron.safeParse({ cron: 'x', n: 'y' }).error!, 'json').key).toBe('request.error.invalid');
    // Two keyed rules broken at once: the first one's key, both issues in the details.
    const both = z.object({ cron: cron.shape.cron, range: Range }).safeParse({ cron: 'x', range: { from: 2, to: 1 } });
    expect(validationErrorBody(both.error!, 'json')).toMatchObject({
      key: 'advertiser.error.invalidCron',
      details: { issues: [{ path: 'cron' }, { path: 'range.to' }] },
    });
    // A plain refine of one value states no relation: still the schema's key.
    expect(
      validationErrorBody(
        z
          .string()
          .refine((s) => s === 'x', 'only x')
          .safeParse('y').error!,
      ).key,
    ).toBe('request.error.invalid');
  });
});

describe('rules between several values, module by module', () => {
  const page = { pageData: { screenSize: { width: 1920, height: 1080 } } };
  const button = (id: string, target: string) => ({
    id,
    type: 'text',
    text: 't',
    x: 0,
    y: 0,
    width: 10,
    height: 10,
    zIndex: 0,
    action: { type: 'GO_TO_PAGE', page: target },
  });
  const slide = { key: 'a', type: 'CONTENT', id: '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11' };
  const loopData = { resolution: { width: 1920, height: 1080 } };
  const cases: [string, z.ZodType, unknown][] = [
    [
      'a campaign type without the field it needs',
      CampaignCreateSchema,
      { name: 'x', level: 'WIDGET', type: 'CONTENT_QUICK_FILTER', version: '2.0', orderingMode: 'DEFAULT', contentShuffleMode: 'SERIAL' },
    ],
    [
      'a schedule of another type',
      CampaignCreateSchema,
      {
        name: 'x',
        level: 'TOP',
        type: 'CONTENT_DYNAMIC',
        version: '2.0',
        orderingMode: 'DEFAULT',
        contentShuffleMode: 'SERIAL',
        contentGroupAssignment: { assignments: [{ contentGroupId: slide.id }] },
        affectedDateRanges: { intervals: [] },
      },
    ],
    [
      'a message validTo before validFrom',
      MessageCreateSchema,
      {
        name: 'x',
        messageGroupId: 1,
        type: 'CONTENT',
        version: '2.0',
        contentId: slide.id,
        validFrom: '2026-02-01',
        validTo: '2026-01-01',
      },
    ],
    ['a schedule interval to before from', ScheduleIntervalSchema, { from: '2026-02-01', to: '2026-01-01', isExcluded: false }],
    ['a bounded window without end', CampaignHoursSchema, { allDay: false, from: '08:00' }],
    ['a working time end before from', WorkingTimeSchema, { allDay: false, from: '18:00', end: '08:00', timeZone: 'UTC' }],
    ['an advertiser toDate before fromDate', AdvertiserValidityInputSchema, { fromDate: '2026-12-31', toDate: '2026-12-01' }],
    [
      'a claim with both activationCode and serial',
      AssignToCustomerSchema,
      { activationCode: '1234', serial: 's', deviceName: 'd', licenseStatus: 'UN_LICENSED', timeZone: 'UTC' },
    ],
    [
      'an UN_LICENSED claim with an order',
      AssignToCustomerSchema,
      { serial: 's', deviceName: 'd', licenseStatus: 'UN_LICENSED', licenseOrderId: 1, timeZone: 'UTC' },
    ],
    ['a widget naming a page the document lacks', SlideDocument, { Welcome: { ...page, widgets: [button('b', 'Menu')] } }],
    [
      'two widgets of one page with one id',
      SlideDocument,
      { Welcome: { ...page, widgets: [button('b', 'Welcome'), button('b', 'Welcome')] } },
    ],
    ['a slide with two pages', ContentCreateSchema, { name: 'x', structureType: 'SLIDE', data: { A: page, B: page } }],
    ['a playlist slide validTo before validFrom', PlaylistData, { loopData, slides: [{ ...slide, validFrom: 2, validTo: 1 }] }],
    ['two playlist slides with one key', PlaylistData, { loopData, slides: [slide, slide] }],
  ];

  it.each(cases)('%s: request.error.invalidCombination', (_name, schema, value) => {
    const parsed = schema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(validationErrorBody(parsed.error!, 'json')).toMatchObject({ status: 400, key: 'request.error.invalidCombination' });
  });
});
