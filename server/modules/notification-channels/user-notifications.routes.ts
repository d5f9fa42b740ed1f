import { z } from '@hono/zod-openapi';
import { json, ListQuerySchema, pageOf } from '@/server/http/list-query';
import { notFoundError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { MarkedReadSchema, UnreadCountSchema, UserNotificationSchema } from './notification-deliveries.schemas';

/* The console's bell (USER_NOTIFICATION channels, spec 5 §5): every signed-in user, their own notifications only. */
const BASE = '/api/notification';
const tags = ['Notifications'];
const access = { minRole: 'DEVICE_USER', tenant: 'none' } as const;

export const listMyNotificationsRoute = defineRoute(access, {
  method: 'get',
  path: BASE,
  operationId: 'listMyNotifications',
  tags,
  summary: "The caller's notifications, newest first",
  request: {
    query: z.object({
      page: ListQuerySchema.shape.page,
      size: ListQuerySchema.shape.size,
      unread: z.enum(['true', 'false']).optional().openapi({ description: '`true`: only the unread ones' }),
    }),
  },
  responses: { 200: { description: 'A page of notifications', ...json(pageOf(UserNotificationSchema, 'UserNotificationPage')) } },
});

export const countMyUnreadNotificationsRoute = defineRoute(access, {
  method: 'get',
  path: `${BASE}/unreadCount`,
  operationId: 'countMyUnreadNotifications',
  tags,
  summary: "How many of the caller's notifications are unread",
  responses: { 200: { description: 'The unread count', ...json(UnreadCountSchema) } },
});

export const markMyNotificationReadRoute = defineRoute(
  access,
  {
    method: 'post',
    path: `${BASE}/{notificationId}/read`,
    operationId: 'markMyNotificationRead',
    tags,
    summary: 'Mark one of the caller’s notifications read',
    description: 'Another user’s notification is answered 404. Marking a read notification again changes nothing.',
    request: {
      params: z.object({
        notificationId: z
          .string()
          .uuid()
          .openapi({ param: { name: 'notificationId', in: 'path' }, description: 'The notification' }),
      }),
    },
    responses: { 204: { description: 'Read' }, ...notFoundError },
  },
  { resourceIds: { 'path.notificationId': 'userNotification' } },
);

export const markAllMyNotificationsReadRoute = defineRoute(access, {
  method: 'post',
  path: `${BASE}/readAll`,
  operationId: 'markAllMyNotificationsRead',
  tags,
  summary: "Mark every one of the caller's notifications read",
  responses: { 200: { description: 'How many were unread', ...json(MarkedReadSchema) } },
});
