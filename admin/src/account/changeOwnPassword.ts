/**
 * Changing one's own password (POST /api/users/change-password with the current password), for the
 * back office and the form page alike. Older sessions stop working; the answer sets this page's
 * new session cookie, so the user stays signed in (the token in the answer is for scripts).
 */
import { api } from '../http';

export async function changeOwnPassword(body: {
  currentPassword: string;
  newPassword: string;
  confirmNewPassword?: string;
}): Promise<void> {
  await api<{ token?: string }>('POST', '/users/change-password', body);
}
