import type { Logger } from 'pino';
import type { DatabaseHandle } from '@/server/db/client';
import { listenToChannel, type NotificationFeed } from '@/server/db/notification-feed';
import { parseAuthChange, type AuthCache } from './auth-cache';

/** The NOTIFY channel the database's triggers write to (server/db/custom-sql/auth_change_notify.sql). */
const AUTH_CHANGE_CHANNEL = 'auth_change';

export type AuthChangeListener = NotificationFeed;

/**
 * Feeds the database's `auth_change` notifications into `cache`, and tells it whether the feed is live:
 * while the feed is down the cache serves nothing (token look-ups go to the database), and it starts empty
 * when the feed is back, since whatever changed meanwhile was missed.
 */
export function startAuthChangeListener(
  handle: DatabaseHandle,
  cache: AuthCache,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<AuthChangeListener> {
  return listenToChannel(
    handle,
    AUTH_CHANGE_CHANNEL,
    { message: (payload) => cache.apply(parseAuthChange(payload)), live: (live) => cache.setFeedLive(live) },
    log,
  );
}
