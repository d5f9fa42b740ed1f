import { and, asc, count, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { users } from '@/server/modules/users/users.table';
import { notificationChannels, type NotificationChannelRow } from './notification-channels.table';
import {
  notificationDeliveries,
  notificationDeliveryAttempts,
  userNotifications,
  type NotificationDeliveryAttemptRow,
  type NotificationDeliveryRow,
  type UserNotificationRow,
} from './notification-deliveries.table';

type DeliveryValues = typeof notificationDeliveries.$inferInsert;

/** The channels of `customerId` among `ids` (others' and deleted ones are not found). */
export async function findChannelsOf(db: Executor, input: { customerId: number; ids: number[] }): Promise<NotificationChannelRow[]> {
  if (input.ids.length === 0) return [];

  return db
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.customerId, input.customerId), inArray(notificationChannels.id, input.ids)));
}

/** The channel `id` within the scope when `visible` (the caller's team condition) holds. */
export async function findVisibleChannel(
  db: Executor,
  input: { scope: TenantScope; id: number; visible: SQL | undefined },
): Promise<NotificationChannelRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.id, input.id), scopeCondition(input.scope, notificationChannels.customerId), input.visible))
    .limit(1);

  return row;
}

export async function findChannelsByIds(db: Executor, ids: number[]): Promise<NotificationChannelRow[]> {
  if (ids.length === 0) return [];

  return db.select().from(notificationChannels).where(inArray(notificationChannels.id, ids));
}

export async function insertDeliveries(db: Executor, rows: DeliveryValues[]): Promise<void> {
  if (rows.length > 0) await db.insert(notificationDeliveries).values(rows);
}

/**
 * Takes up to `limit` due deliveries for the claim `token` until `now + leaseMs` (SKIP LOCKED: the workers of
 * several instances share them). A lease that ran out (its worker died) makes the row due again.
 */
export async function claimDueDeliveries(
  db: Executor,
  input: { now: Date; leaseMs: number; limit: number; token: string },
): Promise<NotificationDeliveryRow[]> {
  const t = notificationDeliveries;
  const due = db
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.state, 'PENDING'), lte(t.nextAttemptAt, input.now), or(isNull(t.leaseUntil), lte(t.leaseUntil, input.now))))
    .orderBy(asc(t.nextAttemptAt))
    .limit(input.limit)
    .for('update', { skipLocked: true });

  return db
    .update(t)
    .set({ leaseToken: input.token, leaseUntil: new Date(input.now.getTime() + input.leaseMs) })
    .where(inArray(t.id, due))
    .returning();
}

/** The PENDING delivery `id` while the claim `token` owns it, locked until commit; undefined when another took it. */
export async function lockOwnedDelivery(db: Executor, input: { id: string; token: string }): Promise<NotificationDeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.id, input.id),
        eq(notificationDeliveries.state, 'PENDING'),
        eq(notificationDeliveries.leaseToken, input.token),
      ),
    )
    .limit(1)
    .for('update');

  return row;
}

export async function insertAttempt(db: Executor, values: typeof notificationDeliveryAttempts.$inferInsert): Promise<void> {
  await db.insert(notificationDeliveryAttempts).values(values);
}

export async function updateDelivery(db: Executor, id: string, values: Partial<DeliveryValues>): Promise<void> {
  await db.update(notificationDeliveries).set(values).where(eq(notificationDeliveries.id, id));
}

/** A 410 (spec 5 §5): the channel sends nothing more until it is enabled again. */
export async function disableChannel(db: Executor, input: { id: number; reason: string }): Promise<void> {
  await db
    .update(notificationChannels)
    .set({ enabled: false, disabledReason: input.reason })
    .where(and(eq(notificationChannels.id, input.id), eq(notificationChannels.enabled, true)));
}

/** A page of a channel's deliveries, newest first (UUIDv7 ids are time-ordered), and how many it has. */
export async function findDeliveryPage(
  db: Executor,
  input: { channelId: number; offset: number; limit: number },
): Promise<{ rows: NotificationDeliveryRow[]; total: number }> {
  const rows = await db
    .select()
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.channelId, input.channelId))
    .orderBy(desc(notificationDeliveries.id))
    .offset(input.offset)
    .limit(input.limit);
  const [counted] = await db
    .select({ total: count() })
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.channelId, input.channelId));

  return { rows, total: counted?.total ?? 0 };
}

