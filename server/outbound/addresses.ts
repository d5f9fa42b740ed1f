import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressPolicy = { allowPrivateNetwork: boolean };

/** Cloud metadata services: refused even on an intranet deployment (they hand out the host's credentials). */
const metadataAddresses = [ipaddr.parse('169.254.169.254'), ipaddr.parse('fd00:ec2::254')];

/** Global unicast IPv6 (RFC 4291): everything outside it is not an address on the public internet. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (`::a.b.c.d`, RFC 4291 §2.5.5.1, deprecated): ipaddr.js names it unicast. */
const ipv4Compatible = ipaddr.parseCIDR('::/96');

/** What allowPrivateNetwork lifts: the spec's "loopback and private", read literally (README, "Decisions"). */
const liftedRanges = new Set(['loopback', 'private']);

/** A phrase that completes "The address … is …" for each range ipaddr.js names; anything else is "reserved". */
const rangePhrases: Record<string, string> = {
  unspecified: 'unspecified (0.0.0.0/8, ::)',
  broadcast: 'the broadcast address',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'in the shared address space 100.64.0.0/10',
  private: 'private',
  uniqueLocal: 'unique-local (fc00::/7)',
  deprecatedSiteLocal: 'site-local (fec0::/10)',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address (64:ff9b::/96)',
  '6to4': 'a 6to4 address (2002::/16)',
  teredo: 'a Teredo address (2001::/32)',
};

/**
 * An IPv6 address with a dotted IPv4 tail spelt in hexadecimal: ipaddr.js 2.5 reads `::127.0.0.1` (IPv4-compatible,
 * as glibc prints ::7f00:1) as the IPv4-mapped ::ffff:127.0.0.1.
 */
function withHexTail(address: string): string {
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(address);
  if (!dotted) {
    return address;
  }
  const [, head = '', a, b, c, d, zone = ''] = dotted;
  const octets = [a, b, c, d].map(Number);
  if (octets.some((octet) => octet > 255)) {
    return address;
  }
  const [o0 = 0, o1 = 0, o2 = 0, o3 = 0] = octets;

  return `${head}${((o0 << 8) | o1).toString(16)}:${((o2 << 8) | o3).toString(16)}${zone}`;
}

/** Parses any spelling ipaddr.js reads (decimal, hex and octal IPv4 parts too), IPv4-mapped IPv6 as IPv4. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const spelt = address.includes(':') ? withHexTail(address) : address;
  if (!ipaddr.isValid(spelt)) {
    return undefined;
  }

  return ipaddr.process(spelt);
}

function isSameAddress(left: ipaddr.IPv4 | ipaddr.IPv6, right: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const leftBytes = left.toByteArray();
  const rightBytes = right.toByteArray();

  return leftBytes.length === rightBytes.length && leftBytes.every((byte, index) => byte === rightBytes[index]);
}

/**
 * Why an outbound request may not go to this IP address, as a phrase that completes "The address … is …", or
 * undefined when it may. Only public unicast addresses pass; `allowPrivateNetwork` also lets loopback and
 * private (RFC 1918) addresses through, never the cloud metadata addresses.
 */
export function refusedAddressReason(address: string, options: AddressPolicy): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed) {
    return 'not an IP address';
  }
  if (metadataAddresses.some((metadata) => isSameAddress(parsed, metadata))) {
    return 'a cloud metadata address';
  }
  // ipaddr.js's range names are wider than its typings (deprecatedSiteLocal, discard, segmentRouting, …).
  const range: string = parsed.range();
  if (range === 'unicast') {
    if (parsed.kind() === 'ipv4' || parsed.match(globalUnicast)) {
      return undefined;
    }

    return parsed.match(ipv4Compatible) ? 'an IPv4-compatible address (::/96)' : 'reserved';
  }
  if (options.allowPrivateNetwork && liftedRanges.has(range)) {
    return undefined;
  }

  return rangePhrases[range] ?? 'reserved';
}

/** The canonical text of an address (IPv4-mapped IPv6 as IPv4), or undefined when it is not one. */
export function canonicalAddress(address: string): string | undefined {
  return parseAddress(address)?.toString();
}

/** The IP address a URL's hostname names literally (`[::1]` unbracketed), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

  return isIP(bare) === 0 ? undefined : bare;
}
