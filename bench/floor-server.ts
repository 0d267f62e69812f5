/**
 * The floor of the submission benchmark: a minimal Koa endpoint that parses the same JSON and
 * does the same raw insert through knex, with no authentication, validation or audit.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { openDatabase } from '../core/index.js';

const db = openDatabase({ client: 'sqlite', filename: process.argv[2] });
const app = new Koa();
app.use(koaBody());
app.use(async (ctx) => {
  const b = ctx.request.body as Record<string, any>;
  const now = Date.now();
  const row = {
    uuid: randomUUID(),
    store_id: Number(b.store_id),
    last_five: String(b.last_five),
    paid_at: Date.parse(`${b.paid_at}:00+08:00`),
    amount: Number(b.amount),
    status: '未確認',
    note: String(b.note ?? ''),
    created_by: null,
    created_at: now,
    updated_at: now,
  };
  await db('payments').insert(row);
  ctx.status = 201;
  ctx.body = row;
});
const server = app.listen(0, '127.0.0.1', () =>
  console.log(`LISTENING http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
process.on('SIGTERM', () => server.close(() => db.destroy().then(() => process.exit(0))));
