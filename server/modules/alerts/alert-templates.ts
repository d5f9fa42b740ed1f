import { Temporal } from 'temporal-polyfill';
import type { AlertNotification } from './alert-notifications';
import { PLACEHOLDERS } from './alert-rules.schemas';

/*
 * The rule's message templates (spec 2: alertEmailTemplate, evaluateSummaryEmailTemplate, alertSmsTemplate,
 * alertFixedSmsTemplate) filled in for one notification. A placeholder is a name in braces; the names are in
 * `PLACEHOLDERS` and the module README. An unknown name stays as written, so a typo shows in the message instead of
 * vanishing; a known one without a value (a datasource's `{deviceName}`) becomes empty.
 */

type Placeholder = (typeof PLACEHOLDERS)[number];

export type RuleTemplates = {
  alertEmailTemplate: string | null;
  evaluateSummaryEmailTemplate: string | null;
  alertSmsTemplate: string | null;
  alertFixedSmsTemplate: string | null;
};

const EVENT_WORDS: Record<AlertNotification['type'], string> = {
  'alert.device.offline': 'offline',
  'alert.device.online': 'online',
  'alert.datasource.error': 'error',
  'alert.datasource.fixed': 'fixed',
  test: 'test',
};

/** `yyyy-MM-dd HH:mm` of an ISO instant in `zone`, with the zone named (messages are read by people, not parsed). */
function localTime(iso: string | null, zone: string): string {
  if (!iso) return '';
  const local = Temporal.Instant.from(iso).toZonedDateTimeISO(zone);

  return `${local.toPlainDate().toString()} ${local.toPlainTime().toString({ smallestUnit: 'minute' })} ${zone}`;
}

/** Replaces every `{name}` of `template` by its value. */
function renderTemplate(template: string, values: Readonly<Record<Placeholder, string>>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as Placeholder] : whole));
}

/** The values of the placeholders for one notification: times in the rule's zone. */
function placeholderValues(input: { notification: AlertNotification; since: string; zone: string }): Record<Placeholder, string> {
  const { data } = input.notification;

  return {
    ruleName: data.alertRuleName ?? '',
    event: EVENT_WORDS[input.notification.type],
    deviceName: data.device?.name ?? '',
    deviceId: data.device?.id ?? '',
    folderPath: data.device?.folderPath ?? '',
    lastActivity: localTime(data.device?.lastActivity ?? null, input.zone),
    datasourceName: data.datasource?.name ?? '',
    datasourceId: data.datasource?.id ?? '',
    errorCounter: data.datasource ? String(data.datasource.errorCounter) : '',
    lastError: data.datasource?.lastError ?? '',
    since: localTime(input.since, input.zone),
    time: localTime(input.notification.timestamp, input.zone),
    alertId: data.alertId === null ? '' : String(data.alertId),
  };
}

/**
 * The texts of a notification: the e-mail subject from `evaluateSummaryEmailTemplate`, the body from
 * `alertEmailTemplate` (opening and closing alike: `{event}` tells them apart), the SMS from `alertSmsTemplate` when an
 * alert opens and `alertFixedSmsTemplate` when it closes. Undefined when the rule has none of them.
 */
export function renderTexts(input: {
  templates: RuleTemplates;
  notification: AlertNotification;
  since: string;
  zone: string;
}): AlertNotification['texts'] {
  const { templates, notification } = input;
  const values = placeholderValues(input);
  const isClosing = notification.type === 'alert.device.online' || notification.type === 'alert.datasource.fixed';
  const sms = isClosing ? templates.alertFixedSmsTemplate : templates.alertSmsTemplate;
  const texts: NonNullable<AlertNotification['texts']> = {};
  if (templates.evaluateSummaryEmailTemplate) texts.emailSubject = renderTemplate(templates.evaluateSummaryEmailTemplate, values);
  if (templates.alertEmailTemplate) texts.emailBody = renderTemplate(templates.alertEmailTemplate, values);
  if (sms) texts.sms = renderTemplate(sms, values);

  return Object.keys(texts).length > 0 ? texts : undefined;
}
