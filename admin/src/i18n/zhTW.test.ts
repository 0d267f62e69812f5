import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import { i18nProvider } from './i18nProvider';
import { zhTW } from './zhTW';

type Tree = { [key: string]: Tree | string };

/** Every leaf of a nested message object, as [dotted path, value]. */
function leaves(tree: Tree, prefix = ''): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]): Array<[string, unknown]> => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value !== null && typeof value === 'object' ? leaves(value, path) : [[path, value]];
  });
}

function lookup(tree: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Tree)[key] : undefined),
      tree,
    );
}

const placeholders = (text: string): string[] => text.match(/%\{[^}]+\}/g) ?? [];

const english = leaves(englishMessages as unknown as Tree) as Array<[string, string]>;
const chinese = leaves(zhTW as unknown as Tree);

/**
 * The one deliberate placeholder omission: react-admin's BulkUpdateWithConfirmButton does not pass
 * recordRepresentation, and for zh-TW polyglot always uses the first plural form, so keeping it
 * would show a raw "%{recordRepresentation}" in the bulk update confirm dialog.
 */
const OMITTED_PLACEHOLDERS: Record<string, string[]> = {
  'ra.message.bulk_update_content': ['%{recordRepresentation}'],
  'ra.message.bulk_update_title': ['%{recordRepresentation}'],
};

/** Mainland-only (or non-Taiwan) wording that must not appear; 用戶 is the product's word for user. */
const MAINLAND_WORDS = [
  '登錄',
  '加載',
  '數據',
  '設置',
  '搜索',
  '文件',
  '信息',
  '默認',
  '視頻',
  '保存',
  '菜單',
  '鏈接',
  '網絡',
  '服務器',
  '軟件',
  '屏幕',
  '刷新',
  '導出',
  '導入',
  '創建',
  '賬號',
  '字符',
  '激活',
  '程序',
  '點擊',
  '使用者',
];

/** ASCII words allowed outside %{...} placeholders. */
const ACRONYMS = new Set(['CSV']);

describe('zhTW messages for react-admin', () => {
  it('covers the installed ra-language-english (sanity: the walk finds its keys)', () => {
    expect(english.length).toBeGreaterThan(150);
    expect(english.map(([path]) => path)).toContain('ra.action.bulk_actions');
  });

  it('has every ra-language-english key as a non-empty string', () => {
    const missing = english
      .filter(([path]) => {
        const value = lookup(zhTW, path);
        return typeof value !== 'string' || value.length === 0;
      })
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it('has no ra.* key that ra-language-english does not have (typos, stale keys)', () => {
    const englishPaths = new Set(english.map(([path]) => path));
    const extra = chinese.map(([path]) => path).filter((path) => path.startsWith('ra.') && !englishPaths.has(path));
    expect(extra).toEqual([]);
  });

  it('keeps every %{placeholder} of the English', () => {
    const problems: string[] = [];
    for (const [path, en] of english) {
      const zh = lookup(zhTW, path);
      if (typeof zh !== 'string') continue; // reported by the coverage test
      const omitted = OMITTED_PLACEHOLDERS[path] ?? [];
      for (const ph of new Set(placeholders(en))) {
        if (!omitted.includes(ph) && !zh.includes(ph)) problems.push(`${path}: ${ph}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the |||| plural separator, with the count in both forms', () => {
    const problems: string[] = [];
    for (const [path, en] of english) {
      if (!en.includes('||||')) continue;
      const zh = lookup(zhTW, path);
      if (typeof zh !== 'string' || !zh.includes('||||')) {
        problems.push(`${path}: no ||||`);
        continue;
      }
      const enForms = en.split('||||');
      const zhForms = zh.split('||||');
      if (zhForms.length !== enForms.length)
        problems.push(`${path}: ${zhForms.length} forms, English has ${enForms.length}`);
      zhForms.forEach((form, i) => {
        // zh locales always use the first form, so every form must show the actual count.
        if (!form.includes('%{smart_count}')) problems.push(`${path}: form ${i + 1} lacks %{smart_count}`);
        if (form.trim() === '') problems.push(`${path}: form ${i + 1} is empty`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('uses no Mainland-only wording', () => {
    const problems = chinese.flatMap(([path, value]) =>
      MAINLAND_WORDS.filter((word) => String(value).includes(word)).map((word) => `${path}: ${word}`),
    );
    expect(problems).toEqual([]);
  });

  it('leaves no English words outside placeholders and known acronyms', () => {
    const problems = chinese.flatMap(([path, value]) => {
      const words =
        String(value)
          .replace(/%\{[^}]+\}/g, '')
          .match(/[A-Za-z]+/g) ?? [];
      return words.filter((word) => !ACRONYMS.has(word)).map((word) => `${path}: ${word}`);
    });
    expect(problems).toEqual([]);
  });

  it('has every value as a string (no nested non-objects or stray types)', () => {
    expect(chinese.filter(([, value]) => typeof value !== 'string')).toEqual([]);
  });
});

describe('zhTW through the real i18nProvider', () => {
  const translate = i18nProvider.translate;

  it('renders plural messages with the actual count, for one and for many', () => {
    for (const count of [1, 5]) {
      const args = { smart_count: count, name: '匯款記錄' }; // what the bulk buttons pass
      for (const key of [
        'ra.action.bulk_actions',
        'ra.message.bulk_delete_content',
        'ra.message.bulk_delete_title',
        'ra.message.bulk_update_content',
        'ra.message.bulk_update_title',
        'ra.notification.updated',
        'ra.notification.deleted',
      ]) {
        const text = translate(key, args);
        expect(text, key).toContain(String(count));
        expect(text, key).not.toContain('%{');
        expect(text, key).not.toContain('||||');
      }
    }
    expect(translate('ra.action.bulk_actions', { smart_count: 5 })).toBe('已選取 5 筆');
    expect(translate('ra.message.bulk_delete_title', { smart_count: 3, name: '匯款記錄' })).toBe('刪除 3 筆匯款記錄');
  });

  it('serves the Chinese texts for common keys', () => {
    expect(translate('ra.action.save')).toBe('儲存');
    expect(translate('ra.auth.sign_in')).toBe('登入');
    expect(translate('ra.navigation.page_rows_per_page')).toBe('每頁筆數：');
    expect(translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe(
      '第 1-10 筆，共 42 筆',
    );
    expect(translate('resources.payments.name', { smart_count: 2 })).toBe('匯款記錄');
  });
});

describe('remit resource labels', () => {
  it('are what react-admin shows for each resource and field', () => {
    const translate = i18nProvider.translate;
    expect(translate('resources.payments.fields.paid_at')).toBe('匯款時間');
    expect(translate('resources.payments.fields.last_five')).toBe('帳號後五碼');
    expect(translate('resources.users.fields.accessible_stores')).toBe('可存取分店');
    expect(translate('resources.users.name', { smart_count: 2 })).toBe('會員');
    expect(translate('resources.stores.fields.code')).toBe('分店代碼');
  });
});
