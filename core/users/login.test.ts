import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.js';
import { validateLogin } from './login.js';

function fieldErrors(raw: unknown): Record<string, string> {
  const r = validateLogin(raw);
  if (r.ok) return {};
  return Object.fromEntries(r.errors.map((e) => [e.field, e.message]));
}

describe('login form: username and password both required', () => {
  it('accepts both, trimming the username but not the password', () => {
    expect(validateLogin({ username: ' admin ', password: ' pass word ' })).toEqual({
      ok: true,
      value: { username: 'admin', password: ' pass word ' },
    });
  });

  it('needs a username', () => {
    for (const username of [undefined, null, '', '   ', 42]) {
      expect(fieldErrors({ username, password: 'secret1' })).toEqual({ username: MSG.loginUsernameRequired });
    }
  });

  it('needs a password', () => {
    for (const password of [undefined, null, '', '   ', 123456]) {
      expect(fieldErrors({ username: 'admin', password })).toEqual({ password: MSG.loginPasswordRequired });
    }
  });

  it('reports both when both are missing', () => {
    expect(fieldErrors({})).toEqual({ username: MSG.loginUsernameRequired, password: MSG.loginPasswordRequired });
    expect(fieldErrors(null)).toEqual({ username: MSG.loginUsernameRequired, password: MSG.loginPasswordRequired });
  });

  it('the messages name the missing field', () => {
    expect(MSG.loginUsernameRequired).toContain('用戶名');
    expect(MSG.loginPasswordRequired).toContain('密碼');
  });
});
