/**
 * Reading and parsing a JSON body so no request holds up the others: nesting checked as it arrives, size bounded
 * after inflation, and a large body parsed a slice at a time, giving the event loop back between slices.
 */
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Deepest nesting a body may have: an import is 3 levels (`{payments: [{...}]}`), a filter 3 or 4. */
export const MAX_JSON_DEPTH = 32;
/** Work done between two turns of the event loop, in characters parsed or scanned. */
const SLICE = 256 * 1024;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const COMMA = 44;
const COLON = 58;

/** Most values a body may hold (100 000 import rows of seven fields are about 800 000): bounds what parsing builds. */
const MAX_JSON_VALUES = 1_500_000;

/** Follows strings and brackets across chunks: `feed` says 'too_deep' or 'too_many' once past a limit, else null. */
export class DepthScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private values = 0;
  constructor(
    private readonly max = MAX_JSON_DEPTH,
    private readonly maxValues = MAX_JSON_VALUES,
  ) {}

  feed(chunk: Uint8Array): 'too_deep' | 'too_many' | null {
    let { depth, inString, escaped, values } = this;
    const max = this.max;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        values++;
        if (++depth > max) return 'too_deep';
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
      else if (c === COMMA) values++;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.values = values;
    return values > this.maxValues ? 'too_many' : null;
  }
}

type BodyRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; status: 400 | 413 | 415; reason: 'too_large' | 'too_deep' | 'bad_encoding' | 'unsupported_encoding' };

/** A request's body, inflated, up to `limit` bytes and MAX_JSON_DEPTH levels; past either, it stops and says why. */
export function readJsonBytes(
  req: Readable & { headers: Record<string, string | string[] | undefined> },
  limit: number,
): Promise<BodyRead> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let inflater: Transform | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') inflater = createGunzip();
  else if (encoding === 'deflate') inflater = createInflate();
  else if (encoding === 'br') inflater = createBrotliDecompress();
  else if (encoding !== 'identity' && encoding !== '')
    return Promise.resolve({ ok: false, status: 415, reason: 'unsupported_encoding' });
  const source: Readable = inflater ?? req;
  const inflating = inflater !== undefined;
  if (inflater) req.pipe(inflater);

  return new Promise((resolve, reject) => {
    const scan = new DepthScan();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const stop = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      req.off('error', onError);
      req.off('close', onClose);
      if (inflater) {
        req.unpipe(inflater);
        inflater.destroy();
      }
    };
    const refuse = (status: 400 | 413, reason: 'too_large' | 'too_deep' | 'bad_encoding') => {
      if (settled) return;
      settled = true;
      stop();
      chunks.length = 0;
      // what is still coming is read and dropped, so the connection stays usable
      req.resume();
      resolve({ ok: false, status, reason });
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return refuse(413, 'too_large');
      const over = scan.feed(chunk);
      if (over === 'too_deep') return refuse(400, 'too_deep');
      if (over === 'too_many') return refuse(413, 'too_large');
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      stop();
      resolve({ ok: true, bytes: Buffer.concat(chunks, size) });
    };
    // a client gone before the end of its body: nothing more will come
    const onClose = () => {
      if (!settled && !(req as { complete?: boolean }).complete)
        onError(Object.assign(new Error('request body aborted'), { code: 'ECONNRESET' }));
    };
    const onError = (err: Error) => {
      if (settled) return;
      // a broken gzip stream is the client's mistake; a connection lost is not an answer
      if (inflating && String((err as { code?: string }).code ?? '').startsWith('Z_'))
        return refuse(400, 'bad_encoding');
      settled = true;
      stop();
      // a 4xx: nobody is there to read it, and it is no server fault to log
      reject(Object.assign(err, { status: 400, type: 'request.aborted', expose: true }));
    };
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    if (inflating) req.on('error', onError);
    req.on('close', onClose);
  });
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** A turn of the event loop: whatever else is waiting runs first. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** `"__proto__":` in any spelling JSON allows: such a key is refused. */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

function parseSmall(text: string): unknown {
  if (!PROTO_KEY.test(text)) return JSON.parse(text);
  return JSON.parse(text, function (key, value) {
    if (key === '__proto__') throw new SyntaxError('__proto__ key');
    return value;
  });
}

/** Counts work and gives the event loop a turn after each `slice` characters of it. */
class Budget {
  private spent = 0;
  constructor(readonly slice: number) {}
  async spend(n: number): Promise<void> {
    this.spent += n;
    if (this.spent >= this.slice) {
      this.spent = 0;
      await turn();
    }
  }
}

