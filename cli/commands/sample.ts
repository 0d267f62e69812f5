import type { Command } from 'commander';
import { buildSampleWorkbook, sampleFile } from '../../core/index.js';
import { SAMPLE_FILE_NAME } from '../../core/payments/sheetFile.js';
import { withOperator, type CliIO, type GlobalOptions } from '../context.js';
import { DataError } from '../errors.js';
import { refuseOverwrite, writeFileAtomic } from '../files.js';
import { examples } from '../input.js';
import { SAMPLE } from '../messages.js';

/** The sample names the database's stores, so it imports as it is; without a database, 總店, which every install has. */
async function sampleBytes(io: CliIO, opts: GlobalOptions): Promise<Uint8Array> {
  try {
    return (await withOperator(io, opts, (ctx) => sampleFile(ctx))).body as Uint8Array;
  } catch (err) {
    // no database here (or not remit's): withOperator refused before creating or changing anything
    if (err instanceof DataError) return buildSampleWorkbook([]);
    throw err;
  }
}

export function sampleCommand(program: Command, io: CliIO): void {
  program
    .command('sample')
    .description(
      '產生匯入範例檔（匯款記錄_匯入範例.xlsx）：標題列與七筆範例（匯款、現金、電子支付與員工購物）（不需要資料庫；有資料庫時用其中的分店）',
    )
    .option('-o, --output <file>', '輸出檔案；- 表示標準輸出（預設 匯款記錄_匯入範例.xlsx）')
    .option('--force', '覆蓋已存在的檔案')
    .addHelpText('after', examples('remit sample', 'remit sample -o /tmp/範例.xlsx --force'))
    .action(async (opts: { output?: string; force?: boolean }, cmd: Command) => {
      const target = opts.output ?? SAMPLE_FILE_NAME;
      if (target !== '-') refuseOverwrite(target, opts.force);
      const body = await sampleBytes(io, cmd.optsWithGlobals());
      if (target === '-') {
        process.stdout.write(Buffer.from(body));
        return;
      }
      writeFileAtomic(target, body);
      io.stdout(`${SAMPLE.written(target)}\n`);
    });
}
