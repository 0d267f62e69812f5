import { useCallback, useRef } from 'react';
import { Notification, TakeUndoableMutationContext, useTakeUndoableMutation } from 'react-admin';

/**
 * react-admin's notice, with one change waiting behind 復原 taken once per notice.
 *
 * react-admin takes the waiting change from its queue when 復原 is pressed (and undoes it), and
 * again when the notice's closing animation ends (to send it). After 復原 the second take finds
 * the NEXT waiting change, if one arrived during those 200 ms: a delete made right after an undo
 * was sent at once, without its own 復原 (ra-ui-materialui 5, Notification.tsx handleExited).
 * Here the take that follows an undo (the closing animation's, within a few seconds) returns
 * nothing, so the next change waits for its own notice. Should that animation never end, the flag
 * lapses and react-admin's own order applies again: no change is ever held back for good.
 */
const CLOSING_MS = 3000;

export function UndoSafeNotification() {
  const take = useTakeUndoableMutation();
  const undoneAt = useRef<number | null>(null);
  const guarded = useCallback(() => {
    const at = undoneAt.current;
    undoneAt.current = null;
    if (at !== null && Date.now() - at < CLOSING_MS) return undefined;
    const mutation = take();
    if (!mutation) return mutation;
    return (params: { isUndo: boolean }) => {
      if (params.isUndo) undoneAt.current = Date.now();
      return mutation(params);
    };
  }, [take]);
  return (
    <TakeUndoableMutationContext.Provider value={guarded}>
      <Notification />
    </TakeUndoableMutationContext.Provider>
  );
}
