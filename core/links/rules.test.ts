import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isLinkToken,
  isTrackingNumber,
  LINK_TOKEN_BYTES,
  linkUrl,
  statusPath,
  unreachableFromOutside,
} from './rules.js';

describe("a store's public link: the pure rules", () => {
  it('a token is 128 random bits, 22 url-safe characters; anything else is refused before a lookup', () => {
    const token = randomBytes(LINK_TOKEN_BYTES).toString('base64url');
    expect(LINK_TOKEN_BYTES * 8).toBeGreaterThanOrEqual(128);
    expect(isLinkToken(token)).toBe(true);
    for (const bad of ['', 'short', `${token}x`, `${token.slice(0, 21)}/`, "' OR 1=1 --", 12, null])
      expect(isLinkToken(bad)).toBe(false);
  });
  it('addresses: the link on the public address, the status page by tracking number', () => {
    expect(linkUrl('https://pay.example.tw/', 'A'.repeat(22))).toBe(`https://pay.example.tw/r/${'A'.repeat(22)}`);
    expect(statusPath('ABCDEF01-0000-4000-8000-000000000000')).toBe('/r/status/abcdef01-0000-4000-8000-000000000000');
    expect(isTrackingNumber('abcdef01-0000-4000-8000-000000000000')).toBe(true);
    expect(isTrackingNumber('abcdef01')).toBe(false);
  });
});

describe('an address customers cannot reach', () => {
  it('is this machine or a private network, never a public name or address', () => {
    for (const url of [
      'http://localhost:3000/r/x',
      'http://127.0.0.1:47411/r/x',
      'http://[::1]:3000/r/x',
      'http://10.0.0.5/r/x',
      'http://172.16.1.1/r/x',
      'http://172.31.255.1/r/x',
      'http://192.168.1.20:3000/r/x',
      'http://169.254.1.1/r/x',
      'http://shop.local/r/x',
      'http://0.0.0.0:3000/r/x',
      'http://[fd12::1]/r/x',
    ]) {
      expect(unreachableFromOutside(url), url).toBe(true);
    }
    for (const url of [
      'https://remit.example.tw/r/x',
      'http://172.32.0.1/r/x',
      'http://203.0.113.9/r/x',
      'http://192.169.1.1/r/x',
      'not a url',
    ]) {
      expect(unreachableFromOutside(url), url).toBe(false);
    }
  });
});
