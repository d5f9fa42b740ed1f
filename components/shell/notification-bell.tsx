'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { relativeTime } from '@/components/datasources/datasource-status';
import { notificationHref, notificationSummary } from '@/components/shell/notification-link';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { BellIcon, CheckIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import {
  useLatestNotifications,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useUnreadNotificationCount,
  type UserNotification,
} from '@/lib/api/notifications';
import { cn } from '@/lib/cn';
import { useFormat } from '@/lib/i18n/use-format';

/** How many of the latest notifications the list shows. */
const LATEST = 10;

function NotificationItem({ notification, now, onOpen }: { notification: UserNotification; now: number; onOpen: () => void }) {
  const t = useTranslations('shell.notifications');
  const format = useFormat();

  return (
    <DropdownMenuItem onSelect={onOpen} className="items-start gap-2.5" data-testid="notification-item">
      <span
        aria-hidden="true"
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', notification.read ? 'bg-transparent' : 'bg-brand-600')}
      />
      <span className="min-w-0 flex-1">
        <span className={cn('block truncate', notification.read ? 'text-zinc-700' : 'font-semibold text-zinc-900')}>
          {notification.title}
        </span>
        <span className="line-clamp-2 text-xs text-zinc-500">{notificationSummary(notification)}</span>
        <time
          dateTime={new Date(notification.createdAt).toISOString()}
          title={format.dateTime(notification.createdAt)}
          className="text-xs text-zinc-400"
        >
          {relativeTime(Math.min(notification.createdAt, now), now, format.locale)}
        </time>
      </span>
      {notification.read ? null : <span className="sr-only">{t('unread')}</span>}
    </DropdownMenuItem>
  );
}

/**
 * The bell of the signed-in user's console notifications (USER_NOTIFICATION channels): the unread count, asked every
 * 30 s and on window focus, and the latest ones; opening one marks it read and goes to its screen or datasource.
 */
export function NotificationBell() {
  const t = useTranslations('shell.notifications');
  const router = useRouter();
  const [isOpen, setIsOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(0);
  const unread = useUnreadNotificationCount();
  const latest = useLatestNotifications(LATEST, { enabled: isOpen });
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const count = unread.data ?? 0;
  const items = latest.data?.content ?? [];

  function open(notification: UserNotification) {
    if (!notification.read) markRead.mutate(notification.id);
    const href = notificationHref(notification.data);
    if (href) router.push(href);
  }

  return (
    <DropdownMenu
      open={isOpen}
      onOpenChange={(next) => {
        setIsOpen(next);
        // Relative times are counted from when the list opened (a render must not read the clock).
        if (next) setOpenedAt(Date.now());
      }}
    >
      <DropdownMenuTrigger
        className="relative inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 data-[state=open]:bg-zinc-100"
        aria-label={count > 0 ? t('labelUnread', { count }) : t('label')}
        data-testid="notification-bell"
      >
        <BellIcon className="size-5" />
        {count > 0 ? (
          <span
            aria-hidden="true"
            data-testid="notification-count"
            className="absolute -top-0.5 -right-0.5 inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-none font-semibold text-white tabular-nums ring-2 ring-white"
          >
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-[min(24rem,calc(100vw-2rem))]">
        <DropdownMenuLabel className="flex items-center justify-between gap-2">
          <span className="text-sm font-semibold text-zinc-900">{t('title')}</span>
          <span className="text-xs text-zinc-500">{t('unreadCount', { count })}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
          {latest.isPending ? (
            <p className="flex items-center gap-2 px-2.5 py-3 text-zinc-500">
              <Spinner className="size-4" />
              {t('loading')}
            </p>
          ) : null}
          {latest.isError ? <p className="px-2.5 py-3 text-red-700">{t('loadError')}</p> : null}
          {latest.isSuccess && items.length === 0 ? <p className="px-2.5 py-3 text-zinc-500">{t('empty')}</p> : null}
          {items.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} now={openedAt} onOpen={() => open(notification)} />
          ))}
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={count === 0 || markAll.isPending}
          onSelect={(event) => {
            // The list stays open, to show everything read.
            event.preventDefault();
            markAll.mutate();
          }}
        >
          {markAll.isPending ? <Spinner className="size-4 text-zinc-500" /> : <CheckIcon className="size-4 text-zinc-500" />}
          {t('markAllRead')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
