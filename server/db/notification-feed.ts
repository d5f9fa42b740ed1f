import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseHandle, Executor } from './client';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export type NotificationFeed = { stop: () => Promise<void> };

/**
 * `NOTIFY channel, payload` for each payload, in one statement. Inside a transaction they go out when it
 * commits, and not at all if it rolls back. A payload must stay under PostgreSQL's 8000 bytes.
 */
export async function notifyChannel(db: Executor, channel: string, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  // One text[] parameter (drizzle would bind an array as a list of parameters): elements quoted and escaped.
  const literal = `{${payloads.map((p) => `"${p.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  await db.execute(sql`select pg_notify(${channel}, p) from unnest(${literal}::text[]) as p`);
}

export type NotificationHandlers = {
  /** One `NOTIFY channel, payload`, from this instance or any other on the database. */
  message: (payload: string) => void;
  /**
   * The feed is up (true) or lost (false). What was notified while it was down is gone: a consumer that
   * caches must drop its cache when the feed comes back.
   */
  live?: (live: boolean) => void;
};

/**
 * Listens to one NOTIFY channel of the database (STACK-NOTES: payloads ≤ 8000 bytes, ids only). PGlite: its
 * own LISTEN (one process, one database). PostgreSQL: a dedicated connection outside the pool that reconnects
 * with back-off when it drops.
 */
export async function listenToChannel(
  handle: DatabaseHandle,
  channel: string,
  handlers: NotificationHandlers,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<NotificationFeed> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
  if (handle.pglite) {
    const unlisten = await handle.pglite.listen(channel, handlers.message);
    handlers.live?.(true);

    return {
      stop: async () => {
        handlers.live?.(false);
        await unlisten().catch(() => undefined);
      },
    };
  }
  if (!handle.pool) throw new Error('The database handle has neither PGlite nor a pool');

  return listenOnPostgres(handle.pool.options, channel, handlers, log);
}

async function listenOnPostgres(
  options: pg.PoolConfig,
  channel: string,
  handlers: NotificationHandlers,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<NotificationFeed> {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MIN_MS;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ ...options, application_name: `signage-listen-${channel}` } as pg.ClientConfig);
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.message(message.payload ?? '');
    });
    next.on('error', (err) => lost(next, err));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
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
    handlers.live?.(true);
  };

  const lost = (which: pg.Client, err?: unknown) => {
    if (which !== client || stopped) return;
    client = undefined;
    handlers.live?.(false);
    log.warn({ err, channel }, 'notification feed lost; reconnecting');
    schedule();
  };

  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect()
        .then(() => log.info({ channel }, 'notification feed back'))
        .catch((err: unknown) => {
          log.warn({ err, channel }, 'notification feed: reconnect failed');
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          schedule();
        });
    }, delay);
    retry.unref();
  };

  try {
    await connect();
  } catch (err) {
    log.warn({ err, channel }, 'notification feed: connect failed; retrying');
    schedule();
  }

  return {
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      handlers.live?.(false);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
