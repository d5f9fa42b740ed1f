import { describe, expect, it } from 'vitest';
import { at, campaign, device, file, FOLDER, group, message } from './fixtures.test-kit';
import { explain } from './resolver';
import type { CampaignRules, DeviceFacts, ReasonCode } from './types';

// Wednesday 2026-06-10, 12:00 in Berlin (CEST)
const NOON = at('2026-06-10T10:00:00Z');
const berlin = (iso: string) => at(`${iso}+02:00`);

type Case = [name: string, rules: Partial<CampaignRules>, reasons: ReasonCode[], when?: number, facts?: Partial<DeviceFacts>];

const cases: Case[] = [
  ['everything holds', {}, []],
  ['disabled', { enabled: false }, ['DISABLED']],
  ['STATIC, device assigned', { deviceSelectionMode: 'STATIC', deviceIds: [device().id] }, []],
  ['STATIC, device not assigned', { deviceSelectionMode: 'STATIC', deviceIds: ['x'] }, ['NOT_TARGETED']],
  ['DYNAMIC, the device folder', { deviceGroupIds: [FOLDER] }, []],
  ['DYNAMIC, another folder', { deviceGroupIds: ['elsewhere'] }, ['NOT_TARGETED']],
  ['DYNAMIC, AND tags hold', { deviceTagCondition: { tags: ['a', 'b'], operator: 'AND' } }, [], NOON, { tags: ['a', 'b', 'c'] }],
  ['DYNAMIC, AND tags fail', { deviceTagCondition: { tags: ['a', 'b'], operator: 'AND' } }, ['NOT_TARGETED'], NOON, { tags: ['a'] }],
  ['DYNAMIC, OR tags hold', { deviceTagCondition: { tags: ['a', 'b'], operator: 'OR' } }, [], NOON, { tags: ['b'] }],
  ['DYNAMIC, OR tags fail', { deviceTagCondition: { tags: ['a', 'b'], operator: 'OR' } }, ['NOT_TARGETED'], NOON, { tags: ['c'] }],
  ['DYNAMIC, team member', { teamIds: ['t1', 't2'] }, [], NOON, { teamIds: ['t2'] }],
  ['DYNAMIC, not a team member', { teamIds: ['t1'] }, ['NOT_TARGETED'], NOON, { teamIds: ['t2'] }],
  ['QUICK_FILTER matched', { deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: 'q1' }, [], NOON, { quickFilterIds: ['q1'] }],
  ['QUICK_FILTER not matched', { deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: 'q1' }, ['NOT_TARGETED']],
  ['validFrom tomorrow', { validFrom: '2026-06-11' }, ['NOT_VALID_YET']],
  ['validTo yesterday', { validTo: '2026-06-09' }, ['EXPIRED']],
  ['validFrom and validTo today', { validFrom: '2026-06-10', validTo: '2026-06-10' }, []],
  [
    'validFrom read in the device zone (00:30 Berlin is 22:30 UTC the day before)',
    { validFrom: '2026-06-10' },
    [],
    berlin('2026-06-10T00:30'),
  ],
  ['validFrom in another device zone', { validFrom: '2026-06-10' }, ['NOT_VALID_YET'], berlin('2026-06-10T00:30'), { timeZone: 'UTC' }],
  ['a day left out', { affectedDays: { monday: true, tuesday: true, thursday: true } }, ['OUTSIDE_HOURS']],
  ['inside hours', { affectedHours: { allDay: false, from: '12:00', end: '13:00' } }, []],
  ['at the end of hours (half-open)', { affectedHours: { allDay: false, from: '11:00', end: '12:00' } }, ['OUTSIDE_HOURS']],
  [
    '23:59 runs to the end of the day',
    { affectedHours: { allDay: false, from: '20:00', end: '23:59' } },
    [],
    berlin('2026-06-10T23:59:30'),
  ],
  [
    'hours in their own zone (12:00 Berlin = 06:00 New York)',
    { affectedHours: { allDay: false, from: '06:00', end: '07:00', timeZone: 'America/New_York' } },
    [],
  ],
  [
    'across midnight, after midnight belongs to the starting day',
    { affectedDays: { tuesday: true }, affectedHours: { allDay: false, from: '22:00', end: '02:00' } },
    [],
    berlin('2026-06-10T01:00'),
  ],
  [
    'across midnight, the starting day is checked',
    { affectedDays: { tuesday: true }, affectedHours: { allDay: false, from: '22:00', end: '02:00' } },
    ['OUTSIDE_HOURS'],
    berlin('2026-06-10T23:00'),
  ],
  [
    'across midnight without day-of-week overflow',
    { affectedDays: { tuesday: true }, affectedHours: { allDay: false, from: '22:00', end: '02:00', allowDayOfWeekOverflow: false } },
    ['OUTSIDE_HOURS'],
    berlin('2026-06-10T01:00'),
  ],
  [
    'a partial starting window plays by default',
    { validFrom: '2026-06-10', affectedHours: { allDay: false, from: '22:00', end: '02:00' } },
    [],
    berlin('2026-06-10T00:30'),
  ],
  [
    'no partial starting window',
    { validFrom: '2026-06-10', affectedHours: { allDay: false, from: '22:00', end: '02:00', allowPartialStartingSegment: false } },
    ['OUTSIDE_HOURS'],
    berlin('2026-06-10T00:30'),
  ],
  [
    'a partial ending window plays until validTo ends',
    { validTo: '2026-06-10', affectedHours: { allDay: false, from: '22:00', end: '02:00' } },
    [],
    berlin('2026-06-10T23:00'),
  ],
  [
    'no partial ending window',
    { validTo: '2026-06-10', affectedHours: { allDay: false, from: '22:00', end: '02:00', allowPartialEndingSegment: false } },
    ['OUTSIDE_HOURS'],
    berlin('2026-06-10T23:00'),
  ],
  [
    'after validTo',
    { validTo: '2026-06-10', affectedHours: { allDay: false, from: '22:00', end: '02:00' } },
    ['EXPIRED'],
    berlin('2026-06-11T01:00'),
  ],
  ['inside an included range', { affectedDateRanges: { intervals: [{ from: '2026-06-01', to: '2026-06-30', isExcluded: false }] } }, []],
  [
    'outside every included range',
    {
      affectedDateRanges: {
        intervals: [
          { from: '2026-07-01', isExcluded: false },
          { to: '2026-06-09', isExcluded: false },
        ],
      },
    },
    ['OUTSIDE_DATE_RANGES'],
  ],
  [
    'included range starts at fromTime',
    { affectedDateRanges: { intervals: [{ from: '2026-06-10', fromTime: '12:30', isExcluded: false }] } },
    ['OUTSIDE_DATE_RANGES'],
  ],
  [
    'included range with its own days and hours',
    {
      affectedDateRanges: {
        intervals: [
          { affectedDays: { wednesday: true }, affectedHours: { allDay: false, from: '11:00', end: '13:00' }, isExcluded: false },
        ],
      },
    },
    [],
  ],
  [
    'inside an excluded range',
    { affectedDateRanges: { intervals: [{ from: '2026-06-10', to: '2026-06-10', isExcluded: true }] } },
    ['EXCLUDED_RANGE'],
  ],
  [
    'excluded wins over included',
    {
      affectedDateRanges: {
        intervals: [{ isExcluded: false }, { affectedHours: { allDay: false, from: '11:00', end: '13:00' }, isExcluded: true }],
      },
    },
    ['EXCLUDED_RANGE'],
  ],
  ['only excluded ranges restrict nothing else', { affectedDateRanges: { intervals: [{ from: '2026-07-01', isExcluded: true }] } }, []],
  [
    'no partial starting window in a range',
    {
      affectedDateRanges: {
        allowPartialStartingSegment: false,
        intervals: [{ from: '2026-06-10', affectedHours: { allDay: false, from: '22:00', end: '02:00' }, isExcluded: false }],
      },
    },
    ['OUTSIDE_DATE_RANGES'],
    berlin('2026-06-10T00:30'),
  ],
  ['no files', { files: [] }, ['NO_PLAYABLE_ITEMS']],
  ['only an expired file', { files: [file(1, { validTo: NOON - 1 })] }, ['NO_PLAYABLE_ITEMS']],
  [
    'skipInvalidFiles: a file no player renders is not playable',
    { skipInvalidFiles: true, files: [file(1, { kind: 'other', name: 'brochure.pdf' })] },
    ['NO_PLAYABLE_ITEMS'],
  ],
  ['without skipInvalidFiles the same file plays', { files: [file(1, { kind: 'other', name: 'brochure.pdf' })] }, []],
  ['a file valid up to and including now', { files: [file(1, { validFrom: NOON, validTo: NOON })] }, []],
  ['content exists', { files: [], contents: [{ id: 'b1', name: 'c', deviceContentType: 'content', pageCount: 1, weight: 0 }] }, []],
  [
    'every failing reason at once',
    {
      enabled: false,
      deviceGroupIds: [],
      validTo: '2026-06-09',
      affectedHours: { allDay: false, from: '01:00', end: '02:00' },
      affectedDateRanges: { intervals: [{ from: '2026-07-01', isExcluded: false }, { isExcluded: true }] },
      files: [],
    },
    ['DISABLED', 'NOT_TARGETED', 'EXPIRED', 'OUTSIDE_HOURS', 'OUTSIDE_DATE_RANGES', 'EXCLUDED_RANGE', 'NO_PLAYABLE_ITEMS'],
  ],
  ['not valid yet with other reasons', { validFrom: '2026-07-01', affectedDays: {} }, ['NOT_VALID_YET', 'OUTSIDE_HOURS']],
];

