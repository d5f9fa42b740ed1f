import { and, eq } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { notificationChannels, type NotificationChannelRow } from './notification-channels.table';

type ChannelValues = typeof notificationChannels.$inferInsert;

/** The channel `id` within the scope, locked until commit: updates and deletes of one channel serialise. */
export async function lockNotificationChannel(db: Executor, scope: TenantScope, id: number): Promise<NotificationChannelRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.id, id), scopeCondition(scope, notificationChannels.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function insertNotificationChannel(db: Executor, values: ChannelValues): Promise<NotificationChannelRow> {
  const [row] = await db.insert(notificationChannels).values(values).returning();

  return row!;
}

export async function updateNotificationChannel(db: Executor, row: NotificationChannelRow, values: Partial<ChannelValues>): Promise<void> {
  await db
    .update(notificationChannels)
    .set({ ...values, lastSavedAt: new Date() })
    .where(and(eq(notificationChannels.id, row.id), eq(notificationChannels.customerId, row.customerId)));
}

/** Deletes the channel and its team assignments; a rule referencing it (a plain foreign key) makes this fail. */
export async function deleteNotificationChannel(db: Executor, row: NotificationChannelRow): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, row.customerId),
        eq(teamAssignments.resourceType, 'notificationChannel'),
        eq(teamAssignments.resourceId, String(row.id)),
      ),
    );
  await db
    .delete(notificationChannels)
    .where(and(eq(notificationChannels.id, row.id), eq(notificationChannels.customerId, row.customerId)));
}
