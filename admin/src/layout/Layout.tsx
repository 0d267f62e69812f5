import { useLayoutEffect, type ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { ADMIN_PATH } from '../config';
import { handOffFirstScreen } from '../providers/firstScreen';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { Sidebar } from './Sidebar';

export function Layout({ children }: { children: ReactNode }) {
  // the server draws 匯款記錄's first page ahead (http/firstScreen.ts); any other page replaces it at once
  const { pathname } = useLocation();
  const onList = [ADMIN_PATH, `${ADMIN_PATH}/payments`].includes(pathname.replace(/\/+$/, ''));
  useLayoutEffect(() => {
    if (!onList) handOffFirstScreen();
  }, [onList]);
  return (
    // react-admin's layout is min-width: fit-content; allowed to shrink, a wide table scrolls in its own box
    // and the page never scrolls sideways. The top bar holds the store switcher, so is 64 px high when wide.
    <RaLayout
      appBar={AppBar}
      menu={Menu}
      sidebar={Sidebar}
      sx={{
        minWidth: 0,
        '& .RaLayout-appFrame': { marginTop: { xs: 7, md: 8 } },
        '& .RaLayout-content, & .RaList-main': { minWidth: 0 },
      }}
    >
      {children}
    </RaLayout>
  );
}
