'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { Schemas } from '@/lib/api/types';

export type UserNotification = Schemas['UserNotification'];

/** The signed-in user's own notifications (the bell): tenant-independent, so no tenant in the keys. */
const notificationKeys = {
  all: ['notifications'] as const,
  unreadCount: () => [...notificationKeys.all, 'unreadCount'] as const,
  latest: (size: number) => [...notificationKeys.all, 'latest', { size }] as const,
};

/** How often the bell asks for the unread count (also on window focus). */
const UNREAD_POLL_MS = 30_000;

export function useUnreadNotificationCount() {
  return useQuery({
    queryKey: notificationKeys.unreadCount(),
    queryFn: ({ signal }) => ok(api.GET('/api/notification/unreadCount', { signal })),
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
    select: (answer) => answer.unread,
  });
}

/** The latest notifications, read while the bell's list is open. */
export function useLatestNotifications(size: number, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: notificationKeys.latest(size),
    queryFn: ({ signal }) => ok(api.GET('/api/notification', { params: { query: { page: 0, size } }, signal })),
    enabled,
    refetchOnWindowFocus: true,
  });
}

function useNotificationMutation<TInput>(run: (input: TInput) => Promise<unknown>) {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useMarkNotificationRead() {
  return useNotificationMutation((id: string) =>
    ok(api.POST('/api/notification/{notificationId}/read', { params: { path: { notificationId: id } } })),
  );
}

export function useMarkAllNotificationsRead() {
  return useNotificationMutation(() => ok(api.POST('/api/notification/readAll')));
}

/** Everything the bell shows is stale after a channel test may have notified the user. */
export function useRefreshNotifications() {
  const queryClient = useQueryClient();

  return () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}
