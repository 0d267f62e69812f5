import { describe, expect, it } from 'vitest';
import { addressNetwork, ipv4Block } from './network.js';

describe('addressNetwork', () => {
  it('counts an IPv6 subscriber’s /64 as one, however the address is written', () => {
    const one = addressNetwork('2001:db8:1:2::1');
    for (const a of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:9',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::1.2.3.4',
    ])
      expect(addressNetwork(a), a).toBe(one);
    expect(one).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:db8:1:3::1')).not.toBe(one);
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
  });

  it('an IPv4 address is itself, also as a dual-stack server sees it', () => {
    expect(addressNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(addressNetwork('198.51.100.8')).not.toBe('198.51.100.7');
    expect(ipv4Block('198.51.100.7')).toBe('198.51.100.0/24');
    expect(ipv4Block('2001:db8:1:2::/64')).toBeNull();
  });

  it('something that is no address is kept short, never dropped', () => {
    expect(addressNetwork(null)).toBe('');
    expect(addressNetwork('x'.repeat(500))).toHaveLength(64);
  });
});
