import { useCallback, useRef } from 'react';
import { Notification, TakeUndoableMutationContext, useTakeUndoableMutation } from 'react-admin';

// react-admin takes the waiting change on 復原 and again as the notice closes: after an undo that second take
// sent the NEXT change at once, without its own 復原 (ra-ui-materialui Notification handleExited). Here it
// returns nothing; the flag lapses after CLOSING_MS, so no change is held back for good.
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
