import { z } from '@hono/zod-openapi';
import { updateBody } from '@/server/http/update-body';
import {
  combinationIssue,
  EMAIL_MAX,
  EMAIL_PATTERN,
  epochMs,
  HTTP_URL_PATTERN,
  intId,
  nonBlankText,
  resourceName,
} from '@/server/http/wire.schemas';

/*
 * Wire shapes of alert-rule notification channels (spec 2 "Notification channel", "Alert rules, notification
 * channels, alerts"). No server imports: the console imports these for its forms and types.
 */

/** The channel types (spec 2, spec 5 §5); each has its address rule in `ADDRESS_RULES`. */
export const notificationChannelTypes = ['EMAIL', 'SMS', 'WEBHOOK', 'USER_NOTIFICATION'] as const;
export type NotificationChannelType = (typeof notificationChannelTypes)[number];

/** An international phone number as E.164 writes it: `+`, a country code not starting with 0, at most 15 digits. */
const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
const HTTP_URL = new RegExp(HTTP_URL_PATTERN);
/** A user's id (UUID, any version): USER_NOTIFICATION channels name the tenant's users. */
const USER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const NOTIFY_MAX = 50;
const NOTIFY_ENTRY_MAX = 2_048;
const COMMENT_MAX = 4_000;

/** What one entry of `notify` must be for each channel type. */
const ADDRESS_RULES: Record<NotificationChannelType, { test: (value: string) => boolean; message: string }> = {
  EMAIL: { test: (value) => value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value), message: 'An e-mail address' },
  SMS: { test: (value) => E164_PATTERN.test(value), message: 'A phone number in E.164 form (+ and 7 to 15 digits)' },
  WEBHOOK: { test: (value) => HTTP_URL.test(value), message: 'An http or https address' },
  USER_NOTIFICATION: { test: (value) => USER_ID_PATTERN.test(value), message: "A user's id" },
};

/** Why an entry of `notify` is refused: not of the type's form, or listed before. */
export type NotifyIssue = { path: ['notify', number]; reason: 'form' | 'twice' | 'one'; message: string };

/**
 * The issues of a `notify` list for `channelType`: each entry of the type's form, none twice (path `['notify', i]`);
 * a WEBHOOK channel posts to exactly one URL (spec 5 §5), so a second entry is refused.
 */
export function notifyIssues(channelType: NotificationChannelType, notify: readonly string[]): NotifyIssue[] {
  const rule = ADDRESS_RULES[channelType];
  const seen = new Set<string>();

  return notify.flatMap((value, i): NotifyIssue[] => {
    if (channelType === 'WEBHOOK' && i > 0)
      return [{ path: ['notify', i], reason: 'one', message: 'A WEBHOOK channel has exactly one URL' }];
    const key = value.toLowerCase();
    const reason = !rule.test(value) ? 'form' : seen.has(key) ? 'twice' : undefined;
    seen.add(key);

    return reason ? [{ path: ['notify', i], reason, message: reason === 'form' ? rule.message : 'Listed twice' }] : [];
  });
}

const channelType = z.enum(notificationChannelTypes).openapi({
  description:
    '`EMAIL`; `SMS` when the server has SMS delivery configured (`SMS_WEBHOOK_URL`; otherwise 400 `notificationChannel.error.smsNotConfigured`); ' +
    '`WEBHOOK` (a signed POST, Standard Webhooks 1.0); `USER_NOTIFICATION` (the console bell of the named users)',
});
const notify = z
  .array(nonBlankText(NOTIFY_ENTRY_MAX))
  .min(1)
  .max(NOTIFY_MAX)
  .openapi({
    description:
      `Who is told: e-mail addresses for EMAIL, E.164 phone numbers for SMS, exactly one http(s) URL for WEBHOOK, ids of the ` +
      `tenant's users for USER_NOTIFICATION (400 \`notificationChannel.error.unknownUser\` otherwise); 1 to ${NOTIFY_MAX}, none twice`,
    example: ['ops@example.com'],
  });
export const channelComment = z.string().max(COMMENT_MAX).openapi({ description: 'Required; may be empty' });
const ignoredCustomerId = intId.openapi({ description: "Ignored: the tenant is the `customerId` query parameter (or the caller's own)" });

export const NotificationChannelCreateSchema = z
  .object({
    name: resourceName.openapi({ description: 'Unique in the customer' }),
    comment: channelComment,
    channelType,
    notify,
    customerId: ignoredCustomerId.optional(),
  })
  .superRefine((body, ctx) => {
    for (const issue of notifyIssues(body.channelType, body.notify)) combinationIssue(ctx, issue.path, issue.message);
  })
  .openapi('NotificationChannelCreate', { description: 'Every `notify` entry must be of the `channelType`' });

export const NotificationChannelUpdateSchema = updateBody(
  'NotificationChannelUpdate',
  {
    name: resourceName,
    comment: channelComment,
    channelType,
    notify,
    enabled: z.boolean().openapi({ description: '`true` enables a channel a 410 answer disabled (and clears `disabledReason`)' }),
    customerId: ignoredCustomerId,
  },
  'The `notify` entries afterwards must be of the `channelType` afterwards. A change to WEBHOOK answers a new `secret` once.',
);

export const NotificationChannelSchema = z
  .object({
    id: intId,
    name: z.string(),
    comment: z.string().optional(),
    channelType: z.enum(notificationChannelTypes).optional(),
    customerId: intId.optional(),
    notify: z.array(z.string()).optional(),
    enabled: z.boolean().optional().openapi({ description: 'False once a WEBHOOK receiver answered 410 Gone; nothing is sent then' }),
    disabledReason: z.string().optional().openapi({ description: 'Why the channel is disabled (absent while enabled)' }),
    secret: z.string().optional().openapi({
      description:
        'WEBHOOK only, and only in the answer of the create (or of the update that makes a channel a WEBHOOK): the signing secret `whsec_…`. Never answered again.',
    }),
    secretRotatedAt: epochMs.optional().openapi({ description: 'WEBHOOK: when the secret was last rotated' }),
    readOnly: z.boolean().optional().openapi({ description: 'The caller sees the channel only through read-only team assignments' }),
    teamAssignments: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'select-only: the teams of the channel' }),
  })
  .openapi('NotificationChannel');

const SimpleNotificationChannelSchema = z.object({ id: intId, name: z.string() }).openapi('SimpleNotificationChannel');
export const SimpleNotificationChannelListSchema = z
  .object({ content: z.array(SimpleNotificationChannelSchema) })
  .openapi('SimpleNotificationChannelList');

export type NotificationChannel = z.infer<typeof NotificationChannelSchema>;
export type NotificationChannelCreate = z.infer<typeof NotificationChannelCreateSchema>;
export type NotificationChannelUpdate = z.infer<typeof NotificationChannelUpdateSchema>;
export type SimpleNotificationChannel = z.infer<typeof SimpleNotificationChannelSchema>;
