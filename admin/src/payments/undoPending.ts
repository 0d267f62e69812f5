/**
 * Changes waiting behind a 復原 notice (react-admin's undoable mode: nothing is sent until the
 * notice goes). While one waits, the list must not read the server again, or the row would
 * come back (a delete) or flip back (a status) until the change is sent.
 */
let pending = 0;

/**
 * Counts one waiting change; the returned function ends it once it is sent. An undone change is
 * never sent: it ends by itself a little after its notice has gone.
 */
export function beginUndoable(): () => void {
  pending++;
  let ended = false;
  const end = () => {
    if (!ended) pending--;
    ended = true;
    clearTimeout(timer);
  };
  const timer = setTimeout(end, UNDO_MS + 3000);
  return end;
}

export const undoPending = (): boolean => pending > 0;

/** How long a 復原 notice stays (react-admin keeps the list's cache that long after an undoable change). */
export const UNDO_MS = 5000;
