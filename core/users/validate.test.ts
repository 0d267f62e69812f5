import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.js';
import { PERMISSION_KEYS } from '../permissions.js';
import { checkNewPassword, checkUsername, validatePasswordChange, validateUser } from './validate.js';

const newUser = {
  username: 'alice_01',
  password: 'tea-leaf-1',
  confirmPassword: 'tea-leaf-1',
  role: 'user',
  permissions: ['view_payments'],
  store_id: null,
  accessible_stores: [],
};

function fieldErrors(raw: unknown, mode: 'create' | 'edit' = 'create'): Record<string, string> {
  const r = validateUser(raw, mode);
  if (r.ok) return {};
  return Object.fromEntries(r.errors.map((e) => [e.field, e.message]));
}

describe('user form: username (create)', () => {
  it('accepts letters, digits and underscore, 3 to 20 characters after trimming', () => {
    for (const name of ['abc', 'Alice_01', 'a'.repeat(20), '___', '123']) expect(checkUsername(name)).toBeNull();
    const r = validateUser({ ...newUser, username: '  bob  ' }, 'create');
    expect(r.ok && r.value.username).toBe('bob');
  });

  it('needs at least 3 characters after trimming', () => {
    expect(fieldErrors({ ...newUser, username: 'ab' }).username).toBe('用戶名至少需要3個字符');
    expect(fieldErrors({ ...newUser, username: '  ab  ' }).username).toBe('用戶名至少需要3個字符');
    expect(fieldErrors({ ...newUser, username: '' }).username).toBe('用戶名至少需要3個字符');
    expect(fieldErrors({ ...newUser, username: undefined }).username).toBe('用戶名至少需要3個字符');
  });

  it('allows at most 20 characters', () => {
    expect(fieldErrors({ ...newUser, username: 'a'.repeat(21) }).username).toBe('用戶名不能超過20個字符');
    expect(fieldErrors({ ...newUser, username: ` ${'a'.repeat(20)} ` }).username).toBeUndefined();
  });

  it.each(['ab cd', 'ab-cd', 'alice!', 'a.b.c', '王小明', 'ＡＢＣ', 'bob@x'])(
    'refuses the character set of %j',
    (name) => {
      expect(fieldErrors({ ...newUser, username: name }).username).toBe('用戶名只能包含字母、數字和下劃線');
    },
  );

  it('is not checked again on edit (it cannot change)', () => {
    expect(fieldErrors({ ...newUser, username: 'x' }, 'edit').username).toBeUndefined();
  });
});

