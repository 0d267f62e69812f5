import { Navigate } from 'react-router-dom';
import { Loading, useBasename } from 'react-admin';
import { initialTab } from '../../../core/browser';
import { Forbidden } from '../common/Forbidden';
import { useMe } from '../common/useMe';
import { UI } from '../messages';

const PATHS = { payments: '/payments', users: '/users', dashboard: '/dashboard' } as const;

export function Home() {
  const { me, isPending } = useMe();
  const basename = useBasename();
  if (isPending || !me) return <Loading />;
  const tab = initialTab(me);
  if (tab) return <Navigate to={`${basename}${PATHS[tab]}`} replace />;
  return <Forbidden message={UI.noBackOfficeAccess} />;
}
