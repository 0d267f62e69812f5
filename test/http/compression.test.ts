/**
 * JSON answers are compressed on the wire (brotli, else gzip) above a small size; small answers
 * and file downloads are not. Read with node:http, which does not decompress, to see the bytes sent.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

function raw(
  url: string,
  token: string,
  acceptEncoding: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('compressed JSON answers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    const now = Date.now();
    await s.t.db('payments').insert(
      Array.from({ length: 30 }, (_, i) => ({
        uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        store_id: s.stores.A.id,
        last_five: String(10000 + i),
        paid_at: now - i * 60_000,
        amount: 1000 + i,
        status: '未確認',
        note: i % 3 ? '' : '早班',
        created_by: null,
        created_at: now,
        updated_at: now,
      })),
    );
  });
  afterAll(() => s.close());

  it('sends a list page as brotli or gzip, a fraction of its JSON, decoding to the same page', async () => {
    const url = `${s.url}/api/payments?${listParams({ range: [0, 24] })}`;
    const plain = await raw(url, s.tokens.admin, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const page = JSON.parse(plain.bytes.toString('utf8')) as unknown[];
    expect(page).toHaveLength(25);

    const br = await raw(url, s.tokens.admin, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString('utf8'))).toEqual(page);

    const gz = await raw(url, s.tokens.admin, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.bytes).toString('utf8'))).toEqual(page);
  });

  it('leaves small answers and file downloads uncompressed', async () => {
    const health = await raw(`${s.url}/api/health`, s.tokens.admin, 'br');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.bytes.toString('utf8'))).toMatchObject({ ok: true });
    const csv = await raw(`${s.url}/api/payments/export?format=csv`, s.tokens.admin, 'br');
    expect(csv.headers['content-encoding']).toBeUndefined();
    expect(csv.bytes.toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(31);
  });
});
