import { IMPORT } from './messages.js';

/** A one-line progress bar for a terminal; callers only create it when the stream is a TTY. */
export function progressBar(stream: NodeJS.WriteStream, label: string) {
  const width = 30;
  let last = -1;
  return {
    update(done: number, total: number) {
      const pct = total ? Math.floor((done / total) * 100) : 100;
      if (pct === last) return;
      last = pct;
      const filled = Math.round((pct / 100) * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}% (${done}/${total})`);
    },
    done() {
      if (last >= 0) stream.write('\n');
    },
  };
}

/** Rows read and rows written, on one terminal line overwritten as an import goes (at most five times a second). */
export function importProgress(stream: NodeJS.WriteStream) {
  let shown = false;
  let last = 0;
  let latest: [number, number] = [0, 0];
  const show = () => stream.write(`\r\x1b[K${IMPORT.progress(latest[0], latest[1])}`);
  return {
    update: (read: number, written: number) => {
      latest = [read, written];
      const now = Date.now();
      if (shown && now - last < 200) return;
      last = now;
      shown = true;
      show();
    },
    done() {
      if (!shown) return;
      show();
      stream.write('\n');
    },
  };
}
