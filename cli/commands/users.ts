import type { Command } from 'commander';
import type { Knex } from 'knex';
import { createUser, ROLE_LABELS, type Role } from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';
import { UsageError } from '../errors.js';

const list = (v?: string) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

/** Store codes given on the command line to ids; an unknown code is a usage error naming it. */
export async function storeIdsByCode(db: Knex, codes: string[]): Promise<number[]> {
  if (!codes.length) return [];
  const rows = (await db('stores').select('id', 'code')) as Array<{ id: number; code: string }>;
  return codes.map((code) => {
    const hit = rows.find((r) => r.code.toLowerCase() === code.toLowerCase());
    if (!hit) throw new UsageError(`找不到分店代碼「${code}」（用 remit stores list 查看）`);
    return Number(hit.id);
  });
}

export function usersCommand(program: Command, io: CliIO): void {
  const users = program.command('users').description('會員帳戶管理');
  users
    .command('add')
    .description('新增會員帳戶')
    .requiredOption('--username <name>', '用戶名（3 到 20 個字母、數字或底線）')
    .requiredOption('--password <password>', '密碼（至少 6 個字符）')
    .option('--role <role>', '角色：admin 或 user', 'user')
    .option('--permissions <keys>', '權限，以逗號分隔（例如 view_payments,edit_payments）')
    .option('--store <code>', '所屬分店代碼（分店員工）；不填為總部')
    .option('--accessible-stores <codes>', '可存取分店代碼，以逗號分隔')
    .option('--inactive', '建立為停用')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      '\n範例：\n  remit users add --username boss --password "$PW" --role admin\n  remit users add --username tpe01 --password "$PW" --permissions view_payments --store TPE\n',
    )
    .action(async (opts: Record<string, string | boolean | undefined>, cmd: Command) => {
      const user = await withOperator(io, cmd.optsWithGlobals(), async (ctx, db) => {
        const [storeId] = await storeIdsByCode(db, list(opts.store as string | undefined));
        return createUser(ctx, {
          username: opts.username,
          password: opts.password,
          role: opts.role,
          permissions: list(opts.permissions as string | undefined),
          store_id: storeId ?? null,
          accessible_stores: await storeIdsByCode(db, list(opts.accessibleStores as string | undefined)),
          is_active: !opts.inactive,
        });
      });
      io.stdout(opts.json ? `${JSON.stringify(user)}\n` : `已新增${ROLE_LABELS[user.role as Role]} ${user.username}，編號 ${user.id}\n`);
    });
}
