import type { Command } from 'commander';
import { sampleFile } from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';
import { refuseOverwrite, writeFileAtomic } from '../files.js';

export function sampleCommand(program: Command, io: CliIO): void {
  program
    .command('sample')
    .description('產生匯入範例檔（匯款記錄_匯入範例.xlsx）：標題列與四筆範例')
    .option('-o, --output <file>', '輸出檔案；- 表示標準輸出（預設 匯款記錄_匯入範例.xlsx）')
    .option('--force', '覆蓋已存在的檔案')
    .addHelpText('after', '\n範例：\n  remit sample\n  remit sample -o /tmp/範例.xlsx --force\n')
    .action(async (opts: { output?: string; force?: boolean }, cmd: Command) => {
      const file = await withOperator(io, cmd.optsWithGlobals(), (ctx) => sampleFile(ctx));
      const target = opts.output ?? file.fileName;
      if (target === '-') {
        process.stdout.write(Buffer.from(file.body as Uint8Array));
        return;
      }
      refuseOverwrite(target, opts.force);
      writeFileAtomic(target, file.body);
      io.stdout(`已產生範例檔：${target}\n`);
    });
}