describe('user form: password', () => {
  it('is required on create', () => {
    expect(fieldErrors({ ...newUser, password: '', confirmPassword: '' }).password).toBe('密碼是必填的');
    expect(fieldErrors({ ...newUser, password: undefined, confirmPassword: undefined }).password).toBe('密碼是必填的');
    expect(fieldErrors({ ...newUser, password: '      ', confirmPassword: '      ' }).password).toBe('密碼是必填的');
  });

  it('needs at least 6 characters', () => {
    expect(fieldErrors({ ...newUser, password: '12345', confirmPassword: '12345' }).password).toBe(
      '密碼至少需要6個字符',
    );
    expect(fieldErrors({ ...newUser, password: 'k7&tea', confirmPassword: 'k7&tea' })).toEqual({});
  });

  it('must match its confirmation', () => {
    const errors = fieldErrors({ ...newUser, password: 'tea-leaf-1', confirmPassword: 'tea-leaf-2' });
    expect(errors.confirmPassword).toBe('密碼確認不匹配');
    expect(errors.password).toBeUndefined();
    expect(fieldErrors({ ...newUser, password: 'tea-leaf-1', confirmPassword: '' }).confirmPassword).toBe(
      '密碼確認不匹配',
    );
  });

  it('may be sent without a confirmation by the API', () => {
    const r = validateUser({ ...newUser, confirmPassword: undefined }, 'create');
    expect(r.ok && r.value.password).toBe('tea-leaf-1');
  });

  it('blank on edit means unchanged', () => {
    for (const password of ['', undefined, null]) {
      const r = validateUser({ ...newUser, password, confirmPassword: '' }, 'edit');
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.value.password).toBeUndefined();
    }
  });

  it('a new password on edit follows the same rules', () => {
    expect(fieldErrors({ ...newUser, password: 'abc', confirmPassword: 'abc' }, 'edit').password).toBe(
      '密碼至少需要6個字符',
    );
    expect(fieldErrors({ ...newUser, password: 'tea-leaf', confirmPassword: 'tea-leag' }, 'edit').confirmPassword).toBe(
      '密碼確認不匹配',
    );
    const r = validateUser({ ...newUser, password: 'tea-leaf', confirmPassword: 'tea-leaf' }, 'edit');
    expect(r.ok && r.value.password).toBe('tea-leaf');
  });

  it('refuses a password longer than bcrypt can read (72 bytes)', () => {
    expect(fieldErrors({ ...newUser, password: 'a'.repeat(73), confirmPassword: 'a'.repeat(73) }).password).toBe(
      MSG.passwordMax,
    );
    expect(
      fieldErrors({ ...newUser, password: 'ab3'.repeat(23) + 'xyz', confirmPassword: 'ab3'.repeat(23) + 'xyz' }),
    ).toEqual({});
    // 25 three-byte characters are 75 bytes
    expect(fieldErrors({ ...newUser, password: '密'.repeat(25), confirmPassword: '密'.repeat(25) }).password).toBe(
      MSG.passwordMax,
    );
  });

  it('checkNewPassword uses the texts it is given', () => {
    const texts = { required: 'R', min: 'M', mismatch: 'X' };
    expect(checkNewPassword('', undefined, texts)).toBe('R');
    expect(checkNewPassword('abc', undefined, texts)).toBe('M');
    expect(checkNewPassword('tea-leaf', 'tea-leaX', texts)).toBe('X');
    expect(checkNewPassword('tea-leaf', 'tea-leaf', texts)).toBeNull();
    expect(checkNewPassword(123456, undefined, texts)).toBe('R');
  });
});

describe('user form: role and permissions', () => {
  it('role is required and must be admin or user', () => {
    for (const role of [undefined, '', 'superuser', 'Admin', 1]) {
      expect(fieldErrors({ ...newUser, role }).role).toBe('請選擇角色');
    }
  });

  it('the admin role gets every permission key', () => {
    const r = validateUser({ ...newUser, role: 'admin', permissions: [] }, 'create');
    expect(r.ok && r.value.permissions).toEqual([
      'manage_users',
      'manage_stores',
      'manage_payments',
      'view_payments',
      'edit_payments',
      'delete_payments',
      'view_reports',
      'system_admin',
      'record_takings',
      'record_cash_out',
      'close_day',
      'confirm_payments',
    ]);
    const none = validateUser({ ...newUser, role: 'admin', permissions: undefined }, 'edit');
    expect(none.ok && none.value.permissions).toEqual([...PERMISSION_KEYS]);
  });

  it('a user keeps the permissions chosen, each once', () => {
    const r = validateUser({ ...newUser, permissions: ['view_reports', 'view_payments', 'view_payments'] }, 'create');
    expect(r.ok && [...r.value.permissions].sort()).toEqual(['view_payments', 'view_reports']);
    const none = validateUser({ ...newUser, permissions: undefined }, 'create');
    expect(none.ok && none.value.permissions).toEqual([]);
  });

  it('refuses unknown permission keys, naming them', () => {
    const msg = fieldErrors({ ...newUser, permissions: ['view_payments', 'fly', 'root'] }).permissions;
    // with every valid key and its name, so the fix is in the message
    expect(msg).toMatch(
      /^無效的權限：fly、root（可用的權限：manage_users（會員管理）、manage_stores（分店管理）、.*、confirm_payments（銀行對帳））$/,
    );
    expect(msg).toContain('view_payments（查看匯款）');
  });

  it('refuses permissions that are not a list', () => {
    expect(fieldErrors({ ...newUser, permissions: 'view_payments' }).permissions).toBeDefined();
  });
});

