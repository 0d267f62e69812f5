/**
 * The matcher, and the reading of statements, on a worker thread (core/reconcile/matchPool.ts
 * starts it). A statement arrives as its bytes and goes back in parts, each when the last was
 * taken in. A match arrives as
 * several messages, so that no single copy of tens of thousands of rows holds the event loop
 * that sends them: `reports` and `lines` chunks, then `run` with the options and the page. The
 * answer (`value`) is that page of the matcher's result and the size of each queue. Nothing here but the
 * call, so the worker and the CLI (which calls the matcher directly) always decide the same.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { matchReconcile, type MatchOptions } from './match.js';
import { cutPage } from './page.js';
import { prepareStatement, type PreparedStatement } from './prepare.js';
import { toWorkerError } from '../workerPool.js';
import type { ReconcileLine, ReconcileReport } from './types.js';

type Message =
  | { id: number; op: 'reports'; rows: ReconcileReport[] }
  | { id: number; op: 'lines'; rows: ReconcileLine[] }
  | { id: number; op: 'run'; opts: MatchOptions; page?: { offset: number; limit: number } }
  | { id: number; op: 'read'; bytes: Uint8Array; file: string; given: string | null }
  | { id: number; op: 'more' };

/** Lines per part of a read statement sent back: each part is read on the event loop, so none is long. */
const LINES_PER_PART = 2_000;

// The matcher yields the CPU to the event loop that serves everyone else: on Linux a thread has
// its own nice value, and /proc/thread-self names this thread. Elsewhere it runs at normal priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // not Linux, or not allowed: normal priority
}

const calls = new Map<number, { reports: ReconcileReport[]; lines: ReconcileLine[] }>();

const fail = (id: number, err: unknown) => parentPort!.postMessage({ id, error: toWorkerError(err) });

function answer(id: number, work: () => unknown): void {
  try {
    parentPort!.postMessage({ id, value: work() });
  } catch (err) {
    fail(id, err);
  }
}

/** Statements read and not yet all sent back: a part goes when the last one was taken in. */
const reading = new Map<number, { prepared: PreparedStatement; sent: number }>();

/** The next part of a read statement's lines and fingerprints, or, once all went, the rest of it. */
function sendPart(id: number): void {
  const r = reading.get(id);
  if (!r) return;
  const { read, account, prints } = r.prepared;
  if (r.sent < read.lines.length) {
    const end = r.sent + LINES_PER_PART;
    parentPort!.postMessage({ id, part: { lines: read.lines.slice(r.sent, end), prints: prints.slice(r.sent, end) } });
    r.sent = end;
    return;
  }
  reading.delete(id);
  parentPort!.postMessage({ id, value: { read: { ...read, lines: [] }, account, prints: [] } });
}

parentPort?.on('message', (m: Message) => {
  if (m.op === 'more') return sendPart(m.id);
  if (m.op === 'read') {
    try {
      reading.set(m.id, { prepared: prepareStatement(m.bytes, m.file, m.given), sent: 0 });
    } catch (err) {
      return fail(m.id, err);
    }
    return sendPart(m.id);
  }
  let call = calls.get(m.id);
  if (!call) calls.set(m.id, (call = { reports: [], lines: [] }));
  if (m.op === 'reports') call.reports.push(...m.rows);
  else if (m.op === 'lines') call.lines.push(...m.rows);
  else {
    calls.delete(m.id);
    answer(m.id, () => cutPage(matchReconcile(call.reports, call.lines, m.opts), m.page));
  }
});
