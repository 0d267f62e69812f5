import { describe, expect, it } from 'vitest';
import { HEADERS } from './payments/sheetFile.js';
import { PERMISSIONS, permissionLabels } from './permissions.js';
import {
  AUDIT_ACTION_LABELS,
  PAYMENT_FIELD_LABELS,
  PERMISSION_LABELS,
  ROLE_LABELS,
  STORE_FIELD_LABELS,
  USER_FIELD_LABELS,
  auditActionLabel,
  storeLabel,
} from './labels.js';

describe('the Chinese names of things', () => {
  it('names payment fields as the spec does, and the spreadsheet columns use those names', () => {
    expect(PAYMENT_FIELD_LABELS).toMatchObject({
      last_five: '帳號後五碼',
      paid_at: '匯款時間',
      amount: '匯款金額',
      store_id: '分店',
      status: '狀態',
      note: '備註',
      method: '付款方式',
      employee: '員工購物',
      created_at: '建立時間',
    });
    expect(HEADERS).toEqual(['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店', '點收狀態', '付款方式']);
  });

  it('names user and store fields', () => {
    expect(USER_FIELD_LABELS).toMatchObject({
      username: '用戶名',
      store_id: '所屬分店',
      accessible_stores: '可存取分店',
      confirmPassword: '確認密碼',
    });
    expect(STORE_FIELD_LABELS).toMatchObject({ name: '分店名稱', code: '分店代碼' });
  });

  it('names permissions and roles, and the permission table and lists use those names', () => {
    expect(PERMISSION_LABELS.manage_payments).toBe('匯款管理');
    expect(PERMISSIONS.view_reports.label).toBe('查看報告');
    expect(permissionLabels(['view_payments', 'manage_users'])).toBe('會員管理、查看匯款');
    expect(ROLE_LABELS).toEqual({ admin: '管理員', user: '用戶' });
  });

  it('names audit actions, and shows an unknown action as it is', () => {
    expect(AUDIT_ACTION_LABELS.login_failed).toBe('登入失敗');
    expect(auditActionLabel('password')).toBe('更改密碼');
    expect(auditActionLabel('something_new')).toBe('something_new');
  });

  it('names a store by name and code, or 未知分店', () => {
    expect(storeLabel({ name: '台北店', code: 'TPE' })).toBe('台北店 (TPE)');
    expect(storeLabel(undefined)).toBe('未知分店');
  });
});
