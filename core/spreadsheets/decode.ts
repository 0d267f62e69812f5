/** Text as Taiwanese banks save it: UTF-8 (BOM or not), else Big5; only TextDecoder, so the browser runs it too. */
type TextEncoding = 'utf-8' | 'big5';

const hasBom = (b: Uint8Array) => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** UTF-8 when a BOM or valid (a character cut at the end allowed when `more` follows), else Big5; `skip` is the BOM. */
function detectEncoding(head: Uint8Array, more = false): { encoding: TextEncoding; skip: number } {
  if (hasBom(head)) return { encoding: 'utf-8', skip: 3 };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: more });
    return { encoding: 'utf-8', skip: 0 };
  } catch {
    return { encoding: 'big5', skip: 0 };
  }
}

export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const { encoding, skip } = detectEncoding(bytes);
  return { text: new TextDecoder(encoding).decode(bytes.subarray(skip)), encoding };
}

/** The encoding is judged on the first chunk; characters cut between chunks are joined. */
export class ChunkDecoder {
  private decoder: { decode(input?: Uint8Array, opts?: { stream?: boolean }): string } | null = null;
  encoding: TextEncoding | null = null;

  push(chunk: Uint8Array): string {
    let bytes = chunk;
    if (!this.decoder) {
      const { encoding, skip } = detectEncoding(chunk, true);
      this.encoding = encoding;
      this.decoder = new TextDecoder(encoding);
      bytes = chunk.subarray(skip);
    }
    return this.decoder.decode(bytes, { stream: true });
  }

  end(): string {
    return this.decoder ? this.decoder.decode() : '';
  }
}
