import ipaddr from 'ipaddr.js';
import { describe, expect, test } from 'vitest';
import { refusedAddressReason } from './index';

const closed = { allowPrivateNetwork: false };
const intranet = { allowPrivateNetwork: true };

/** [range, an address in it, the phrase expected]. */
const refusedIpv4: Array<[string, string, string]> = [
  ['loopback 127/8', '127.0.0.1', 'loopback'],
  ['loopback 127/8, far end', '127.255.255.254', 'loopback'],
  ['private 10/8', '10.0.0.5', 'private'],
  ['private 172.16/12', '172.16.0.1', 'private'],
  ['private 172.16/12, far end', '172.31.255.255', 'private'],
  ['private 192.168/16', '192.168.1.1', 'private'],
  ['shared 100.64/10', '100.64.0.1', 'in the shared address space 100.64.0.0/10'],
  ['shared 100.64/10, far end', '100.127.255.255', 'in the shared address space 100.64.0.0/10'],
  ['link-local 169.254/16', '169.254.1.1', 'link-local'],
  ['multicast 224/4', '224.0.0.1', 'multicast'],
  ['multicast 224/4, far end', '239.255.255.250', 'multicast'],
  ['unspecified 0.0.0.0', '0.0.0.0', 'unspecified (0.0.0.0/8, ::)'],
  ['this network 0/8', '0.1.2.3', 'unspecified (0.0.0.0/8, ::)'],
  ['broadcast', '255.255.255.255', 'the broadcast address'],
  ['reserved 240/4', '240.0.0.1', 'reserved'],
  ['IETF protocol assignments 192.0.0/24', '192.0.0.8', 'reserved'],
  ['TEST-NET-1', '192.0.2.1', 'reserved'],
  ['TEST-NET-2', '198.51.100.1', 'reserved'],
  ['TEST-NET-3', '203.0.113.1', 'reserved'],
  ['benchmarking 198.18/15', '198.19.0.1', 'reserved'],
  ['6to4 relay anycast 192.88.99/24', '192.88.99.1', 'reserved'],
  ['AS112 192.175.48/24', '192.175.48.1', 'reserved'],
  ['AMT 192.52.193/24', '192.52.193.1', 'reserved'],
  ['cloud metadata', '169.254.169.254', 'a cloud metadata address'],
];

const refusedIpv6: Array<[string, string, string]> = [
  ['loopback ::1', '::1', 'loopback'],
  ['unspecified ::', '::', 'unspecified (0.0.0.0/8, ::)'],
  ['link-local fe80::/10', 'fe80::1', 'link-local'],
  ['link-local with a zone', 'fe80::1%eth0', 'link-local'],
  ['unique-local fc00::/7', 'fc00::1', 'unique-local (fc00::/7)'],
  ['unique-local fd00::/8', 'fd12:3456:789a::1', 'unique-local (fc00::/7)'],
  ['multicast ff00::/8', 'ff02::1', 'multicast'],
  ['NAT64 64:ff9b::/96', '64:ff9b::a00:5', 'a NAT64 address (64:ff9b::/96)'],
  ['NAT64 of a public address', '64:ff9b::808:808', 'a NAT64 address (64:ff9b::/96)'],
  ['local-use NAT64 64:ff9b:1::/48', '64:ff9b:1::1', 'a NAT64 address (64:ff9b::/96)'],
  ['6to4 2002::/16', '2002:a00:5::1', 'a 6to4 address (2002::/16)'],
  ['Teredo 2001::/32', '2001:0:4136:e378::1', 'a Teredo address (2001::/32)'],
  ['documentation 2001:db8::/32', '2001:db8::1', 'reserved'],
  ['documentation 3fff::/20', '3fff::1', 'reserved'],
  ['discard 100::/64', '100::1', 'reserved'],
  ['site-local fec0::/10', 'fec0::1', 'site-local (fec0::/10)'],
  ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:a00:5', 'an IPv4-translated address'],
  ['IPv4-compatible ::/96', '::a00:5', 'an IPv4-compatible address (::/96)'],
  ['IPv4-compatible loopback', '::127.0.0.1', 'an IPv4-compatible address (::/96)'],
  ['IPv4-compatible public, as glibc prints it', '::8.8.8.8', 'an IPv4-compatible address (::/96)'],
  ['outside 2000::/3', '4000::1', 'reserved'],
  ['cloud metadata', 'fd00:ec2::254', 'a cloud metadata address'],
];

