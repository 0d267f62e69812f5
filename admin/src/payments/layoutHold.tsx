/**
 * The list keeps its layout while a person is in the middle of something on a row. Turning a
 * tablet sideways, or a window dragged across 1200 px, switches 匯款記錄 between
 * cards and a table; the row's dialog (修改付款方式, 刪除, 取消對帳, 對帳明細) or the note being
 * typed went with the old layout's row, and what was typed with it. While one is open the layout
 * stays as it was, and catches up when it closes.
 */
import { useCardsLayout } from '../common/useCardsLayout';
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';

const Hold = createContext<{ held: number; setHeld: Dispatch<SetStateAction<number>> } | null>(null);

export function LayoutHoldProvider({ children }: { children: ReactNode }) {
  const [held, setHeld] = useState(0);
  return <Hold.Provider value={{ held, setHeld }}>{children}</Hold.Provider>;
}

/** While `active`, the list's layout does not switch. */
export function useHoldLayout(active: boolean): void {
  const setHeld = useContext(Hold)?.setHeld;
  useEffect(() => {
    if (!active || !setHeld) return;
    setHeld((n) => n + 1);
    return () => setHeld((n) => n - 1);
  }, [active, setHeld]);
}

/** Cards, not the table (useCardsLayout): as the screen is, unless something on a row holds it. */
export function useSteadyNarrow(): boolean {
  const narrow = useCardsLayout();
  const held = (useContext(Hold)?.held ?? 0) > 0;
  const last = useRef(narrow);
  if (!held) last.current = narrow;
  return last.current;
}
