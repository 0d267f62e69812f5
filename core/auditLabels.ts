/** Traditional Chinese labels of audit actions and entities, shared by the back office and the CLI. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  create: '新增',
  update: '修改',
  delete: '刪除',
  import: '匯入',
  login: '登入',
  login_failed: '登入失敗',
  password: '更改密碼',
};

export const AUDIT_ENTITY_LABELS: Record<string, string> = { payment: '匯款', user: '會員', store: '分店' };

export const auditActionLabel = (action: string): string => AUDIT_ACTION_LABELS[action] ?? action;
export const auditEntityLabel = (entity: string): string => AUDIT_ENTITY_LABELS[entity] ?? entity;
