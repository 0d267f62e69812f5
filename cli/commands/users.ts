import type { Command } from 'commander';
import {
  activeLabel,
  createUser,
  deleteUser,
  effectivePermissions,
  formatTaipei,
  getUserByUsername,
  listStores,
  listUsers,
  permissionLabels,
  PERMISSIONS,
  ROLE_LABELS,
  ROLES,
  storeAccessLabel,
  unlockUser,
  updateUser,
  type ServiceContext,
  type Store,
  type User,
} from '../../core/index.js';
import { allowEmptyValue } from '../emptyValues.js';
import { boxWrap } from '../help.js';
import { codeList, storeIdsFromFlag } from '../storeCodes.js';
import { withOperator, type CliIO } from '../context.js';
import { UsageError } from '../errors.js';
import { confirmOrCancel, examples, passwordSource, requireYesOrTerminal, textOrPrompt } from '../input.js';
import { INPUT, USERS } from '../messages.js';
import { renderPairs, renderTable } from '../table.js';

type Opts = Record<string, string | boolean | undefined>;
const list = (v?: string) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const json = (v: unknown) => `${JSON.stringify(v)}\n`;

const COLUMNS = [...USERS.columns];

/** Every permission key with its name and meaning, for `users add/edit --help`, within 80 columns. */
function permissionHelp(): string {
  const keys = Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>;
  const indent = 2 + Math.max(...keys.map((k) => k.length)) + 2;
  const line = (k: (typeof keys)[number]) => {
    const meaning = boxWrap(`${PERMISSIONS[k].label}：${PERMISSIONS[k].description}`, 80 - indent).split('\n');
    return `  ${k.padEnd(indent - 4)}  ${meaning.join(`\n${' '.repeat(indent)}`)}`;
  };
  return `\n${USERS.permissionsHeading}\n${keys.map(line).join('\n')}\n`;
}

/** --role names one of the roles (admin, user): anything else is wrong usage, said with the choices. */
function roleFlag(role: unknown): void {
  if (role !== undefined && !(ROLES as readonly unknown[]).includes(role))
    throw new UsageError(USERS.badRole(String(role), ROLES));
}

/** A user as the users list shows it. */
function userCells(u: User, stores: Store[]): Array<string | number> {
  const byId = new Map(stores.map((s) => [s.id, s]));
  return [
    u.id,
    u.username,
    ROLE_LABELS[u.role],
    permissionLabels(effectivePermissions(u)),
    storeAccessLabel(u, (id) => byId.get(id)),
    activeLabel(u.is_active),
    formatTaipei(Date.parse(u.created_at)),
  ];
}

async function allStores(ctx: ServiceContext): Promise<Store[]> {
  return (await listStores(ctx)).rows;
}

export function usersCommand(program: Command, io: CliIO): void {
  const users = program
    .command('users')
    .description('會員帳戶管理')
    .addHelpText(
      'after',
      examples('remit users list', 'remit users add --username tpe01 --store TPE', 'remit users passwd tpe01'),
    );

  usersList(users, io);
  usersAdd(users, io);
  usersEdit(users, io);
  usersPasswd(users, io);
  usersRemove(users, io);
  usersUnlock(users, io);
  usersActivation(users, io);
}

function usersList(users: Command, io: CliIO): void {
  users
    .command('list')
    .description('列出會員帳戶')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit users list', 'remit users list --json'))
    .action(async (opts: Opts, cmd: Command) => {
      const { rows, stores } = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => ({
        rows: (await listUsers(ctx)).rows,
        stores: await allStores(ctx),
      }));
      if (opts.json) return io.stdout(json(rows));
      io.stdout(
        rows.length
          ? renderTable(
              COLUMNS,
              rows.map((u) => userCells(u, stores)),
              { right: [0] },
            )
          : `${USERS.none}\n`,
      );
    });
}

