import { z } from '@hono/zod-openapi';
import { epochMs, intId } from '@/server/http/wire.schemas';

/*
 * Wire shapes of notification deliveries (spec 5 §5) and of the console's bell (USER_NOTIFICATION). No server
 * imports: the console imports these for its types.
 */

const notificationEventTypes = [
  'alert.device.offline',
  'alert.device.online',
  'alert.datasource.error',
  'alert.datasource.fixed',
  'test',
] as const;
export type NotificationEventType = (typeof notificationEventTypes)[number];

/** A notification the alerts module (or the test endpoint) hands to `queueNotifications`: spec 5 §5's payload and its texts. */
export type AlertNotification = {
  type: NotificationEventType;
  /** ISO 8601 */
  timestamp: string;
  data: {
    alertId: number | null;
    alertRuleId: number | null;
    alertRuleName: string | null;
    customerId: number;
    device?: { id: string; name: string; lastActivity: string | null; folderPath: string | null };
    datasource?: { id: string; name: string; errorCounter: number; lastError: string | null };
  };
  /**
   * Rendered texts (the alert rule's templates with placeholders filled by the alerts module); when absent the
   * deliveries module writes a plain default from the payload.
   */
  texts?: { emailSubject?: string; emailBody?: string; sms?: string };
};

/** What a WEBHOOK channel receives as its body, and what the e-mail states: spec 5 §5's `{type, timestamp, data}`. */
export type NotificationPayload = Pick<AlertNotification, 'type' | 'timestamp' | 'data'>;

const deliveryStates = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

const PayloadSchema = z
  .object({
    type: z.enum(notificationEventTypes),
    timestamp: z.string().openapi({ description: 'ISO 8601' }),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        '`alertId`, `alertRuleId`, `alertRuleName`, `customerId`, and `device` `{id, name, lastActivity, folderPath}` or `datasource` `{id, name, errorCounter, lastError}`',
    }),
  })
  .openapi('NotificationPayload', { description: 'The body a WEBHOOK channel receives (spec 5 §5)' });

const DeliveryAttemptSchema = z
  .object({
    attempt: z.number().int().openapi({ description: '1 for the first attempt' }),
    at: epochMs.openapi({ description: 'When the attempt started' }),
    succeeded: z.boolean(),
    statusCode: z.number().int().optional().openapi({ description: "The receiver's HTTP status (WEBHOOK, SMS); absent without an answer" }),
    latencyMs: z.number().int().openapi({ description: 'From the request to the answer (or the failure)' }),
    error: z.string().optional().openapi({ description: 'Why the attempt failed, for a person' }),
    detail: z.string().optional().openapi({ description: 'What the attempt did (e-mails queued, users notified)' }),
  })
  .openapi('NotificationDeliveryAttempt');

export const NotificationDeliverySchema = z
  .object({
    id: z.string().openapi({ description: 'The delivery (UUIDv7); a WEBHOOK receives it as `webhook-id` on every attempt' }),
    channelId: intId,
    type: z.enum(notificationEventTypes),
    state: z
      .enum(deliveryStates)
      .openapi({ description: 'PENDING while attempts remain; DELIVERED; FAILED after the last attempt or a 410' }),
    createdAt: epochMs,
    attemptCount: z.number().int(),
    nextAttemptAt: epochMs.optional().openapi({ description: 'PENDING: when the next attempt is due' }),
    finishedAt: epochMs.optional(),
    detail: z.string().optional().openapi({ description: 'Why a delivery ended without success' }),
    payload: PayloadSchema,
    attempts: z.array(DeliveryAttemptSchema).openapi({ description: 'Every attempt, first to last (at most 10)' }),
  })
  .openapi('NotificationDelivery');

export const RotatedSecretSchema = z
  .object({
    secret: z.string().openapi({ description: 'The new signing secret `whsec_…`, answered only here' }),
    previousSecretValidUntil: epochMs.openapi({ description: 'Until then every request carries the old signature too' }),
  })
  .openapi('NotificationChannelSecret');

export const UserNotificationSchema = z
  .object({
    id: z.string(),
    type: z.enum(notificationEventTypes),
    title: z.string(),
    text: z.string(),
    channelId: intId.optional().openapi({ description: 'Absent once the channel was deleted' }),
    createdAt: epochMs,
    read: z.boolean(),
    readAt: epochMs.optional(),
    data: z.record(z.string(), z.unknown()).openapi({ description: "The payload's `data` (spec 5 §5)" }),
  })
  .openapi('UserNotification');

export const UnreadCountSchema = z.object({ unread: z.number().int() }).openapi('UserNotificationUnreadCount');
export const MarkedReadSchema = z
  .object({ marked: z.number().int().openapi({ description: 'How many notifications were unread' }) })
  .openapi('UserNotificationsMarkedRead');

export type NotificationDelivery = z.infer<typeof NotificationDeliverySchema>;
export type UserNotification = z.infer<typeof UserNotificationSchema>;