/** ::ffff:a.b.c.d in its dotted and its hexadecimal spelling. */
function mappedForms(ipv4: string): string[] {
  const mapped = ipaddr.IPv4.parse(ipv4).toIPv4MappedAddress();

  return [`::ffff:${ipv4}`, mapped.toString(), mapped.toNormalizedString()];
}

const publicAddresses = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '11.0.0.1',
  '172.32.0.1',
  '172.15.255.255',
  '100.128.0.1',
  '100.63.255.255',
  '192.169.0.1',
  '169.255.0.1',
  '223.255.255.254',
  '::ffff:8.8.8.8',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:4860:4860::8888',
];

describe('refusedAddressReason', () => {
  test.each(refusedIpv4)('refuses IPv4 %s (%s)', (_range, address, phrase) => {
    expect(refusedAddressReason(address, closed)).toBe(phrase);
  });

  test.each(refusedIpv4.flatMap(([range, address, phrase]) => mappedForms(address).map((form) => [range, form, phrase])))(
    'refuses the IPv4-mapped form of %s (%s)',
    (_range, address, phrase) => {
      expect(refusedAddressReason(address, closed)).toBe(phrase);
    },
  );

  test.each(refusedIpv6)('refuses IPv6 %s (%s)', (_range, address, phrase) => {
    expect(refusedAddressReason(address, closed)).toBe(phrase);
  });

  test.each(publicAddresses)('lets the public address %s through', (address) => {
    expect(refusedAddressReason(address, closed)).toBeUndefined();
    expect(refusedAddressReason(address, intranet)).toBeUndefined();
  });

  test.each(['example.com', '', ' 8.8.8.8', '1.2.3.4.5', '::ffff::1', '256.1.1.1'])('refuses %j: not an IP address', (text) => {
    expect(refusedAddressReason(text, closed)).toBe('not an IP address');
  });
});

describe('refusedAddressReason with allowPrivateNetwork', () => {
  const lifted = ['127.0.0.1', '127.0.1.1', '::1', '10.0.0.5', '172.16.0.1', '192.168.1.1', '::ffff:10.0.0.5', '::ffff:7f00:1'];

  test.each(lifted)('lets loopback or private %s through', (address) => {
    expect(refusedAddressReason(address, closed)).toBeDefined();
    expect(refusedAddressReason(address, intranet)).toBeUndefined();
  });

  // The spec lifts "loopback and private", read literally: the other ranges stay refused (README, "Decisions").
  const stillRefused = ['169.254.1.1', 'fe80::1', 'fc00::1', 'fd12::1', '100.64.0.1', '0.0.0.0', '::', '224.0.0.1', '64:ff9b::a00:5'];

  test.each(stillRefused)('still refuses %s', (address) => {
    expect(refusedAddressReason(address, intranet)).toBeDefined();
  });

  const metadataSpellings = [
    '169.254.169.254',
    '2852039166',
    '0xa9fea9fe',
    '0xA9FEA9FE',
    '0251.0376.0251.0376',
    '0xa9.0xfe.0xa9.0xfe',
    '169.254.43518',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:a9fe:a9fe',
    'fd00:ec2::254',
    'FD00:EC2::254',
    'fd00:ec2:0:0:0:0:0:254',
    'fd00:0ec2:0000:0000:0000:0000:0000:0254',
    'fd00:ec2::254%eth0',
  ];

  test.each(metadataSpellings)('never lets the cloud metadata address through, spelt %s', (address) => {
    expect(refusedAddressReason(address, intranet)).toBe('a cloud metadata address');
    expect(refusedAddressReason(address, closed)).toBe('a cloud metadata address');
  });
});
