// Changes waiting behind a 復原 notice, unsent until it goes: meanwhile the list must not read the server
// again, or a deleted row would come back and a status flip back.
let pending = 0;

/** Call the returned function once it is sent; an undone change, never sent, ends by itself after its notice. */
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

/** react-admin keeps the list's cache that long after an undoable change. */
export const UNDO_MS = 5000;
