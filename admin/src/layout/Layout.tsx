import { useMediaQuery, type Theme } from '@mui/material';
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Layout as RaLayout, useSidebarState } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { ADMIN_PATH } from '../config';
import { handOffFirstScreen } from '../providers/firstScreen';
import { AppBar } from './AppBar';
import { Menu } from './Menu';

export function Layout({ children }: { children: ReactNode }) {
  // the server draws 匯款記錄's first page ahead (http/firstScreen.ts); any other page replaces it at once
  const { pathname } = useLocation();
  const onList = [ADMIN_PATH, `${ADMIN_PATH}/payments`].includes(pathname.replace(/\/+$/, ''));
  useLayoutEffect(() => {
    if (!onList) handOffFirstScreen();
  }, [onList]);
  // A phone turned sideways and back: past 600 px the menu is a sidebar, open; back on a phone's
  // width react-admin kept it open, now as a drawer over the page (and over a dialog left open,
  // which screen readers then could not reach). Coming to a phone's width closes it.
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const [, setMenuOpen] = useSidebarState();
  const wasPhone = useRef(phone);
  useEffect(() => {
    if (phone && !wasPhone.current) setMenuOpen(false);
    wasPhone.current = phone;
  }, [phone, setMenuOpen]);
  return (
    // The top bar holds the store switcher, so it is a full 64 px high on wide screens.
    // The page, its content and each list may shrink below their widest table (react-admin's
    // layout is min-width: fit-content), so a wide table scrolls inside its own box and the page never scrolls sideways.
    <RaLayout
      appBar={AppBar}
      menu={Menu}
      sx={{ minWidth: 0, '& .RaLayout-appFrame': { marginTop: { xs: 7, md: 8 } }, '& .RaLayout-content, & .RaList-main': { minWidth: 0 } }}
    >
      {children}
    </RaLayout>
  );
}
