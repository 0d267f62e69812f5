/**
 * Changing one's own password (POST /api/users/change-password with the current password), for the
 * back office and the form page alike. The API answers with a fresh token (older ones stop
 * working): it is stored so the user stays signed in.
 */
import { api } from '../http';
import { setToken } from '../session';

export async function changeOwnPassword(body: { currentPassword: string; newPassword: string; confirmNewPassword?: string }): Promise<void> {
  const { token } = await api<{ token?: string }>('POST', '/users/change-password', body);
  if (token) setToken(token);
}
