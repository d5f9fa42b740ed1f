import { paramFieldsOf, type ParamField } from '@/components/webhooks/webhook-action-form';

/*
 * What the console hands out to call a trigger (spec 3 "Authentication and trigger endpoints"): the URL, a JSON body
 * with the event id and the parameters the action leaves to the payload, and a curl command with the header key.
 * Pure: the page passes its origin.
 */

const TRIGGER_PATH = '/public-api/integration/webhooks';

/** Stands for the key in examples of a saved action (its token is never shown again). */
export const KEY_PLACEHOLDER = '<your-webhook-api-key>';

/** Stands for an event id in the example of a new key (it belongs to no action yet). */
export const EVENT_ID_PLACEHOLDER = '<event-id>';

/** The public trigger endpoint at `origin` (the console's own: the API is served beside it). */
export function triggerUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}${TRIGGER_PATH}`;
}

/** A sample value of a parameter, typed as the trigger payload types it (spec 3 "Trigger payload fields"). */
function sampleOf(field: ParamField): unknown {
  switch (field.key) {
    case 'capIds':
      return ['<cap-alert-id>'];
    case 'data':
      // Spec 3: `data` is a string holding JSON (CAP XML for INSERT_CAP_DATASOURCE).
      return field.kind === 'json' ? '{"<key>":"<value>"}' : '<cap-xml>';
    default:
      break;
  }
  switch (field.kind) {
    case 'url':
      return 'https://example.com/';
    case 'integer':
    case 'number':
      return field.min ?? 0;
    case 'content':
      return '<content-id>';
    default:
      return `<${field.key}>`;
  }
}

/** A trigger body for an action: its event id, then a sample of each parameter the action leaves to the payload. */
export function examplePayload(action: { eventId?: string; action?: string; actionParams?: Record<string, string> | null }) {
  const saved = action.actionParams ?? {};
  const open = paramFieldsOf(action.action ?? '').filter((field) => (saved[field.key] ?? '') === '');

  return { event_id: action.eventId ?? '', ...Object.fromEntries(open.map((field) => [field.key, sampleOf(field)])) };
}

/** `value` as one single-quoted shell word (a `'` inside closes, escapes and reopens the quotes). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A curl command that triggers with the header key: one line per part, ready to paste into a POSIX shell. */
export function curlExample({ origin, apiKey, payload }: { origin: string; apiKey: string; payload: unknown }): string {
  return [
    `curl -X POST ${shellQuote(triggerUrl(origin))}`,
    `  -H ${shellQuote(`X-Webhook-Apikey: ${apiKey}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(payload))}`,
  ].join(' \\\n');
}
