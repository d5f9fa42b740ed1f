import type { queueNotifications } from '@/server/modules/notification-channels';

/*
 * What the evaluation hands to the deliveries (spec 5 §5 "Payload"): the notification-channels module's
 * `queueNotifications`, given to the evaluator as a dependency (`EvaluationDeps`) so its tests can count what it sends.
 */

export type { AlertNotification } from '@/server/modules/notification-channels';

/** Queues one notification for delivery on each channel, in the caller's transaction (durable with it). */
export type QueueNotifications = typeof queueNotifications;
