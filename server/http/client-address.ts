import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
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

/**
 * The network a limit per client address counts: an IPv4 address itself, an IPv6 address its /64 (one subscriber
 * or host usually holds a whole /64, so counting single IPv6 addresses would let one caller spread over millions).
 * An IPv4-mapped IPv6 address is its IPv4 address; anything unparsable is counted as it is.
 */
export function addressNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  const parts = parsed.parts.slice(0, 4).map((part) => part.toString(16));

  return `${parts.join(':')}::/64`;
}