function usersAdd(users: Command, io: CliIO): void {
  users
    .command('add')
    .description('新增會員帳戶（在終端機上未給的用戶名與密碼會提示輸入）')
    .option('--username <name>', '用戶名（3 到 20 個字母、數字或底線）')
    .option('--password-stdin', '從標準輸入的第一行讀取密碼（腳本用；在終端機上不加此項會提示輸入）')
    .option(
      '--password <password>',
      '不建議：密碼會出現在處理程序清單中（會顯示警告）；請改用提示輸入或 --password-stdin',
    )
    .option('--role <role>', '角色：admin 或 user', 'user')
    .option('--permissions <keys>', '權限，以逗號分隔（各權限見下方）')
    .option('--store <code>', '所屬分店代碼（分店員工）；不填為總部')
    .option('--accessible-stores <codes>', '可存取分店代碼，以逗號分隔')
    .option('--inactive', '建立為停用')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      permissionHelp() +
        examples(
          'remit users add --username boss --role admin            # 在終端機上提示輸入密碼',
          'remit users add --username tpe01 --store TPE --permissions record_takings,record_cash_out,close_day   # 店員：回報、收現金、日結，不能確認入帳',
          'remit users add --username acct01 --accessible-stores TPE,TXG --permissions view_payments,manage_payments,confirm_payments,view_reports   # 會計：匯入對帳單並確認入帳',
          'remit users add --username view01 --accessible-stores TPE --permissions view_payments,view_reports   # 檢視：只能查看與回報匯款',
          'printf "%s\\n" "$PW" | remit users add --username tpe02 --password-stdin --permissions view_payments --store TPE',
        ),
    )
    .action(async (opts: Opts, cmd: Command) => {
      roleFlag(opts.role);
      const readPassword = passwordSource(opts, INPUT.password, io.stderr);
      const username = await textOrPrompt(opts.username as string | undefined, '--username', INPUT.username);
      const secret = await readPassword();
      const user = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const [storeId] = await storeIdsFromFlag(ctx, codeList(opts.store as string | undefined));
        return createUser(ctx, {
          username,
          ...secret,
          role: opts.role,
          permissions: list(opts.permissions as string | undefined),
          store_id: storeId ?? null,
          accessible_stores: await storeIdsFromFlag(ctx, codeList(opts.accessibleStores as string | undefined)),
          is_active: !opts.inactive,
        });
      });
      io.stdout(opts.json ? json(user) : `${USERS.added(ROLE_LABELS[user.role], user.username, user.id)}\n`);
    });
}

function usersEdit(users: Command, io: CliIO): void {
  const edit = users
    .command('edit <username>')
    .description('修改會員帳戶的角色、權限、分店或啟用狀態（用戶名不能修改）')
    .option('--role <role>', '角色：admin 或 user')
    .option('--permissions <keys>', '權限，以逗號分隔，取代原有權限；"" 為清除')
    .option('--store <code>', '所屬分店代碼')
    .option('--no-store', '改為總部（不屬於任何分店）')
    .option('--accessible-stores <codes>', '可存取分店代碼，以逗號分隔，取代原有列表；"" 為清除')
    .option('--active', '啟用')
    .option('--inactive', '停用（該用戶的登入立即失效）')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      permissionHelp() +
        examples(
          'remit users edit tpe01 --permissions record_takings,record_cash_out,close_day',
          'remit users edit tpe01 --store TXG --accessible-stores TPE',
          'remit users edit hq01 --no-store',
        ),
    )
    .action(async (username: string, opts: Opts, cmd: Command) => {
      if (opts.active && opts.inactive) throw new UsageError(USERS.activeFlagsBoth);
      roleFlag(opts.role);
      const keys = ['role', 'permissions', 'store', 'accessibleStores', 'active', 'inactive'];
      if (!keys.some((k) => opts[k] !== undefined)) {
        throw new UsageError(USERS.nothingToEdit);
      }
      const { user, stores } = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const target = await getUserByUsername(ctx, username);
        const patch = await editPatch(ctx, opts);
        return { user: await updateUser(ctx, target.id, patch), stores: await allStores(ctx) };
      });
      if (opts.json) return io.stdout(json(user));
      const cells = userCells(user, stores);
      io.stdout(`${USERS.updated(user.username)}\n${renderPairs(COLUMNS.map((c, i) => [c, cells[i]]))}`);
    });

  // "" clears these lists (their help says so)
  allowEmptyValue(edit, '--permissions', '--accessible-stores');
}