describe('eligibility and its reasons (explain)', () => {
  it.each(cases)('%s', (_, overrides, reasons, when = NOON, facts = {}) => {
    const result = explain({ campaigns: [campaign(1, overrides)] }, device(facts), when);
    expect(result.campaigns).toEqual([{ id: 1, name: 'campaign-1', level: 'WIDGET', eligible: reasons.length === 0, reasons }]);
    expect(result.layer).toBe(reasons.length === 0 ? 'CHANNELS' : 'NONE');
  });
});

describe('messages', () => {
  it('are not eligible while their parent is not (PARENT_NOT_ELIGIBLE), besides their own reasons', () => {
    const parent = campaign(1, {
      enabled: false,
      files: [],
      messageGroups: [group(7, [message(1), message(2, { validTo: '2026-06-01' })])],
    });
    const result = explain({ campaigns: [parent] }, device(), NOON);
    expect(result.campaigns[0]).toMatchObject({ eligible: false, reasons: ['DISABLED'] });
    expect(result.campaigns[0]!.messages).toEqual([
      { id: 1, name: 'message-1', messageGroupId: 7, eligible: false, reasons: ['PARENT_NOT_ELIGIBLE'] },
      { id: 2, name: 'message-2', messageGroupId: 7, eligible: false, reasons: ['EXPIRED', 'PARENT_NOT_ELIGIBLE'] },
    ]);
  });

  it('give their channel its playable items; without an eligible message the channel has none', () => {
    const eligible = campaign(1, { files: [], messageGroups: [group(7, [message(1), message(2, { enabled: false })])] });
    expect(explain({ campaigns: [eligible] }, device(), NOON).campaigns[0]).toMatchObject({ eligible: true, reasons: [] });
    const none = campaign(1, {
      files: [],
      messageGroups: [group(7, [message(1, { affectedHours: { allDay: false, from: '20:00', end: '21:00' } }), message(2, { files: [] })])],
    });
    const result = explain({ campaigns: [none] }, device(), NOON).campaigns[0]!;
    expect(result).toMatchObject({ eligible: false, reasons: ['NO_PLAYABLE_ITEMS'] });
    expect(result.messages?.map((m) => m.reasons)).toEqual([['OUTSIDE_HOURS'], ['NO_PLAYABLE_ITEMS']]);
  });

  it('have their own targeting', () => {
    const parent = campaign(1, { files: [], messageGroups: [group(7, [message(1, { deviceSelectionMode: 'STATIC', deviceIds: [] })])] });
    expect(explain({ campaigns: [parent] }, device(), NOON).campaigns[0]!.messages?.[0]?.reasons).toEqual(['NOT_TARGETED']);
  });
});

describe('the layer explain names', () => {
  it('is the layer of the segment at that instant, emergency first', () => {
    const emergency = { emergencyStatus: true, defaultEmergencyContent: { id: 'e', name: 'e', deviceContentType: 'content' as const } };
    expect(explain({ campaigns: [campaign(1)] }, device(emergency), NOON)).toMatchObject({
      at: NOON,
      layer: 'EMERGENCY',
      campaigns: [{ id: 1, eligible: true }],
    });
    const top = campaign(2, {
      level: 'TOP',
      files: [],
      contents: [{ id: 'b', name: 'b', deviceContentType: 'simpleLoop', pageCount: 1, weight: 0 }],
    });
    expect(explain({ campaigns: [campaign(1), top] }, device(), NOON).layer).toBe('SCHEDULE');
  });
});

describe('schedules (TOP)', () => {
  it('need content: files do not play on the schedule layer', () => {
    const top = campaign(1, { level: 'TOP' });
    expect(explain({ campaigns: [top] }, device(), NOON).campaigns[0]).toMatchObject({
      level: 'TOP',
      eligible: false,
      reasons: ['NO_PLAYABLE_ITEMS'],
    });
  });
});
