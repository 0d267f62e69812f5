import { Alert, AlertTitle, Box } from '@mui/material';
import { Navigate } from 'react-router-dom';
import { Loading, useBasename } from 'react-admin';
import { initialTab } from '../../../core/permissions';
import { useMe } from '../common/useMe';

const PATHS = { payments: '/payments', users: '/users', dashboard: '/dashboard' } as const;

/** `/admin`: the initial tab is payments if allowed, else users, else the dashboard (spec section 2). */
export function Home() {
  const { me, isPending } = useMe();
  const basename = useBasename();
  if (isPending || !me) return <Loading />;
  const tab = initialTab(me);
  if (tab) return <Navigate to={`${basename}${PATHS[tab]}`} replace />;
  return (
    <Box sx={{ p: 2 }}>
      <Alert severity="warning">
        <AlertTitle>權限不足</AlertTitle>
        您的帳戶沒有任何後台權限，請聯絡管理員。
      </Alert>
    </Box>
  );
}
