/** Exports are safe to open: text that would read as a formula stays text in a real export. */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NASTY = ['=1+1', '+886912345678', '-5', '@SUM(A1)', '=HYPERLINK("http://evil.example","點我")'];

describe.each(DB_KINDS)('a real export on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
    for (const [i, note] of NASTY.entries()) {
      const r = await s.api('POST', '/payments', {
        as: 'admin',
        body: { last_five: `1000${i}`, paid_at: '2026-11-18T09:00', amount: 100 + i, note, store_id: s.stores.A.id },
      });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => s?.close());

  it('writes formula-like notes as plain string cells in the .xlsx, and with a leading apostrophe in the CSV', async () => {
    const res = await fetch(`${s.url}/api/payments/export?filter=${encodeURIComponent('{}')}`, {
      headers: { authorization: `Bearer ${s.tokens.admin}` },
    });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const wb = XLSX.read(bytes, { type: 'array', cellFormula: true, dense: true });
    const grid = wb.Sheets['匯款記錄']['!data'] as XLSX.CellObject[][];
    const notes = grid.slice(1).map((r) => r[4]);
    expect(notes.map((c) => c.v).sort()).toEqual([...NASTY].sort());
    for (const c of notes) {
      expect(c.t).toBe('s');
      expect(c.f).toBeUndefined();
    }
    // the raw sheet XML holds no formula element at all
    const files = XLSX.read(bytes, { type: 'array', bookFiles: true }) as unknown as {
      files: Record<string, { content: Uint8Array }>;
    };
    const sheetXml = Object.entries(files.files ?? {}).find(([name]) => /worksheets\/sheet1\.xml$/.test(name));
    expect(sheetXml, 'the sheet XML').toBeDefined();
    const xml = Buffer.from(sheetXml![1].content).toString('utf8');
    expect(xml).toContain('=1+1');
    expect(xml).not.toMatch(/<f[ >]/);

    const csv = await (
      await fetch(`${s.url}/api/payments/export?format=csv&filter=${encodeURIComponent('{}')}`, {
        headers: { authorization: `Bearer ${s.tokens.admin}` },
      })
    ).text();
    for (const n of NASTY)
      expect(csv).toContain(n.includes('"') || n.includes(',') ? `"'${n.replace(/"/g, '""')}"` : `'${n}`);
  });
});
