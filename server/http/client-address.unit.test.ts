import { describe, expect, it } from 'vitest';
import { addressNetwork } from './client-address';

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
