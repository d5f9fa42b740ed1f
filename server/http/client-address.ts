import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import type { AppEnv } from './context';

/**
 * The caller's network address, for failure limits and logs. Requests from the console's in-process
 * bridge (server/main.ts) carry the browser's address (resolved there by `forwardedClientAddress`); others their
 * socket's, or the client a trusted proxy names.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const bridged = c.env?.bridgeClientAddress;
  if (bridged) return bridged;
  let socketAddress: string | undefined;
  try {
    socketAddress = getConnInfo(c).remote.address;
  } catch {
    return 'unknown';
  }

  return forwardedClientAddress(socketAddress, c.req.header('x-forwarded-for'), c.var.deps.config.trustedProxies);
}

/** The hops of `X-Forwarded-For` read at most, from the right. */
const MAX_FORWARDED_HOPS = 16;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const parsedRanges = new WeakMap<readonly string[], Range[]>();

function rangesOf(trusted: readonly string[]): Range[] {
  let ranges = parsedRanges.get(trusted);
  if (!ranges) {
    // Validated by the configuration (TRUSTED_PROXIES); a single address is its own /32 or /128.
    ranges = trusted.map((entry) => {
      if (ipaddr.isValidCIDR(entry)) {
        const [address, bits] = ipaddr.parseCIDR(entry);

        return [processed(address), address.kind() === 'ipv6' && processed(address).kind() === 'ipv4' ? Math.max(0, bits - 96) : bits];
      }
      const address = processed(ipaddr.parse(entry));

      return [address, address.kind() === 'ipv4' ? 32 : 128];
    });
    parsedRanges.set(trusted, ranges);
  }

  return ranges;
}

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, what a dual-stack socket reports) as its IPv4 address. */
const processed = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;

function isTrusted(address: string, ranges: Range[]): boolean {
  if (ranges.length === 0 || !ipaddr.isValid(address)) return false;
  const parsed = processed(ipaddr.parse(address));

  return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

/**
 * The client behind the proxies: the connection's address unless it is a trusted proxy; then `X-Forwarded-For` read
 * from the right (each proxy appends the address it was connected from), skipping trusted proxies, up to the first
 * address that is not one. Entries left of that are the client's own claims and never read, so a client cannot
 * choose the address it is counted under. A trusted hop that forwarded an unreadable entry answers `unknown`.
 */
export function forwardedClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: readonly string[],
): string {
  if (!socketAddress) return 'unknown';
  const ranges = rangesOf(trusted);
  if (!isTrusted(socketAddress, ranges) || !forwardedFor) return socketAddress;
  // No deployment chains more than a few proxies; a client padding the header with addresses in a trusted range is not
  // walked further than this (each hop is parsed and matched; the header itself is bounded by Node's 16 KiB).
  const hops = forwardedFor.split(',').slice(-MAX_FORWARDED_HOPS);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (!ipaddr.isValid(hop)) return 'unknown';
    if (!isTrusted(hop, ranges) || i === 0) return processed(ipaddr.parse(hop)).toString();
  }

  return socketAddress;
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
