import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.js';
import { storeLabel } from '../labels.js';
import { validateStore } from './validate.js';

function fieldErrors(raw: unknown): Record<string, string> {
  const r = validateStore(raw);
  if (r.ok) return {};
  return Object.fromEntries(r.errors.map((e) => [e.field, e.message]));
}

describe('validateStore', () => {
  it('accepts a name and code, trimmed', () => {
    expect(validateStore({ name: ' 台北店 ', code: ' TPE-01 ' })).toEqual({
      ok: true,
      value: { name: '台北店', code: 'TPE-01' },
    });
  });

  it('needs a name and a code', () => {
    expect(fieldErrors({})).toEqual({ name: MSG.storeNameRequired, code: MSG.storeCodeRequired });
    expect(fieldErrors({ name: '  ', code: '' })).toEqual({ name: MSG.storeNameRequired, code: MSG.storeCodeRequired });
    expect(fieldErrors({ name: 5, code: 7 })).toEqual({ name: MSG.storeNameRequired, code: MSG.storeCodeRequired });
  });

  it('allows a name of at most 50 characters', () => {
    expect(fieldErrors({ name: '店'.repeat(50), code: 'A1' })).toEqual({});
    expect(fieldErrors({ name: '店'.repeat(51), code: 'A1' })).toEqual({ name: MSG.storeNameTooLong });
  });

  it('allows a code of letters, digits, underscore and hyphen, at most 20', () => {
    for (const code of ['A', 'tpe_01', 'KH-2', 'x'.repeat(20)]) expect(fieldErrors({ name: '店', code })).toEqual({});
    for (const code of ['台北', 'A B', 'A/B', 'x'.repeat(21), 'a.b']) {
      expect(fieldErrors({ name: '店', code })).toEqual({ code: MSG.storeCodePattern });
    }
  });
});

describe('storeLabel', () => {
  it('shows a store as name (code)', () => {
    expect(storeLabel({ name: '台北店', code: 'TPE' })).toBe('台北店 (TPE)');
  });

  it('shows an unknown store as 未知分店', () => {
    expect(storeLabel(null)).toBe('未知分店');
    expect(storeLabel(undefined)).toBe('未知分店');
  });
});
