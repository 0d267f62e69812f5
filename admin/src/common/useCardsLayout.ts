import { useMediaQuery, type Theme } from '@mui/material';

/**
 * Whether a list is drawn as cards (匯款記錄, 分店管理, 稽核紀錄): below 1200 px, where the menu
 * beside it leaves under 960 px and a table's last columns fell off the right edge (at 768 px,
 * 匯款記錄's 狀態 began at 905). The server's first page switches at the same width
 * (http/firstScreen.ts).
 */
export function useCardsLayout(): boolean {
  return useMediaQuery((t: Theme) => t.breakpoints.down('lg'));
}
