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
