import type { ServiceContext } from '@/server/context/service-context';
import { NotFoundError } from '@/server/errors';
import { buildPage, parsePaging } from '@/server/query';
import * as q from './notification-deliveries.queries';
import type { UserNotification } from './notification-deliveries.schemas';
import type { UserNotificationRow } from './notification-deliveries.table';

/*
 * The console's bell (USER_NOTIFICATION): a user reads and marks only their own notifications, whatever their role or
 * tenant scope; someone else's id is answered like a missing one.
 */

/** GET /api/notification: newest first (by when each was queued), paged; `unread` only the unread ones. */
export async function listMyNotifications(ctx: ServiceContext, input: { page?: string; size?: string; unread?: 'true' | 'false' }) {
  const paging = parsePaging({ page: input.page, size: input.size });
  const { rows, total } = await q.findUserNotificationPage(ctx.db, {
    userId: ctx.actor.userId,
    unreadOnly: input.unread === 'true',
    offset: paging.page * paging.size,
    limit: paging.size,
  });

  return buildPage<UserNotification>(rows.map(notificationOf), paging, total, 'createdAt,desc');
}

/** GET /api/notification/unreadCount. */
export async function countMyUnread(ctx: ServiceContext): Promise<{ unread: number }> {
  return { unread: await q.countUnread(ctx.db, ctx.actor.userId) };
}

/** POST /api/notification/{notificationId}/read: 404 unless it is the caller's. */
export async function markMyNotificationRead(ctx: ServiceContext, input: { id: string }): Promise<void> {
  const marked = await q.markRead(ctx.db, { userId: ctx.actor.userId, id: input.id, now: new Date() });
  if (marked === 0 && !(await q.userNotificationExists(ctx.db, { userId: ctx.actor.userId, id: input.id })))
    throw new NotFoundError('userNotification', input.id);
}

/** POST /api/notification/readAll. */
export async function markAllMyNotificationsRead(ctx: ServiceContext): Promise<{ marked: number }> {
  return { marked: await q.markRead(ctx.db, { userId: ctx.actor.userId, now: new Date() }) };
}

function notificationOf(row: UserNotificationRow): UserNotification {
  return {
    id: row.id,
    type: row.eventType,
    title: row.title,
    text: row.text,
    channelId: row.channelId ?? undefined,
    createdAt: row.createdAt.getTime(),
    read: row.readAt !== null,
    readAt: row.readAt?.getTime(),
    data: row.payload.data,
  };
}
