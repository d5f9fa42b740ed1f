import { z } from '@hono/zod-openapi';
import { updateBody } from '@/server/http/update-body';
import { combinationIssue, EMAIL_MAX, EMAIL_PATTERN, intId, nonBlankText, resourceName } from '@/server/http/wire.schemas';

/*
 * Wire shapes of alert-rule notification channels (spec 2 "Notification channel", "Alert rules, notification
 * channels, alerts"). No server imports: the console imports these for its forms and types.
 */

/**
 * The channel types this module stores. WEBHOOK and USER_NOTIFICATION (spec 5 §5) come with the alerts issue, with
 * their deliveries: each adds its value here and its address rule to `ADDRESS_RULES`.
 */
export const notificationChannelTypes = ['EMAIL', 'SMS'] as const;
export type NotificationChannelType = (typeof notificationChannelTypes)[number];

/** An international phone number as E.164 writes it: `+`, a country code not starting with 0, at most 15 digits. */
const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const NOTIFY_MAX = 50;
const COMMENT_MAX = 4_000;

/** What one entry of `notify` must be for each channel type. */
const ADDRESS_RULES: Record<NotificationChannelType, { test: (value: string) => boolean; message: string }> = {
  EMAIL: { test: (value) => value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value), message: 'An e-mail address' },
  SMS: { test: (value) => E164_PATTERN.test(value), message: 'A phone number in E.164 form (+ and 7 to 15 digits)' },
};

/** Why an entry of `notify` is refused: not of the type's form, or listed before. */
export type NotifyIssue = { path: ['notify', number]; reason: 'form' | 'twice'; message: string };

/** The issues of a `notify` list for `channelType`: each entry of the type's form, none twice (path `['notify', i]`). */
export function notifyIssues(channelType: NotificationChannelType, notify: readonly string[]): NotifyIssue[] {
  const rule = ADDRESS_RULES[channelType];
  const seen = new Set<string>();

  return notify.flatMap((value, i): NotifyIssue[] => {
    const key = value.toLowerCase();
    const reason = !rule.test(value) ? 'form' : seen.has(key) ? 'twice' : undefined;
    seen.add(key);

    return reason ? [{ path: ['notify', i], reason, message: reason === 'form' ? rule.message : 'Listed twice' }] : [];
  });
}

const channelType = z.enum(notificationChannelTypes).openapi({
  description:
    '`EMAIL`, or `SMS` when the server has SMS delivery configured (`SMS_WEBHOOK_URL`; otherwise 400 `notificationChannel.error.smsNotConfigured`)',
});
const notify = z
  .array(nonBlankText(EMAIL_MAX))
  .min(1)
  .max(NOTIFY_MAX)
  .openapi({
    description: `Who is told: e-mail addresses for EMAIL, E.164 phone numbers for SMS; 1 to ${NOTIFY_MAX}, none twice`,
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
  { name: resourceName, comment: channelComment, channelType, notify, customerId: ignoredCustomerId },
  'The `notify` entries afterwards must be of the `channelType` afterwards.',
);

export const NotificationChannelSchema = z
  .object({
    id: intId,
    name: z.string(),
    comment: z.string().optional(),
    channelType: z.enum(notificationChannelTypes).optional(),
    customerId: intId.optional(),
    notify: z.array(z.string()).optional(),
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
