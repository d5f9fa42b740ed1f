import { describe, expect, it } from 'vitest';
import { addressNetwork, forwardedClientAddress } from './client-address';

describe('addressNetwork (what a per-address limit counts)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s counts as %s', (address, network) => {
    expect(addressNetwork(address)).toBe(network);
  });

  it('puts two addresses of one IPv6 /64 together and those of neighbouring /64s apart', () => {
    expect(addressNetwork('2001:db8:0:5::a')).toBe(addressNetwork('2001:db8:0:5:ffff::1'));
    expect(addressNetwork('2001:db8:0:5::a')).not.toBe(addressNetwork('2001:db8:0:6::a'));
  });
});

describe('forwardedClientAddress (the client behind trusted proxies)', () => {
  const proxies = ['10.0.0.0/8', '127.0.0.1'];

  it.each([
    // No proxy trusted: the connection, whatever the header says.
    ['203.0.113.7', '198.51.100.1', [], '203.0.113.7'],
    // From a trusted proxy: the address it appended.
    ['10.1.2.3', '198.51.100.1', proxies, '198.51.100.1'],
    ['::ffff:127.0.0.1', '198.51.100.1', proxies, '198.51.100.1'],
    // Two trusted hops: the first address from the right that is not one.
    ['127.0.0.1', '198.51.100.1, 10.9.9.9', proxies, '198.51.100.1'],
    // What the client wrote itself (left of the proxy's entry) is never believed.
    ['10.1.2.3', '192.0.2.66, 198.51.100.1', proxies, '198.51.100.1'],
    ['10.1.2.3', 'spoofed, 198.51.100.1', proxies, '198.51.100.1'],
    // Not from a proxy: the header is the caller's claim, ignored.
    ['203.0.113.7', '10.1.2.3', proxies, '203.0.113.7'],
    // From a proxy without the header: the proxy itself.
    ['10.1.2.3', undefined, proxies, '10.1.2.3'],
    // Every hop trusted: the leftmost.
    ['10.1.2.3', '10.0.0.5, 10.0.0.6', proxies, '10.0.0.5'],
    // A trusted hop that forwarded something unreadable.
    ['10.1.2.3', '198.51.100.1:443', proxies, 'unknown'],
    ['10.1.2.3', '2001:db8::1', proxies, '2001:db8::1'],
  ])('from %s with X-Forwarded-For %s (trusting %j): %s', (socket, forwarded, trusted, client) => {
    expect(forwardedClientAddress(socket, forwarded, trusted)).toBe(client);
  });

  it('reads at most 16 hops from the right: a header padded with trusted addresses is not walked to its start', () => {
    const padded = [...Array.from({ length: 2_000 }, () => '10.0.0.9'), '10.0.0.1'].join(', ');
    expect(forwardedClientAddress('10.1.2.3', `198.51.100.1, ${padded}`, proxies)).toBe('10.0.0.9');
    expect(forwardedClientAddress('10.1.2.3', `${padded}, 198.51.100.1`, proxies)).toBe('198.51.100.1');
  });

  it('without a socket address answers unknown', () => {
    expect(forwardedClientAddress(undefined, '198.51.100.1', proxies)).toBe('unknown');
  });
});
