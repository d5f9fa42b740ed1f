import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '@/server/db/client';
import { afterCommit } from '@/server/db/transaction';
import { wakeDeliveryWorkers } from './delivery-worker';
import * as q from './notification-deliveries.queries';
import type { AlertNotification, NotificationPayload } from './notification-deliveries.schemas';
import { deliveryTexts } from './notification-texts';

/**
 * Queues one delivery per channel in the caller's transaction `db`; the worker is woken after commit. Channels of
 * another customer or deleted ones are skipped, and so are disabled ones (a 410 turned them off: nothing is sent
 * until a person enables them again). A rolled-back caller queues nothing.
 */
export async function queueNotifications(
  db: Executor,
  input: { customerId: number; channelIds: number[]; notification: AlertNotification },
): Promise<void> {
  const ids = [...new Set(input.channelIds)];
  const channels = (await q.findChannelsOf(db, { customerId: input.customerId, ids })).filter((c) => c.enabled);
  if (channels.length === 0) return;
  const { notification } = input;
  const payload: NotificationPayload = { type: notification.type, timestamp: notification.timestamp, data: notification.data };
  const texts = deliveryTexts(notification);
  const now = new Date();
  await q.insertDeliveries(
    db,
    channels.map((channel) => ({
      id: uuidv7(),
      customerId: input.customerId,
      channelId: channel.id,
      eventType: notification.type,
      payload,
      texts,
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
  afterCommit(db, wakeDeliveryWorkers);
}
