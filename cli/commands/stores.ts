import type { Command } from 'commander';
import {
  createStore,
  deleteStore,
  formatTaipei,
  listenUrl,
  listStores,
  MSG,
  storeLabel,
  storeLink,
  unreachableFromOutside,
  updateStore,
} from '../../core/index.js';
import { configFrom, withOperator, type CliIO } from '../context.js';
import { UsageError } from '../errors.js';
import { confirmOrCancel, examples, requireYesOrTerminal } from '../input.js';
import { STORES } from '../messages.js';
import { storeFromArgument } from '../storeCodes.js';
import { renderTable } from '../table.js';

type Opts = Record<string, string | boolean | undefined>;
const json = (v: unknown) => `${JSON.stringify(v)}\n`;

export function storesCommand(program: Command, io: CliIO): void {
  const stores = program
    .command('stores')
    .description('分店管理')
    .addHelpText('after', examples('remit stores list', 'remit stores add --name 台北店 --code TPE'));

  storesList(stores, io);
  storesAdd(stores, io);
  storesEdit(stores, io);
  storesRemove(stores, io);
  storesLink(stores, io);
}

function storesList(stores: Command, io: CliIO): void {
  stores
    .command('list')
    .description('列出分店')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit stores list', 'remit stores list --json'))
    .action(async (opts: Opts, cmd: Command) => {
      const rows = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => (await listStores(ctx)).rows);
      if (opts.json) return io.stdout(json(rows));
      const table = rows.map((s) => [s.id, s.code, s.name, formatTaipei(Date.parse(s.created_at))]);
      io.stdout(rows.length ? renderTable([...STORES.columns], table, { right: [0] }) : `${STORES.none}\n`);
    });
}

function storesAdd(stores: Command, io: CliIO): void {
  stores
    .command('add')
    .description('新增分店')
    .requiredOption('--name <name>', '分店名稱')
    .requiredOption('--code <code>', '分店代碼（英數字，唯一）')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit stores add --name 台北店 --code TPE'))
    .action(async (opts: { name: string; code: string; json?: boolean }, cmd: Command) => {
      const store = await withOperator(io, cmd.optsWithGlobals(), (ctx) =>
        createStore(ctx, { name: opts.name, code: opts.code }),
      );
      io.stdout(opts.json ? json(store) : `${STORES.added(storeLabel(store), store.id)}\n`);
    });
}

function storesEdit(stores: Command, io: CliIO): void {
  stores
    .command('edit <code>')
    .description('修改分店名稱或代碼')
    .option('--name <name>', '新的分店名稱')
    .option('--code <code>', '新的分店代碼')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit stores edit TPE --name 台北旗艦店', 'remit stores edit TPE --code TPE1'))
    .action(async (code: string, opts: Opts, cmd: Command) => {
      if (opts.name === undefined && opts.code === undefined) throw new UsageError(STORES.nothingToEdit);
      const patch = {
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(opts.code !== undefined ? { code: opts.code } : {}),
      };
      const store = await withOperator(io, cmd.optsWithGlobals(), async (ctx) =>
        updateStore(ctx, (await storeFromArgument(ctx, code)).id, patch),
      );
      io.stdout(opts.json ? json(store) : `${STORES.updated(storeLabel(store))}\n`);
    });
}

function storesRemove(stores: Command, io: CliIO): void {
  stores
    .command('remove <code>')
    .description('刪除分店（仍有匯款記錄或所屬用戶的分店不能刪除）')
    .option('--yes', '不詢問確認（非互動模式必須加上）')
    .addHelpText('after', examples('remit stores remove TXG', 'remit stores remove TXG --yes   # 腳本中使用'))
    .action(async (code: string, opts: Opts, cmd: Command) => {
      requireYesOrTerminal(opts.yes as boolean | undefined);
      const store = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const target = await storeFromArgument(ctx, code);
        await confirmOrCancel(opts.yes as boolean | undefined, STORES.confirmRemove(storeLabel(target)));
        return deleteStore(ctx, target.id);
      });
      io.stdout(`${STORES.removed(storeLabel(store))}\n`);
    });
}

function storesLink(stores: Command, io: CliIO): void {
  stores
    .command('link <code>')
    .description('分店的公開回報連結：顧客用它自行回報匯款（第一次使用時產生）')
    .option('--rotate', '換新連結，舊連結立即失效（連結外洩時；也用來重新啟用已停用的連結）')
    .option('--off', '停用連結')
    .option('--json', '以 JSON 輸出分店代碼、連結與是否啟用')
    .addHelpText(
      'after',
      examples(
        'remit stores link TPE',
        'remit stores link TPE --rotate',
        'remit stores link TPE --off',
        'remit stores link TPE --json',
      ),
    )
    .action(async (code: string, opts: Opts, cmd: Command) => {
      if (opts.rotate && opts.off) throw new UsageError(STORES.linkBoth);
      const action = opts.rotate ? 'rotate' : opts.off ? 'off' : 'show';
      const config = configFrom(io, cmd.optsWithGlobals());
      const { store, link } = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const target = await storeFromArgument(ctx, code);
        return { store: target, link: await storeLink(ctx, target.id, action, listenUrl(config.host, config.port)) };
      });
      if (opts.json) return io.stdout(json({ store: link.store, url: link.url, active: link.active }));
      const label = storeLabel(store);
      if (action === 'off') return io.stdout(`${STORES.linkOff(label)}\n`);
      if (!link.active) return io.stdout(`${STORES.linkDisabled(label)}\n`);
      io.stdout(`${action === 'rotate' ? STORES.linkRotated(label, link.url) : STORES.linkActive(label, link.url)}\n`);
      if (unreachableFromOutside(link.url)) io.stderr(`${MSG.linkNotPublic}\n`);
    });
}
