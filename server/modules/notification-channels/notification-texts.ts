import type { DeliveryTexts } from './notification-deliveries.table';
import type { AlertNotification, NotificationPayload } from './notification-deliveries.schemas';

/*
 * The texts of a delivery: the alert rule's rendered templates when the alerts module gives them, otherwise a plain
 * default written from the payload (spec 5 §5: the payload is also the e-mail's facts).
 */

const SUBJECT_MAX = 255;
const BODY_MAX = 20_000;
/** Seven 153-character parts of a concatenated SMS; gateways refuse longer ones. */
const SMS_MAX = 1_000;

/** What happened, in a line: the default subject, SMS and bell title. */
function headline(payload: NotificationPayload): string {
  const { device, datasource, alertRuleName } = payload.data;
  const rule = alertRuleName ? ` (${alertRuleName})` : '';
  switch (payload.type) {
    case 'alert.device.offline':
      return `Screen '${device?.name ?? '?'}' is offline${rule}`;
    case 'alert.device.online':
      return `Screen '${device?.name ?? '?'}' is online again${rule}`;
    case 'alert.datasource.error':
      return `Datasource '${datasource?.name ?? '?'}' fails${rule}`;
    case 'alert.datasource.fixed':
      return `Datasource '${datasource?.name ?? '?'}' works again${rule}`;
    case 'test':
      return 'Test notification';
  }
}

/** The facts of the payload, one a line: the default e-mail body and bell text. */
function facts(payload: NotificationPayload): string {
  const { data } = payload;
  const lines = [headline(payload), '', `Time: ${payload.timestamp}`];
  if (data.alertRuleName !== null) lines.push(`Alert rule: ${data.alertRuleName}`);
  if (data.alertId !== null) lines.push(`Alert: ${data.alertId}`);
  if (data.device) {
    lines.push(`Screen: ${data.device.name} (${data.device.id})`);
    if (data.device.folderPath) lines.push(`Folder: ${data.device.folderPath}`);
    lines.push(`Last activity: ${data.device.lastActivity ?? 'never'}`);
  }
  if (data.datasource) {
    lines.push(`Datasource: ${data.datasource.name} (${data.datasource.id})`);
    lines.push(`Errors in a row: ${data.datasource.errorCounter}`);
    if (data.datasource.lastError) lines.push(`Last error: ${data.datasource.lastError}`);
  }
  if (payload.type === 'test') lines.push('', 'This is a test of the notification channel; no alert is open.');

  return lines.join('\n');
}

/** The texts a delivery sends: given ones (non-blank) win; no NUL (PostgreSQL text holds none), bounded. */
export function deliveryTexts(notification: AlertNotification): DeliveryTexts {
  const payload: NotificationPayload = { type: notification.type, timestamp: notification.timestamp, data: notification.data };
  const given = notification.texts ?? {};
  const pick = (value: string | undefined, fallback: () => string, max: number) =>
    (value?.trim() ? value : fallback()).replaceAll('\u0000', '').slice(0, max);
  const subject = pick(given.emailSubject, () => headline(payload), SUBJECT_MAX);

  return {
    // A subject is one line: a template's line breaks would start the message's headers.
    emailSubject: subject.replace(/[\r\n]+/g, ' '),
    emailBody: pick(given.emailBody, () => facts(payload), BODY_MAX),
    sms: pick(given.sms, () => headline(payload), SMS_MAX),
  };
}
