import { describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { ApiError } from './http';
import { describeServerError, serverFieldErrors, serverMessage } from './serverError';

describe('server errors of the back office calls', () => {
  it('uses the server message, completed with the field messages of a validation answer', () => {
    const err = new ApiError(400, '驗證錯誤', {
      message: '驗證錯誤',
      errors: [{ field: 'currentPassword', message: '目前密碼不正確' }],
    });
    expect(serverMessage(err)).toBe('驗證錯誤：目前密碼不正確');
    expect(serverFieldErrors(err)).toEqual({ currentPassword: '目前密碼不正確' });
  });

  it('does not repeat a message that is also the field message (409 username taken)', () => {
    const err = new HttpError('用戶名已存在', 409, {
      message: '用戶名已存在',
      errors: [{ field: 'username', message: '用戶名已存在' }],
    });
    expect(serverMessage(err)).toBe('用戶名已存在');
    expect(serverFieldErrors(err)).toEqual({ username: '用戶名已存在' });
  });

  it('gives nothing without a body, so the caller shows the spec fallback', () => {
    expect(serverMessage(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(serverMessage(new HttpError('Gateway Timeout', 504, undefined))).toBeUndefined();
    expect(serverMessage(null)).toBeUndefined();
    expect(serverFieldErrors(undefined)).toEqual({});
  });
});

describe('a failed form save', () => {
  it('puts a duplicate code under its field and says nothing more', () => {
    const err = new HttpError('分店代碼已存在', 409, {
      message: '分店代碼已存在',
      errors: [{ field: 'code', message: '分店代碼已存在' }],
    });
    expect(describeServerError(err, '保存失敗，請稍後再試', ['name', 'code'])).toEqual({
      fields: { code: '分店代碼已存在' },
      message: null,
    });
  });

  it('shows the server message when no field of the form explains it, else the fallback', () => {
    const conflict = new HttpError('此分店仍有匯款記錄或用戶，無法刪除', 409, {
      message: '此分店仍有匯款記錄或用戶，無法刪除',
    });
    expect(describeServerError(conflict, '刪除失敗', ['name', 'code']).message).toBe(
      '此分店仍有匯款記錄或用戶，無法刪除',
    );
    expect(describeServerError(new TypeError('Failed to fetch'), '刪除失敗', ['name', 'code'])).toEqual({
      fields: {},
      message: '刪除失敗',
    });
  });
});

describe('an unexpected server error', () => {
  it('ends with the request id, for the person to quote when asking for help; other refusals do not', () => {
    const body = { message: '伺服器發生錯誤，請稍後再試', code: 'internal_error' as const, request_id: '9f1c2a7be04d' };
    expect(serverMessage(new ApiError(500, body.message, body))).toBe(
      '伺服器發生錯誤，請稍後再試（錯誤代碼：9f1c2a7be04d）',
    );
    expect(serverMessage(new HttpError(body.message, 500, body))).toBe(
      '伺服器發生錯誤，請稍後再試（錯誤代碼：9f1c2a7be04d）',
    );
    const refused = { message: '權限不足', request_id: '9f1c2a7be04d' };
    expect(serverMessage(new HttpError(refused.message, 403, refused))).toBe('權限不足');
    expect(serverMessage(new HttpError(body.message, 500, { message: body.message }))).toBe(body.message);
  });
});
