// What the 對帳 page's buttons do. A decision leaves its queue at once and is sent only when 復原 has gone,
// so a wrong click, even 確認入帳 for a whole queue, is taken back with one tap.
import { useCallback, useState } from 'react';
import { useAddUndoableMutation, useNotify } from 'react-admin';
import { beginUndoable, UNDO_MS } from '../payments/undoPending';
import { dataProvider } from '../providers/dataProvider';
import { RECONCILE_UI as R } from '../messages';
import type { NewFromLine } from './CreateFromLineDialog';
import { holding, NOTHING_HELD, type Held } from './held';
import type { BankLine } from './types';

type Decide = (payments: string[], lines: number[], message: string, send: () => Promise<unknown>) => void;

/** The same functions from one drawing to the next, so a card nothing happened to is not drawn again. */
export function useDecide(refetch: () => Promise<void>) {
  const [held, setHeld] = useState<Held>(NOTHING_HELD);
  const notify = useNotify();
  const addUndoable = useAddUndoableMutation();
  const hold = useCallback(
    (payments: string[], lines: number[], on: boolean) => setHeld((h) => holding(h, payments, lines, on)),
    [],
  );
  const decide = useCallback<Decide>(
    (payments, lines, message, send) => {
      hold(payments, lines, true);
      const end = beginUndoable();
      addUndoable(async ({ isUndo }) => {
        if (isUndo) {
          end();
          hold(payments, lines, false);
          return;
        }
        try {
          await send();
        } catch (e) {
          notify(e instanceof Error && e.message ? e.message : R.confirmFailed, { type: 'error' });
        } finally {
          end();
          await refetch();
          hold(payments, lines, false);
        }
      });
      notify(message, { type: 'info', undoable: true, autoHideDuration: UNDO_MS });
    },
    [addUndoable, hold, notify, refetch],
  );
  return { held, decide };
}

/** A credit nobody reported opens a dialog first, then goes behind the same 復原. */
export function useQueueActions(decide: Decide) {
  const onConfirm = useCallback(
    (pairs: Array<{ payment: string; line: number }>) =>
      decide(
        pairs.map((p) => p.payment),
        pairs.map((p) => p.line),
        R.confirmed(pairs.length),
        () => dataProvider.confirmPairs(pairs),
      ),
    [decide],
  );
  const onUnpaid = useCallback(
    (payments: string[]) => decide(payments, [], R.marked(payments.length), () => dataProvider.markUnpaid(payments)),
    [decide],
  );
  const [acting, setActing] = useState<{ line: BankLine; action: 'create' | 'link' } | null>(null);
  const onAct = useCallback((line: BankLine, action: 'create' | 'link') => setActing({ line, action }), []);
  const onCreate = useCallback(
    (v: NewFromLine) => {
      setActing(null);
      decide([], [v.line], R.createdFromLine, () => dataProvider.createFromLine(v));
    },
    [decide],
  );
  const onLink = useCallback(
    (line: number, payment: string) => {
      setActing(null);
      decide([payment], [line], R.linked, () => dataProvider.confirmPairs([{ payment, line }]));
    },
    [decide],
  );
  return { onConfirm, onUnpaid, acting, setActing, onAct, onCreate, onLink };
}

export type QueueActions = ReturnType<typeof useQueueActions>;