export async function findDelivery(db: Executor, id: string): Promise<NotificationDeliveryRow | undefined> {
  const [row] = await db.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, id)).limit(1);

  return row;
}

/** The attempts of the deliveries `ids`, each delivery's first to last. */
export async function findAttempts(db: Executor, ids: string[]): Promise<NotificationDeliveryAttemptRow[]> {
  if (ids.length === 0) return [];

  return db
    .select()
    .from(notificationDeliveryAttempts)
    .where(inArray(notificationDeliveryAttempts.deliveryId, ids))
    .orderBy(asc(notificationDeliveryAttempts.deliveryId), asc(notificationDeliveryAttempts.attempt));
}

/** The users among `ids` who belong to `customerId` (USER_NOTIFICATION channels name the tenant's users). */
export async function findUsersOf(db: Executor, input: { customerId: number; ids: string[] }): Promise<string[]> {
  const valid = input.ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (valid.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.customerId, input.customerId), inArray(users.id, valid)));

  return rows.map((r) => r.id);
}

/** The bell's rows of one delivery; a second attempt of the same delivery adds none (the unique key). */
export async function insertUserNotifications(db: Executor, rows: (typeof userNotifications.$inferInsert)[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db.insert(userNotifications).values(rows).onConflictDoNothing().returning({ id: userNotifications.id });

  return inserted.length;
}

/** A page of the user's notifications, newest first (queued; then by delivery, UUIDv7 ids being monotonic), and how many there are. */
export async function findUserNotificationPage(
  db: Executor,
  input: { userId: string; unreadOnly: boolean; offset: number; limit: number },
): Promise<{ rows: UserNotificationRow[]; total: number }> {
  const where = and(eq(userNotifications.userId, input.userId), input.unreadOnly ? isNull(userNotifications.readAt) : undefined);
  const rows = await db
    .select()
    .from(userNotifications)
    .where(where)
    .orderBy(desc(userNotifications.createdAt), sql`${userNotifications.deliveryId} desc nulls last`, desc(userNotifications.id))
    .offset(input.offset)
    .limit(input.limit);
  const [counted] = await db.select({ total: count() }).from(userNotifications).where(where);

  return { rows, total: counted?.total ?? 0 };
}

export async function countUnread(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(userNotifications)
    .where(and(eq(userNotifications.userId, userId), isNull(userNotifications.readAt)));

  return row?.unread ?? 0;
}

/** Marks the user's notification `id` (or every unread one) read; answers how many were unread, or undefined for none such. */
export async function markRead(db: Executor, input: { userId: string; id?: string; now: Date }): Promise<number> {
  const updated = await db
    .update(userNotifications)
    .set({ readAt: input.now })
    .where(
      and(
        eq(userNotifications.userId, input.userId),
        input.id === undefined ? undefined : eq(userNotifications.id, input.id),
        isNull(userNotifications.readAt),
      ),
    )
    .returning({ id: userNotifications.id });

  return updated.length;
}

export async function userNotificationExists(db: Executor, input: { userId: string; id: string }): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(userNotifications)
    .where(and(eq(userNotifications.userId, input.userId), eq(userNotifications.id, input.id)))
    .limit(1);

  return row !== undefined;
}

/** The route sweep's resource: a notification of a new user of `customerId`. */
export async function insertSweepUserNotification(db: Executor, customerId: number): Promise<string> {
  const [user] = await db
    .insert(users)
    .values({ id: uuidv7(), customerId, email: `sweep-${uuidv7()}@example.com`, name: 'sweep', role: 'VIEWER' })
    .returning({ id: users.id });
  const now = new Date();
  const [row] = await db
    .insert(userNotifications)
    .values({
      id: uuidv7(),
      customerId,
      userId: user!.id,
      eventType: 'test',
      title: 'sweep',
      text: 'sweep',
      payload: { type: 'test', timestamp: now.toISOString(), data: { alertId: null, alertRuleId: null, alertRuleName: null, customerId } },
      createdAt: now,
    })
    .returning({ id: userNotifications.id });

  return row!.id;
}
