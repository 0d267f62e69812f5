import { describe, expect, it } from 'vitest';
import { afterLoginTarget } from './session';

const ORIGIN = 'https://remit.example.tw';

describe('afterLoginTarget', () => {
  it('refuses every way of naming another site, as the browser would read it', () => {
    for (const r of [
      '/\t/evil.example',
      '/%09/evil.example',
      '/\n/evil.example',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/admin',
      '/\\/evil.example',
      ' //evil.example',
    ]) {
      const target = afterLoginTarget(decodeURIComponent(encodeURIComponent(r)), ORIGIN);
      expect(target, JSON.stringify(r)).toBe('/admin');
      expect(new URL(target, ORIGIN).origin).toBe(ORIGIN);
    }
    // the query value as the login page reads it: %09 decoded to a tab
    expect(afterLoginTarget(new URLSearchParams('redirect=%2F%09%2Fevil.example').get('redirect'), ORIGIN)).toBe(
      '/admin',
    );
  });

  it("keeps the product's own pages with their query, and never the login page", () => {
    expect(afterLoginTarget('/admin/payments?filter=%7B%7D#x', ORIGIN)).toBe('/admin/payments?filter=%7B%7D#x');
    expect(afterLoginTarget('/', ORIGIN)).toBe('/');
    expect(afterLoginTarget('/admin/login?redirect=/admin', ORIGIN)).toBe('/admin');
    expect(afterLoginTarget('/elsewhere', ORIGIN)).toBe('/admin');
    expect(afterLoginTarget(null, ORIGIN)).toBe('/admin');
  });
});
