import { usePermissions } from 'react-admin';
import type { Me } from '../../../core/browser';

/** authProvider.getPermissions is `GET /api/admin/me`. */
export function useMe(): { me: Me | undefined; isPending: boolean } {
  const { permissions, isPending } = usePermissions<Me>();
  return { me: permissions, isPending };
}
