import { describe, expect, it } from 'vitest';
import type { AlertNotification } from './alert-notifications';
import { renderTexts, type RuleTemplates } from './alert-templates';

/* The rule's message templates (spec 2 "Alert rule": alertEmailTemplate, evaluateSummaryEmailTemplate, alertSmsTemplate, alertFixedSmsTemplate). */

const NONE: RuleTemplates = {
  alertEmailTemplate: null,
  evaluateSummaryEmailTemplate: null,
  alertSmsTemplate: null,
  alertFixedSmsTemplate: null,
};
const ALL: RuleTemplates = {
  evaluateSummaryEmailTemplate: '[{event}] {deviceName} ({ruleName})',
  alertEmailTemplate: 'Alert {alertId}: {deviceName} ({deviceId}) in {folderPath}, last seen {lastActivity}, since {since}, at {time}',
  alertSmsTemplate: '{deviceName} {event} since {since}',
  alertFixedSmsTemplate: '{deviceName} is {event} again',
};

const device = (type: 'alert.device.offline' | 'alert.device.online'): AlertNotification => ({
  type,
  timestamp: '2026-06-15T10:05:00.000Z',
  data: {
    alertId: 41,
    alertRuleId: 3,
    alertRuleName: 'Lobby dark',
    customerId: 2,
    device: {
      id: '0190a6a2-0000-7000-8000-000000000001',
      name: 'Lobby left',
      lastActivity: '2026-06-15T09:00:00.000Z',
      folderPath: 'HQ / Lobby',
    },
  },
});

const datasource: AlertNotification = {
  type: 'alert.datasource.error',
  timestamp: '2026-01-10T07:00:00.000Z',
  data: {
    alertId: 9,
    alertRuleId: 4,
    alertRuleName: 'Feeds',
    customerId: 2,
    datasource: { id: '0190a6a2-0000-7000-8000-0000000000d5', name: 'Weather', errorCounter: 3, lastError: 'HTTP 503' },
  },
};

describe('renderTexts', () => {
  it('fills the e-mail subject and body and the opening SMS, times in the rule’s zone (summer time in Berlin)', () => {
    const texts = renderTexts({
      templates: ALL,
      notification: device('alert.device.offline'),
      since: '2026-06-15T10:00:00.000Z',
      zone: 'Europe/Berlin',
    });
    expect(texts).toEqual({
      emailSubject: '[offline] Lobby left (Lobby dark)',
      emailBody:
        'Alert 41: Lobby left (0190a6a2-0000-7000-8000-000000000001) in HQ / Lobby, last seen 2026-06-15 11:00 Europe/Berlin, ' +
        'since 2026-06-15 12:00 Europe/Berlin, at 2026-06-15 12:05 Europe/Berlin',
      sms: 'Lobby left offline since 2026-06-15 12:00 Europe/Berlin',
    });
  });

  it('sends the fixed SMS when the alert closes, the same e-mail templates with {event} telling them apart', () => {
    const texts = renderTexts({
      templates: ALL,
      notification: device('alert.device.online'),
      since: '2026-06-15T10:00:00.000Z',
      zone: 'UTC',
    });
    expect(texts).toMatchObject({ emailSubject: '[online] Lobby left (Lobby dark)', sms: 'Lobby left is online again' });
  });

  it('fills the datasource placeholders; a device placeholder is empty there, an unknown one stays as written', () => {
    const texts = renderTexts({
      templates: {
        ...NONE,
        alertSmsTemplate: '{datasourceName} ({datasourceId}): {errorCounter} errors, {lastError}{deviceName} {noSuchThing}',
      },
      notification: datasource,
      since: '2026-01-10T07:00:00.000Z',
      zone: 'Europe/Berlin',
    });
    expect(texts).toEqual({ sms: 'Weather (0190a6a2-0000-7000-8000-0000000000d5): 3 errors, HTTP 503 {noSuchThing}' });
  });

  it('gives nothing when the rule has no templates, nor an SMS for a closing alert without the fixed template', () => {
    expect(
      renderTexts({ templates: NONE, notification: device('alert.device.offline'), since: '2026-06-15T10:00:00.000Z', zone: 'UTC' }),
    ).toBeUndefined();
    expect(
      renderTexts({
        templates: { ...NONE, alertSmsTemplate: '{deviceName} offline' },
        notification: device('alert.device.online'),
        since: '2026-06-15T10:00:00.000Z',
        zone: 'UTC',
      }),
    ).toBeUndefined();
  });
});
