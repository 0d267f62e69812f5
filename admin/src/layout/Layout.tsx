import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';

export function Layout({ children }: { children: ReactNode }) {
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
