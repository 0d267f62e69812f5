import { useMediaQuery, type Theme } from '@mui/material';

/** Below 1200 px the menu leaves a table too little room; the server's first page switches at the same width. */
export function useCardsLayout(): boolean {
  return useMediaQuery((t: Theme) => t.breakpoints.down('lg'));
}
