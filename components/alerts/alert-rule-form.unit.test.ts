import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { AlertRuleBodySchema, type AlertRule } from '@/server/modules/alerts/alert-rules.schemas';

import { PLACEHOLDERS } from '@/server/modules/alerts/alert-rules.schemas';
import alerts from '@/messages/en/alerts.json';
import {
  alertRuleBody,
  alertRuleFormSchema,
  alertRuleFormValues,
  formFieldOfIssuePath,
  newAlertRuleValues,
  TEMPLATE_PLACEHOLDERS,
  type AlertRuleFormValues,
  type Words,
} from './alert-rule-form';

const words: Words = createTranslator({ locale: 'en', messages: { alerts }, namespace: 'alerts.ruleForm' });
const FOLDER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OTHER_FOLDER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

const filled = (patch: Partial<AlertRuleFormValues> = {}): AlertRuleFormValues => ({
  ...newAlertRuleValues({ timeZone: 'Europe/Berlin', teamIds: [] }),
  name: 'Lobby screens',
  deviceGroupId: FOLDER,
  ...patch,
});

/** The messages of a failed check, by form field. */
function issuesOf(values: AlertRuleFormValues, needsTeam = false): Record<string, string> {
  const result = alertRuleFormSchema(words, { needsTeam }).safeParse(values);

  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the rule form’s body', () => {
  it('is a DeviceOffline body the API’s own schema accepts, with the condition, days, window and channels nested', () => {
    const body = alertRuleBody(
      filled({
        inactiveMinutes: '20',
        tags: ['lobby', 'floor-1'],
        tagOperator: 'AND',
        tagFilterType: 'EXCLUDE',
        excludeDeviceGroupIds: [OTHER_FOLDER],
        channelIds: [4, 9],
        evaluateMinutes: '2',
        delayMinutes: '30',
        emailSubject: '{ruleName}: {deviceName} is {event}',
      }),
    );
    expect(body).toMatchObject({
      '@type': 'DeviceOffline',
      condition: {
        inactiveMinutes: 20,
        deviceGroupId: FOLDER,
        recursive: true,
        excludeDeviceGroupIds: [OTHER_FOLDER],
        excludeDeviceIds: [],
        tagFilter: { tags: ['lobby', 'floor-1'], logicalOperator: 'AND', tagFilterType: 'EXCLUDE' },
      },
      name: 'Lobby screens',
      enabled: true,
      scheduledEvaluateSeconds: 120,
      delayEvaluateAfterViolationMinutes: 30,
      workingDays: { monday: true, friday: true, saturday: false, sunday: false },
      workingTime: { allDay: false, from: '08:00', end: '18:00', timeZone: 'Europe/Berlin' },
      notificationChannels: [{ id: 4 }, { id: 9 }],
      evaluateSummaryEmailTemplate: '{ruleName}: {deviceName} is {event}',
      alertEmailTemplate: null,
    });
    expect(AlertRuleBodySchema.safeParse(body).success).toBe(true);
  });

  it('sends no tag filter without tags, and an all-day window with its zone only', () => {
    const body = alertRuleBody(filled({ allDay: true, from: '99:99' }));
    expect(body.condition).toMatchObject({ tagFilter: null });
    expect(body.workingTime).toEqual({ allDay: true, timeZone: 'Europe/Berlin' });
    expect(AlertRuleBodySchema.safeParse(body).success).toBe(true);
  });

  it('is a DatasourceError body with only the threshold as its condition', () => {
    const body = alertRuleBody(filled({ type: 'DatasourceError', threshold: '5' }));
    expect(body['@type']).toBe('DatasourceError');
    expect(body.condition).toEqual({ threshold: 5 });
    expect(AlertRuleBodySchema.safeParse(body).success).toBe(true);
  });
});

