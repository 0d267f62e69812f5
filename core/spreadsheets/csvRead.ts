/**
 * CSV read from disk as it arrives (Node only): the shared reader (core/spreadsheets) decodes
 * each chunk (UTF-8 with or without a BOM; Big5 when the start of the file is not UTF-8, as
 * Taiwanese offices save it) and cuts it into rows with the one CSV grammar, whose state carries
 * over between chunks, so a million rows are read in flat memory.
 */
import { createReadStream } from 'node:fs';
import { ChunkDecoder } from './decode.js';
import { CsvRows, guessSeparator } from './csv.js';

/** The rows of a CSV file, in batches as the file is read. */
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