/**
 * JSON.parse's answer without blocking: a larger array or object is parsed in runs of members, a turn of the event
 * loop after each `slice` of work. Throws where JSON.parse would; refuses `__proto__` keys and a non-container top.
 */
export async function parseJsonYielding(text: string, slice = SLICE): Promise<unknown> {
  let from = 0;
  while (from < text.length && isSpace(text.charCodeAt(from))) from++;
  const first = text.charCodeAt(from);
  if (first !== OPEN_ARRAY && first !== OPEN_OBJECT) throw new SyntaxError('only an object or an array');
  return parseRange(text, from, text.length, new Budget(slice));
}

async function parseRange(text: string, from: number, to: number, budget: Budget): Promise<unknown> {
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  if (from === to) throw new SyntaxError('empty value');
  const open = text.charCodeAt(from);
  if (to - from <= budget.slice || (open !== OPEN_ARRAY && open !== OPEN_OBJECT)) {
    await budget.spend(to - from);
    return parseSmall(text.slice(from, to));
  }
  const close = text.charCodeAt(to - 1);
  if (close !== (open === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT)) throw new SyntaxError('unbalanced brackets');
  // runs of about `slice` characters, one JSON.parse each (`[run]`, `{run}`); a larger member is walked one level down
  const isArray = open === OPEN_ARRAY;
  const outArray: unknown[] = [];
  const outObject: Record<string, unknown> = {};
  let run: [number, number] | null = null;
  const flush = async () => {
    if (!run) return;
    const [a, b] = run;
    run = null;
    await budget.spend(b - a);
    const part = parseSmall(isArray ? `[${text.slice(a, b)}]` : `{${text.slice(a, b)}}`);
    if (isArray) for (const v of part as unknown[]) outArray.push(v);
    else for (const k of Object.keys(part as object)) outObject[k] = (part as Record<string, unknown>)[k];
  };
  await eachMember(text, from + 1, to - 1, budget, async (a, b) => {
    let first = a;
    while (first < b && isSpace(text.charCodeAt(first))) first++;
    if (first === b) throw new SyntaxError('empty member'); // `[1,]`, `[,1]`, `{"a":1,}`
    if (b - a <= budget.slice) {
      run = run ? [run[0], b] : [a, b];
      if (run[1] - run[0] >= budget.slice) await flush();
      return;
    }
    await flush();
    if (isArray) outArray.push(await parseRange(text, a, b, budget));
    else {
      const colon = keyEnd(text, a, b);
      const key = parseSmall(text.slice(a, colon));
      if (typeof key !== 'string') throw new SyntaxError('object key is not a string');
      if (key === '__proto__') throw new SyntaxError('__proto__ key');
      outObject[key] = await parseRange(text, colon + 1, b, budget);
    }
  });
  await flush();
  return isArray ? outArray : outObject;
}

/** Whether a JSON text holds U+0000: only as `\u0000` after an even number of backslashes (a raw NUL is not JSON). */
export function jsonHasNul(text: string): boolean {
  return text.includes('\\u0000') && /(?:^|[^\\])(?:\\\\)*\\u0000/.test(text);
}

/** Where the colon after a member's key is (the key is the JSON string at the member's start). */
function keyEnd(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== QUOTE) throw new SyntaxError('object key is not a string');
  for (i++; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) break;
  }
  for (i++; i < to && isSpace(text.charCodeAt(i)); i++);
  if (i >= to || text.charCodeAt(i) !== COLON) throw new SyntaxError('expected a colon');
  return i;
}

/** Calls `member` with each member's range in [from, to), split at the container's own commas; nothing collected. */
async function eachMember(
  text: string,
  from: number,
  to: number,
  budget: Budget,
  member: (a: number, b: number) => Promise<void>,
): Promise<void> {
  let depth = 0;
  let inString = false;
  let start = from;
  let sinceTurn = 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (--depth < 0) throw new SyntaxError('unbalanced brackets');
    } else if (c === COMMA && depth === 0) {
      await member(start, i);
      count++;
      start = i + 1;
    }
    if (++sinceTurn === budget.slice) {
      sinceTurn = 0;
      await budget.spend(budget.slice);
    }
  }
  if (inString || depth !== 0) throw new SyntaxError('unbalanced brackets');
  let last = start;
  while (last < to && isSpace(text.charCodeAt(last))) last++;
  // `[]` and `{}` have no member; a trailing comma leaves an empty one, refused by the caller.
  if (last < to || count) await member(start, to);
}
