import type { Executor } from '@/server/db/client';

/*
 * What the evaluation hands to the deliveries (spec 5 §5 "Payload"). The notification-channels module exports
 * `queueNotifications` with exactly this signature; until the two are merged the evaluator takes it as a
 * dependency (`EvaluationDeps`), and the module's job is given it where the service is put together.
 */

type AlertNotificationType = 'alert.device.offline' | 'alert.device.online' | 'alert.datasource.error' | 'alert.datasource.fixed' | 'test';

export type AlertNotification = {
  type: AlertNotificationType;
  /** ISO 8601: the evaluation's time. */
  timestamp: string;
  data: {
    alertId: number | null;
    alertRuleId: number | null;
    alertRuleName: string | null;
    customerId: number;
    device?: { id: string; name: string; lastActivity: string | null; folderPath: string | null };
    datasource?: { id: string; name: string; errorCounter: number; lastError: string | null };
  };
  /** The rule's templates, rendered (README "Message templates"); absent where the rule has none. */
  texts?: { emailSubject?: string; emailBody?: string; sms?: string };
};

export type QueueNotificationsInput = { customerId: number; channelIds: number[]; notification: AlertNotification };

/** Queues one notification for delivery on each channel, in the caller's transaction (durable with it). */
export type QueueNotifications = (db: Executor, input: QueueNotificationsInput) => Promise<void>;
