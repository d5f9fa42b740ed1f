import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '@/server/db/client';
import { parseAuthChange, type AuthCache } from './auth-cache';

/** The NOTIFY channel the database's triggers write to (server/db/custom-sql/auth_change_notify.sql). */
export const AUTH_CHANGE_CHANNEL = 'auth_change';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export type AuthChangeListener = { stop: () => Promise<void> };

/**
 * Feeds the database's `auth_change` notifications into `cache`, and tells it whether the feed is live.
 * PGlite: its own LISTEN (one process, one database). PostgreSQL: a dedicated connection outside the pool;
 * when it drops, the cache stops serving and forgets everything, and the listener reconnects with back-off.
 */
export async function startAuthChangeListener(handle: DatabaseHandle, cache: AuthCache, log: Pick<Logger, 'info' | 'warn'>): Promise<AuthChangeListener> {
  if (handle.pglite) {
    const unlisten = await handle.pglite.listen(AUTH_CHANGE_CHANNEL, (payload) => cache.apply(parseAuthChange(payload)));
    cache.setFeedLive(true);

    return {
      stop: async () => {
        cache.setFeedLive(false);
        await unlisten().catch(() => undefined);
      },
    };
  }
  if (!handle.pool) throw new Error('The database handle has neither PGlite nor a pool');

  return listenOnPostgres(handle.pool.options, cache, log);
}

async function listenOnPostgres(options: pg.PoolConfig, cache: AuthCache, log: Pick<Logger, 'info' | 'warn'>): Promise<AuthChangeListener> {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MIN_MS;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ ...options, application_name: 'signage-auth-change-listener' } as pg.ClientConfig);
    next.on('notification', (message) => {
      if (message.channel === AUTH_CHANGE_CHANNEL) cache.apply(parseAuthChange(message.payload));
    });
    next.on('error', (err) => lost(next, err));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${AUTH_CHANGE_CHANNEL}`);
    } catch (err) {
      next.removeAllListeners('end');
      await next.end().catch(() => undefined);
      throw err;
    }
    if (stopped) {
      await next.end().catch(() => undefined);

      return;
    }
    client = next;
    delay = RECONNECT_MIN_MS;
    // Live only from here: whatever changed before LISTEN was missed, and setFeedLive(true) clears the cache.
    cache.setFeedLive(true);
  };

  const lost = (which: pg.Client, err?: unknown) => {
    if (which !== client || stopped) return;
    client = undefined;
    cache.setFeedLive(false);
    log.warn({ err }, 'auth change feed lost: token look-ups go to the database until it is back');
    schedule();
  };

  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect()
        .then(() => log.info('auth change feed back'))
        .catch((err: unknown) => {
          log.warn({ err }, 'auth change feed: reconnect failed');
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          schedule();
        });
    }, delay);
    retry.unref();
  };

  try {
    await connect();
  } catch (err) {
    log.warn({ err }, 'auth change feed: connect failed; token look-ups go to the database until it is up');
    schedule();
  }

  return {
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      cache.setFeedLive(false);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