describe('user form: stores and active flag', () => {
  it('store_id is null for headquarters or a store id', () => {
    const hq = validateUser({ ...newUser, store_id: null }, 'create');
    expect(hq.ok && hq.value.store_id).toBeNull();
    const blank = validateUser({ ...newUser, store_id: '' }, 'create');
    expect(blank.ok && blank.value.store_id).toBeNull();
    const branch = validateUser({ ...newUser, store_id: '2' }, 'create');
    expect(branch.ok && branch.value.store_id).toBe(2);
  });

  it('refuses a malformed store_id', () => {
    for (const v of [0, -1, 'abc', 1.5])
      expect(fieldErrors({ ...newUser, store_id: v }).store_id).toBe(MSG.storeInvalid);
  });

  it('accessible_stores is a list of store ids, each once, in order', () => {
    const r = validateUser({ ...newUser, accessible_stores: [3, '1', 3] }, 'create');
    expect(r.ok && r.value.accessible_stores).toEqual([1, 3]);
    const none = validateUser({ ...newUser, accessible_stores: undefined }, 'create');
    expect(none.ok && none.value.accessible_stores).toEqual([]);
  });

  it('refuses accessible_stores that are not a list of store ids', () => {
    for (const v of ['1,2', [1, 'x'], [0], 5]) {
      expect(fieldErrors({ ...newUser, accessible_stores: v }).accessible_stores).toBe(MSG.storesInvalid);
    }
  });

  it('is_active defaults to true on create', () => {
    const r = validateUser(newUser, 'create');
    expect(r.ok && r.value.is_active).toBe(true);
  });

  it('is_active must be a boolean', () => {
    const off = validateUser({ ...newUser, is_active: false }, 'edit');
    expect(off.ok && off.value.is_active).toBe(false);
    for (const v of ['true', 1, 0, 'false'])
      expect(fieldErrors({ ...newUser, is_active: v }, 'edit').is_active).toBe(MSG.isActiveInvalid);
  });

  it('refuses a body that is not an object', () => {
    expect(validateUser(null, 'create').ok).toBe(false);
    expect(validateUser([newUser], 'create').ok).toBe(false);
  });
});

describe('password change form', () => {
  const change = { currentPassword: 'old-pass', newPassword: 'new-pass', confirmNewPassword: 'new-pass' };
  function changeErrors(raw: unknown): Record<string, string> {
    const r = validatePasswordChange(raw);
    if (r.ok) return {};
    return Object.fromEntries(r.errors.map((e) => [e.field, e.message]));
  }

  it('accepts a complete change', () => {
    expect(validatePasswordChange(change)).toEqual({
      ok: true,
      value: { currentPassword: 'old-pass', newPassword: 'new-pass' },
    });
  });

  it('needs the current password', () => {
    expect(changeErrors({ ...change, currentPassword: '' }).currentPassword).toBe('請輸入目前密碼');
    expect(changeErrors({ ...change, currentPassword: undefined }).currentPassword).toBe('請輸入目前密碼');
  });

  it('needs a new password', () => {
    expect(changeErrors({ ...change, newPassword: '', confirmNewPassword: '' }).newPassword).toBe('請輸入新密碼');
    expect(changeErrors({ ...change, newPassword: undefined, confirmNewPassword: undefined }).newPassword).toBe(
      '請輸入新密碼',
    );
  });

  it('needs at least 6 characters for the new password', () => {
    expect(changeErrors({ ...change, newPassword: 'abc12', confirmNewPassword: 'abc12' }).newPassword).toBe(
      '新密碼至少需要6個字符',
    );
  });

  it('the confirmation must match', () => {
    const errors = changeErrors({ ...change, confirmNewPassword: 'new-pasS' });
    expect(errors.confirmNewPassword).toBe('新密碼確認不匹配');
    expect(errors.newPassword).toBeUndefined();
  });

  it('reports both missing fields at once', () => {
    expect(changeErrors({})).toEqual({ currentPassword: '請輸入目前密碼', newPassword: '請輸入新密碼' });
  });
});
