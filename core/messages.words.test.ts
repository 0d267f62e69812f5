/**
 * Taiwan's words in every text a person reads: 字元 and 底線, never 字符 or
 * 下劃線, except in the sentences the spec fixes word for word (marked `// spec`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MSG } from './messages.js';

const root = resolve(import.meta.dirname, '..');
const FILES = ['core/messages.ts', 'admin/src/messages.ts'];

describe("Taiwan's words", () => {
  it.each(FILES)('%s says 字元 and 底線 outside the spec sentences', (file) => {
    const offending = readFileSync(resolve(root, file), 'utf8')
      .split('\n')
      .filter((line) => /字符|下劃線/.test(line) && !/\/\/ spec\b/.test(line));
    expect(offending).toEqual([]);
  });
  it('the spec sentences stay exactly as written', () => {
    expect(MSG.usernameMin).toBe('用戶名至少需要3個字符');
    expect(MSG.usernamePattern).toBe('用戶名只能包含字母、數字和下劃線');
    expect(MSG.noteTooLong).toBe('備註不能超過1000個字元');
    expect(MSG.storeNameTooLong).toBe('分店名稱不能超過50個字元');
    expect(MSG.storeCodePattern).toBe('分店代碼只能包含英文字母、數字、底線和連字號，最多20個字元');
  });
});
