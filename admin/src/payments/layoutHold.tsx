// Turning a tablet switches cards and table, which would take an open dialog or a note being typed with the
// old row: while one is open the layout holds, and catches up when it closes.
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

export function useHoldLayout(active: boolean): void {
  const setHeld = useContext(Hold)?.setHeld;
  useEffect(() => {
    if (!active || !setHeld) return;
    setHeld((n) => n + 1);
    return () => setHeld((n) => n - 1);
  }, [active, setHeld]);
}

export function useSteadyNarrow(): boolean {
  const narrow = useCardsLayout();
  const held = (useContext(Hold)?.held ?? 0) > 0;
  const last = useRef(narrow);
  if (!held) last.current = narrow;
  return last.current;
}
