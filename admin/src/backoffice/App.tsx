import { QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Admin, CustomRoutes, Loading, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import audit from '../audit';
import { BackupsPage } from '../backups';
import { BoardPage, ClosePage } from '../closes';
import { AccessDenied } from '../common/Forbidden';
import { Dashboard } from '../dashboard';
import { i18nProvider } from '../i18n/i18nProvider';
import { Layout } from '../layout/Layout';
import { NotFound } from '../layout/NotFound';
import { UndoSafeNotification } from '../layout/UndoSafeNotification';
import { LoginPage } from '../login/LoginPage';
import payments from '../payments';
import { ReconcilePage } from '../reconcile';
import { authProvider } from '../providers/authProvider';
import { dataProvider } from '../providers/dataProvider';
import { store } from '../providers/store';
import stores from '../stores';
import users from '../users';
import { Home } from './Home';
import { theme } from './theme';

/** A 4xx answers the same on a retry: say it at once, not after react-query's three retries. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => {
        const status = (error as { status?: number })?.status;
        return !(typeof status === 'number' && status >= 400 && status < 500) && failures < 3;
      },
    },
  },
});

/** Every page but 匯款記錄 is its own chunk, fetched when opened, so the list's first row waits for less code. */
export function App() {
  return (
    <Admin
      queryClient={queryClient}
      basename="/admin"
      title=""
      dataProvider={dataProvider}
      store={store}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      loginPage={LoginPage}
      layout={Layout}
      notification={UndoSafeNotification}
      catchAll={NotFound}
      accessDenied={AccessDenied}
      dashboard={Home}
      theme={theme}
      disableTelemetry
      requireAuth
    >
      <Resource name="payments" {...payments} />
      <Resource name="users" {...users} />
      <Resource name="stores" {...stores} />
      <Resource name="audit" {...audit} />
      <CustomRoutes>
        <Route
          path="/dashboard"
          element={
            <Suspense fallback={<Loading />}>
              <Dashboard />
            </Suspense>
          }
        />
        <Route
          path="/close"
          element={
            <Suspense fallback={<Loading />}>
              <ClosePage />
            </Suspense>
          }
        />
        <Route
          path="/closes"
          element={
            <Suspense fallback={<Loading />}>
              <BoardPage />
            </Suspense>
          }
        />
        <Route
          path="/reconcile"
          element={
            <Suspense fallback={<Loading />}>
              <ReconcilePage />
            </Suspense>
          }
        />
        <Route
          path="/backups"
          element={
            <Suspense fallback={<Loading />}>
              <BackupsPage />
            </Suspense>
          }
        />
      </CustomRoutes>
    </Admin>
  );
}
