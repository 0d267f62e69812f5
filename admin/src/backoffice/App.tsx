import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import audit from '../audit';
import { Dashboard } from '../dashboard/Dashboard';
import { i18nProvider } from '../i18n/i18nProvider';
import { Layout } from '../layout/Layout';
import { NotFound } from '../layout/NotFound';
import { LoginPage } from '../login/LoginPage';
import payments from '../payments';
import { authProvider } from '../providers/authProvider';
import { dataProvider } from '../providers/dataProvider';
import stores from '../stores';
import users from '../users';
import { Home } from './Home';
import { theme } from './theme';

export function App() {
  return (
    <Admin
      basename="/admin"
      title=""
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      loginPage={LoginPage}
      layout={Layout}
      catchAll={NotFound}
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
        <Route path="/dashboard" element={<Dashboard />} />
      </CustomRoutes>
    </Admin>
  );
}
