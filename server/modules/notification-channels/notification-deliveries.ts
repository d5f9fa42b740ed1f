import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { afterCommit } from '@/server/db/transaction';
import { wakeDeliveryWorkers } from './delivery-worker';
import * as q from './notification-deliveries.queries';
import type { AlertNotification, NotificationPayload } from './notification-deliveries.schemas';
import { deliveryTexts } from './notification-texts';

/** What `queueNotifications` takes: one notification, or several of one evaluation (queued in one statement). */
export type QueueNotificationsInput = { customerId: number; channelIds: number[] } & (
  { notification: AlertNotification } | { notifications: AlertNotification[] }
);

/** Rows a statement inserts at most (8 columns a row, well under PostgreSQL's 65 535 parameters). */
const INSERT_CHUNK = 1_000;

/**
 * Queues one delivery per channel and notification in the caller's transaction `db`; the worker is woken after
 * commit. Channels of another customer or deleted ones are skipped, and so are disabled ones (a 410 turned them off:
 * nothing is sent until a person enables them again). A rolled-back caller queues nothing. The channels are read once
 * for all the notifications, and the deliveries inserted a thousand a statement: an evaluation that finds a thousand
 * screens dark queues them in a few statements (docs/benchmarks.md "Alerts").
 */
export async function queueNotifications(db: Executor, input: QueueNotificationsInput): Promise<void> {
  const notifications = 'notifications' in input ? input.notifications : [input.notification];
  if (notifications.length === 0) return;
  const ids = [...new Set(input.channelIds)];
  const channels = (await q.findChannelsOf(db, { customerId: input.customerId, ids })).filter((c) => c.enabled);
  if (channels.length === 0) return;
  const now = new Date();
  const rows = notifications.flatMap((notification) => {
    const payload: NotificationPayload = { type: notification.type, timestamp: notification.timestamp, data: notification.data };
    const texts = deliveryTexts(notification);

    return channels.map((channel) => ({
      id: uuidv7(),
      customerId: input.customerId,
      channelId: channel.id,
      eventType: notification.type,
      payload,
      texts,
      nextAttemptAt: now,
      createdAt: now,
    }));
  });
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) await q.insertDeliveries(db, rows.slice(from, from + INSERT_CHUNK));
  afterCommit(db, wakeDeliveryWorkers);
}
