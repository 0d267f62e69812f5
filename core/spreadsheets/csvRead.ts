/** CSV read from disk as it arrives (UTF-8 or Big5), cut into rows in flat memory (Node only). */
import { createReadStream } from 'node:fs';
import { ChunkDecoder } from './decode.js';
import { CsvRows, guessSeparator } from './csv.js';

export async function* readCsvRows(path: string): AsyncGenerator<string[][]> {
  const decoder = new ChunkDecoder();
  let parser: CsvRows | null = null;
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    const text = decoder.push(chunk);
    parser ??= new CsvRows(guessSeparator(text));
    const rows = parser.push(text);
    if (rows.length) yield rows;
  }
  if (parser) {
    const rows = [...parser.push(decoder.end()), ...parser.end()];
    if (rows.length) yield rows;
  }
}
