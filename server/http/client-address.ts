import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from './context';

/**
 * The caller's network address, for failure limits and logs. Requests from the console's in-process
 * bridge (server/main.ts) carry the browser's address; others have their socket's.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const bridged = c.env?.bridgeClientAddress;
  if (bridged) return bridged;
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
