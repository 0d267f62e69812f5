import { IMPORT } from './messages.js';

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
