import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.js';
import { generatedPassword } from '../bootstrap.js';
import { checkPasswordStrength, passwordWeakness } from './password.js';
import { checkNewPassword, validatePasswordChange, validateUser } from './validate.js';

const TEXTS = { required: MSG.passwordRequired, min: MSG.passwordMin, mismatch: MSG.passwordMismatch };

describe('weak passwords', () => {
  it('refuses the issue’s three and the username, each saying why', () => {
    expect(passwordWeakness('123456')).toBe('repetitive');
    expect(passwordWeakness('password')).toBe('common');
    expect(passwordWeakness('aaaaaa')).toBe('repetitive');
    expect(passwordWeakness('tpe_clerk', 'tpe_clerk')).toBe('username');
    expect(checkPasswordStrength('aaaaaa')).toBe(MSG.passwordWeak.repetitive);
    expect(checkPasswordStrength('password')).toMatch(/太常見/);
    expect(checkPasswordStrength('boss01', 'boss01')).toMatch(/不能是用戶名/);
  });

  it('refuses the username in another case, reversed, or with digits after it', () => {
    for (const p of ['BOSS01', 'Boss01', '10ssob', 'boss01123', 'boss01!'])
      expect(passwordWeakness(p, 'boss01')).toBe('username');
    expect(passwordWeakness('boss01 is my shop', 'boss01')).toBeNull();
  });

  it('refuses repeats, repeated blocks and runs along the alphabet, digits and keyboard', () => {
    for (const p of [
      '111111',
      'aaaaaaaa',
      '121212',
      'ababab',
      'aabbaa',
      'abcabc',
      '123123',
      'abc123abc123',
      '123456',
      '1234567890',
      '654321',
      'abcdef',
      'fedcba',
      'qwerty',
      'asdfgh',
      'zxcvbn',
      '1qaz2wsx',
    ]) {
      expect([p, passwordWeakness(p)]).toEqual([p, 'repetitive']);
    }
  });

  it('refuses common passwords and their stems with digits or symbols after them', () => {
    for (const p of [
      'PASSWORD',
      'iloveyou',
      'admin123',
      'Password2026!',
      'qwerty123',
      'a123456',
      '5201314',
      'abc12345',
      'taiwan888',
      'secret123',
      'welcome1',
    ]) {
      expect([p, passwordWeakness(p)]).toEqual([p, 'common']);
    }
  });

  it('accepts passwords that are none of these', () => {
    for (const p of [
      'Tpe-clerk-42',
      'clerk-pass',
      'boss-pass',
      'fresh-pass-2',
      '夜市紅茶45元',
      'my shop 2026',
      'bench-admin-pw',
      'hq-pass-1',
    ]) {
      expect([p, passwordWeakness(p, 'tpe01')]).toEqual([p, null]);
    }
  });

  it('is applied by every new-password check: the user form, the change form, the operator reset', () => {
    expect(checkNewPassword('123456', undefined, TEXTS)).toBe(MSG.passwordWeak.repetitive);
    const create = validateUser({ username: 'alice_01', password: 'alice_01', role: 'user' }, 'create');
    expect(create.ok).toBe(false);
    expect(!create.ok && create.errors).toEqual([{ field: 'password', message: MSG.passwordWeak.username }]);
    const change = validatePasswordChange({ currentPassword: 'x', newPassword: 'password' }, 'alice_01');
    expect(!change.ok && change.errors).toEqual([{ field: 'newPassword', message: MSG.passwordWeak.common }]);
    const own = validatePasswordChange({ currentPassword: 'x', newPassword: 'Alice_01' }, 'alice_01');
    expect(!own.ok && own.errors[0].message).toBe(MSG.passwordWeak.username);
  });

  it('the first start’s generated admin password passes', () => {
    for (let i = 0; i < 200; i++) expect(passwordWeakness(generatedPassword(), 'admin')).toBeNull();
  });
});
