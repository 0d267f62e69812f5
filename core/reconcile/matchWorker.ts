/** The matcher and the statement reader on a worker thread: nothing but the call, so the CLI decides the same. */
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

const LINES_PER_PART = 2_000;

// Yield the CPU to the event loop serving everyone else: on Linux a thread has its own nice value.
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

const reading = new Map<number, { prepared: PreparedStatement; sent: number }>();

/** Rows go back a part at a time, each when the last was taken in: none holds the event loop long. */
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