/** The changes `users edit` asks for: only the flags given, store codes turned into ids. */
async function editPatch(ctx: ServiceContext, opts: Opts): Promise<Record<string, unknown>> {
  const patch: Record<string, unknown> = {};
  if (opts.role !== undefined) patch.role = opts.role;
  if (opts.permissions !== undefined) patch.permissions = list(opts.permissions as string);
  if (opts.store === false) patch.store_id = null;
  else if (typeof opts.store === 'string') [patch.store_id] = await storeIdsFromFlag(ctx, [opts.store]);
  if (opts.accessibleStores !== undefined)
    patch.accessible_stores = await storeIdsFromFlag(ctx, codeList(opts.accessibleStores as string));
  if (opts.active || opts.inactive) patch.is_active = Boolean(opts.active);
  return patch;
}

function usersPasswd(users: Command, io: CliIO): void {
  users
    .command('passwd <username>')
    .description('重設會員密碼（操作員重設，不需舊密碼）；該用戶先前的登入全部失效')
    .option('--password-stdin', '從標準輸入的第一行讀取新密碼（腳本用；在終端機上不加此項會提示輸入）')
    .option(
      '--password <password>',
      '不建議：密碼會出現在處理程序清單中（會顯示警告）；請改用提示輸入或 --password-stdin',
    )
    .addHelpText(
      'after',
      examples(
        'remit users passwd tpe01                 # 在終端機上提示輸入兩次',
        'printf "%s\\n" "$NEW_PW" | remit users passwd tpe01 --password-stdin',
      ),
    )
    .action(async (username: string, opts: Opts, cmd: Command) => {
      const readPassword = passwordSource(opts, INPUT.newPassword, io.stderr);
      const user = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const target = await getUserByUsername(ctx, username);
        return updateUser(ctx, target.id, await readPassword());
      });
      io.stdout(`${USERS.passwordReset(user.username)}\n`);
    });
}

function usersRemove(users: Command, io: CliIO): void {
  users
    .command('remove <username>')
    .description('刪除會員帳戶（無法復原）')
    .option('--yes', '不詢問確認（非互動模式必須加上）')
    .addHelpText('after', examples('remit users remove tpe01', 'remit users remove tpe01 --yes   # 腳本中使用'))
    .action(async (username: string, opts: Opts, cmd: Command) => {
      requireYesOrTerminal(opts.yes as boolean | undefined);
      const user = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const target = await getUserByUsername(ctx, username);
        await confirmOrCancel(
          opts.yes as boolean | undefined,
          USERS.confirmRemove(target.username, ROLE_LABELS[target.role]),
        );
        return deleteUser(ctx, target.id);
      });
      io.stdout(`${USERS.removed(user.username)}\n`);
    });
}

function usersUnlock(users: Command, io: CliIO): void {
  users
    .command('unlock <username>')
    .description('解除會員的登入限制（清除登入失敗紀錄），例如有人在別處一再輸錯密碼之後')
    .addHelpText('after', examples('remit users unlock admin'))
    .action(async (username: string, _opts: Opts, cmd: Command) => {
      const { user, cleared } = await withOperator(io, cmd.optsWithGlobals(), (ctx) => unlockUser(ctx, username));
      io.stdout(`${USERS.unlocked(user.username, cleared)}\n`);
    });
}

function usersActivation(users: Command, io: CliIO): void {
  for (const active of [true, false]) {
    users
      .command(active ? 'activate <username>' : 'deactivate <username>')
      .description(active ? '啟用會員帳戶' : '停用會員帳戶（該用戶的登入立即失效）')
      .addHelpText('after', examples(`remit users ${active ? 'activate' : 'deactivate'} tpe01`))
      .action(async (username: string, _opts: Opts, cmd: Command) => {
        const user = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
          const target = await getUserByUsername(ctx, username);
          return updateUser(ctx, target.id, { is_active: active });
        });
        io.stdout(`${active ? USERS.activated(user.username) : USERS.deactivated(user.username)}\n`);
      });
  }
}
