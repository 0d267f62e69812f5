import { useEffect, useRef } from 'react';
import { Sidebar as RaSidebar, useSidebarState, type SidebarProps } from 'react-admin';
import { useMediaQuery, type Theme } from '@mui/material';
import { keepMenuState } from '../providers/firstScreen';

// Closed on the very render the screen turns narrow: react-admin's open state follows the width one render
// late, and a drawer opened and closed that fast stays in MUI's modal stack, leaving a dialog beneath it
// aria-hidden, out of a screen reader's reach.
export function Sidebar(props: SidebarProps) {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  // react-admin's drawer's own state, so this renders again whenever it changes
  const [open] = useSidebarState();
  const wasNarrow = useRef(narrow);
  useEffect(() => {
    wasNarrow.current = narrow;
  });
  // at a desk, the server's next first page draws the menu as it is
  const desk = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  useEffect(() => {
    if (desk) keepMenuState(open);
  }, [desk, open]);
  return <RaSidebar {...props} open={narrow && !wasNarrow.current ? false : open} />;
}