describe('a rule read back into the form', () => {
  const rule: AlertRule = {
    '@type': 'DeviceOffline',
    id: 7,
    name: 'Lobby',
    comment: 'night shift',
    enabled: false,
    condition: {
      '@type': 'DeviceOfflineAndNoActivityForMinutes',
      inactiveMinutes: 45,
      deviceGroupId: FOLDER,
      recursive: false,
      excludeDeviceIds: ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d'],
      excludeDeviceGroupIds: [],
      tagFilter: { tags: ['a'], logicalOperator: 'AND', tagFilterType: 'INCLUDE' },
    },
    scheduledEvaluateSeconds: 90,
    delayEvaluateAfterViolationMinutes: 15,
    workingDays: { monday: true, tuesday: false, wednesday: true, thursday: false, friday: false, saturday: true, sunday: false },
    workingTime: { allDay: false, from: '07:30', end: '19:00', timeZone: 'America/New_York' },
    notificationChannels: [{ id: 3, name: 'Ops' }],
    alertSmsTemplate: '{deviceName} down',
  };

  it('keeps every value the form shows, and sends the rule back unchanged but for the rounded period', () => {
    const values = alertRuleFormValues(rule, { timeZone: 'UTC' });
    expect(values).toMatchObject({
      type: 'DeviceOffline',
      enabled: false,
      inactiveMinutes: '45',
      recursive: false,
      tags: ['a'],
      tagOperator: 'AND',
      from: '07:30',
      end: '19:00',
      timeZone: 'America/New_York',
      evaluateMinutes: '2',
      delayMinutes: '15',
      channelIds: [3],
      sms: '{deviceName} down',
      emailBody: '',
    });
    expect(values.workingDays).toEqual(rule.workingDays);
    const body = alertRuleBody(values);
    expect(body.condition).toMatchObject({ excludeDeviceIds: rule.condition!.excludeDeviceIds, recursive: false });
    expect(body.alertSmsTemplate).toBe('{deviceName} down');
    expect(body.scheduledEvaluateSeconds).toBe(120);
  });

  it('reads a rule without working days as no day ticked, and one without a window as all day', () => {
    const values = alertRuleFormValues({ ...rule, workingDays: undefined, workingTime: {} }, { timeZone: 'Europe/Berlin' });
    expect(Object.values(values.workingDays).some(Boolean)).toBe(false);
    expect(values.allDay).toBe(true);
    expect(values.timeZone).toBe('UTC');
  });
});

describe('the form’s checks', () => {
  it('passes a filled new rule', () => {
    expect(issuesOf(filled())).toEqual({});
  });

  it('asks for a folder, a day, a whole number in range and a window that ends after it starts', () => {
    const issues = issuesOf(
      filled({
        deviceGroupId: '',
        inactiveMinutes: '0',
        evaluateMinutes: '0.5',
        workingDays: { monday: false, tuesday: false, wednesday: false, thursday: false, friday: false, saturday: false, sunday: false },
        from: '18:00',
        end: '08:00',
      }),
    );
    expect(issues).toEqual({
      deviceGroupId: 'Choose a folder',
      inactiveMinutes: 'A whole number from 1 to 525,600',
      evaluateMinutes: 'A whole number from 1 to 1,440',
      workingDays: 'Tick at least one day (to pause the rule, make it inactive)',
      end: 'The end must be after the start (a window cannot run past midnight)',
    });
  });

  it('checks only the chosen type’s condition', () => {
    expect(issuesOf(filled({ type: 'DatasourceError', deviceGroupId: '', threshold: '26' }))).toEqual({
      threshold: 'A whole number from 1 to 25',
    });
  });

  it('refuses leaving out the watched folder itself, and asks a team-scoped user for a team', () => {
    expect(issuesOf(filled({ excludeDeviceGroupIds: [FOLDER] }), true)).toEqual({
      excludeDeviceGroupIds: 'The watched folder itself cannot be left out',
      teamIds: 'Choose at least one of your teams',
    });
  });
});

describe('the API’s issue paths', () => {
  it.each([
    ['name', 'name'],
    ['@type', 'type'],
    ['condition.inactiveMinutes', 'inactiveMinutes'],
    ['condition.deviceGroupId', 'deviceGroupId'],
    ['condition.excludeDeviceGroupIds.2', 'excludeDeviceGroupIds'],
    ['condition.excludeDeviceIds.0', 'excludeDeviceIds'],
    ['condition.tagFilter.tags.0', 'tags'],
    ['condition.threshold', 'threshold'],
    ['workingTime.end', 'end'],
    ['workingTime.timeZone', 'timeZone'],
    ['workingTime', 'from'],
    ['workingDays', 'workingDays'],
    ['scheduledEvaluateSeconds', 'evaluateMinutes'],
    ['delayEvaluateAfterViolationMinutes', 'delayMinutes'],
    ['notificationChannels.1.id', 'channelIds'],
    ['alertFixedSmsTemplate', 'fixedSms'],
    ['evaluateSummaryEmailTemplate', 'emailSubject'],
  ] as const)('%s marks %s', (path, field) => {
    expect(formFieldOfIssuePath(path)).toBe(field);
  });

  it('marks nothing for a path no control sets', () => {
    expect(formFieldOfIssuePath('customerId')).toBeUndefined();
    expect(formFieldOfIssuePath('condition.unknown')).toBeUndefined();
  });
});

describe('the placeholders the form lists', () => {
  it('are the ones the templates are filled with', () => {
    expect([...TEMPLATE_PLACEHOLDERS]).toEqual([...PLACEHOLDERS]);
  });
});
