import { useEffect, useRef } from 'react';
import { Sidebar as RaSidebar, useSidebarState, type SidebarProps } from 'react-admin';
import { useMediaQuery, type Theme } from '@mui/material';
import { keepMenuState } from '../providers/firstScreen';

/**
 * react-admin's menu drawer, closed on the render where the screen turns narrow (a phone turned
 * back upright). Its open state defaults by width and follows a change of width one render late
 * (useStore syncs its default in an effect), so for one render the phone's drawer, a modal, was
 * open and then closed before its slide began: MUI never removed it from its modal stack, and a
 * dialog open beneath it (修改付款方式, 刪除…) stayed aria-hidden, out of a screen reader's reach.
 */
export function Sidebar(props: SidebarProps) {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  // the same state react-admin's drawer reads, so this renders again whenever it changes
  const [open] = useSidebarState();
  const wasNarrow = useRef(narrow);
  useEffect(() => {
    wasNarrow.current = narrow;
  });
  // beside the page (not a phone's drawer), the server's next first page is drawn beside it as it is
  const desk = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  useEffect(() => {
    if (desk) keepMenuState(open);
  }, [desk, open]);
  return <RaSidebar {...props} open={narrow && !wasNarrow.current ? false : open} />;
}
