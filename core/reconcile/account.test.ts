import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { accountKey, cleanAccount, givenAccount, lineSource, statementAccount } from './account.js';

describe('a statement’s bank account', () => {
  it('keeps the account as written, and one key for its spellings', () => {
    expect(cleanAccount('  0123-456\u3000789012 ')).toBe('0123-456 789012');
    expect(cleanAccount('')).toBeNull();
    expect(cleanAccount(42)).toBeNull();
    const key = accountKey('0123-456-789012');
    for (const other of ['0123 456 789012', '0123456789012', '０１２３－４５６－７８９０１２', '0123.456.789012'])
      expect(accountKey(other), other).toBe(key);
    expect(accountKey('0123-456-789013')).not.toBe(key);
  });

  it('takes the title row’s account, else the one given; refuses a given one that is not the file’s', () => {
    expect(statementAccount('帳號 0123-456-789012'.slice(3), null)).toBe('0123-456-789012');
    expect(statementAccount(undefined, '0123-456-789012')).toBe('0123-456-789012');
    expect(statementAccount(null, null)).toBeNull();
    expect(statementAccount('0123-456-789012', '0123456789012')).toBe('0123-456-789012');
    const err = (() => {
      try {
        statementAccount('0123-456-789012', '9999-456-789012');
      } catch (e) {
        return e;
      }
    })() as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.errors[0]).toEqual({
      field: 'account',
      message: '對帳單上的帳號是「0123-456-789012」，與指定的帳號「9999-456-789012」不同',
    });
  });

  it('checks a typed account', () => {
    expect(givenAccount(undefined)).toBeNull();
    expect(givenAccount('   ')).toBeNull();
    expect(givenAccount(' 0123-456 ')).toBe('0123-456');
    expect(() => givenAccount('1'.repeat(65))).toThrow(ValidationError);
    expect(() => givenAccount('12\u000734')).toThrow(ValidationError);
    expect(() => givenAccount(['0123'])).toThrow(ValidationError);
  });

  it('names the source the matcher learns habits per', () => {
    expect(lineSource('0123-456-789012', 3)).toBe('0123456789012');
    expect(lineSource(null, 3)).toBe('store:3');
    expect(lineSource(null, null)).toBe('all');
  });
});
