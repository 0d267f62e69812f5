/**
 * A small streaming XML scanner for the parts of an .xlsx we read, holding nothing but the unfinished tag.
 * Written rather than taken from a library: these files use a handful of elements and no DTD, and the
 * sheet is most of the work, so the scanner does only what they need.
 */
import { StringDecoder } from 'node:string_decoder';

/** Against hostile files: one unfinished tag or text kept between chunks (an Excel cell holds at most 32 767). */
const MAX_PENDING = 8 * 1024 * 1024;

export interface XmlHandler {
  /** `name` without its namespace prefix; `raw` is the tag's text, for attr() */
  open(name: string, raw: string, selfClosing: boolean): void;
  close(name: string): void;
  /** decoded text between tags (may come in pieces) */
  text(value: string): void;
}

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY, (_m, hex: string | undefined, dec: string | undefined, name: string | undefined) =>
    name ? NAMED[name] : String.fromCodePoint(hex ? parseInt(hex, 16) : parseInt(dec!, 10)),
  );
}

export function attr(raw: string, name: string): string | undefined {
  let i = 0;
  for (;;) {
    i = raw.indexOf(name, i);
    if (i < 0) return undefined;
    const before = raw.charCodeAt(i - 1);
    let j = i + name.length;
    // a whole attribute name: preceded by a space (or a prefix's colon), followed by `=`
    if ((before === 32 || before === 9 || before === 10 || before === 13 || before === 58) && i > 0) {
      while (raw[j] === ' ') j++;
      if (raw[j] === '=') {
        j++;
        while (raw[j] === ' ') j++;
        const q = raw[j];
        if (q === '"' || q === "'") {
          const end = raw.indexOf(q, j + 1);
          if (end < 0) return undefined;
          return decodeEntities(raw.slice(j + 1, end));
        }
      }
    }
    i = j;
  }
}

function localName(tag: string): string {
  let end = 0;
  while (end < tag.length) {
    const c = tag.charCodeAt(end);
    if (c === 32 || c === 47 || c === 9 || c === 10 || c === 13) break;
    end++;
  }
  const name = tag.slice(0, end);
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** `after` runs after each chunk, to hand over what the handler built. */
export async function* scanXml<T>(
  chunks: AsyncIterable<Buffer>,
  handler: XmlHandler,
  after: () => T,
): AsyncGenerator<T> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of chunks) {
    rest = scan(rest + decoder.write(chunk), handler);
    // one tag or one text this long is no spreadsheet: stop before it fills memory
    if (rest.length > MAX_PENDING) throw new Error('xml: a tag or text too long');
    yield after();
  }
  rest = scan(rest + decoder.end(), handler);
  if (rest.trim() !== '') throw new Error('xml: unfinished tag');
  yield after();
}

/** Returns the unfinished tail, to prepend to the next chunk. */
function scan(s: string, h: XmlHandler): string {
  let i = 0;
  const n = s.length;
  while (i < n) {
    const lt = s.indexOf('<', i);
    // text not yet followed by a tag waits for the next chunk: an entity may be cut in two
    if (lt < 0) return s.slice(i);
    if (lt > i) h.text(decodeEntities(s.slice(i, lt)));
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      if (end < 0) return s.slice(lt);
      i = end + 3;
      continue;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      const end = s.indexOf(']]>', lt + 9);
      if (end < 0) return s.slice(lt);
      h.text(s.slice(lt + 9, end));
      i = end + 3;
      continue;
    }
    let gt = s.indexOf('>', lt + 1);
    if (gt < 0) return s.slice(lt);
    // a `>` inside a quoted attribute value does not end the tag
    let quotes = countQuotes(s, lt + 1, gt);
    while (quotes % 2 === 1) {
      const next = s.indexOf('>', gt + 1);
      if (next < 0) return s.slice(lt);
      quotes += countQuotes(s, gt, next);
      gt = next;
    }
    const c = s.charCodeAt(lt + 1);
    if (c === 47 /* / */) h.close(localName(s.slice(lt + 2, gt)));
    else if (c !== 63 /* ? */ && c !== 33 /* ! */) {
      const selfClosing = s.charCodeAt(gt - 1) === 47;
      const raw = s.slice(lt + 1, selfClosing ? gt - 1 : gt);
      h.open(localName(raw), raw, selfClosing);
      if (selfClosing) h.close(localName(raw));
    }
    i = gt + 1;
  }
  return '';
}

function countQuotes(s: string, from: number, to: number): number {
  let q = 0;
  for (let k = from; k < to; k++) if (s.charCodeAt(k) === 34) q++;
  return q;
}
