import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';

export function Layout({ children }: { children: ReactNode }) {
  return (
    // The top bar holds the store switcher, so it is a full 64 px high on wide screens.
    <RaLayout appBar={AppBar} menu={Menu} sx={{ '& .RaLayout-appFrame': { marginTop: { xs: 7, md: 8 } } }}>
      {children}
    </RaLayout>
  );
}
