import type { Command } from 'commander';
import { createStore, storeLabel } from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';

export function storesCommand(program: Command, io: CliIO): void {
  const stores = program.command('stores').description('分店管理');
  stores
    .command('add')
    .description('新增分店')
    .requiredOption('--name <name>', '分店名稱')
    .requiredOption('--code <code>', '分店代碼（英數字，唯一）')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', '\n範例：\n  remit stores add --name 台北店 --code TPE\n')
    .action(async (opts: { name: string; code: string; json?: boolean }, cmd: Command) => {
      const store = await withOperator(io, cmd.optsWithGlobals(), (ctx) => createStore(ctx, { name: opts.name, code: opts.code }));
      io.stdout(opts.json ? `${JSON.stringify(store)}\n` : `已新增分店 ${storeLabel(store)}，編號 ${store.id}\n`);
    });
}
