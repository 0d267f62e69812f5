/**
 * The matcher on a worker thread (core/reconcile/matchPool.ts starts it). A call arrives as
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
import type { ReconcileLine, ReconcileReport } from './types.js';

type Message =
  | { id: number; op: 'reports'; rows: ReconcileReport[] }
  | { id: number; op: 'lines'; rows: ReconcileLine[] }
  | { id: number; op: 'run'; opts: MatchOptions; page?: { offset: number; limit: number } };

// The matcher yields the CPU to the event loop that serves everyone else: on Linux a thread has
// its own nice value, and /proc/thread-self names this thread. Elsewhere it runs at normal priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // not Linux, or not allowed: normal priority
}

const calls = new Map<number, { reports: ReconcileReport[]; lines: ReconcileLine[] }>();

parentPort?.on('message', (m: Message) => {
  let call = calls.get(m.id);
  if (!call) calls.set(m.id, (call = { reports: [], lines: [] }));
  if (m.op === 'reports') call.reports.push(...m.rows);
  else if (m.op === 'lines') call.lines.push(...m.rows);
  else {
    calls.delete(m.id);
    try {
      parentPort!.postMessage({ id: m.id, value: cutPage(matchReconcile(call.reports, call.lines, m.opts), m.page) });
    } catch (err) {
      parentPort!.postMessage({ id: m.id, error: String((err as Error)?.stack ?? err) });
    }
  }
});
