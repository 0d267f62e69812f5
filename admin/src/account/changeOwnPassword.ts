// Older sessions stop working; the answer sets this page's new session cookie, so the user stays signed in.
import { api } from '../http';

export async function changeOwnPassword(body: {
  currentPassword: string;
  newPassword: string;
  confirmNewPassword?: string;
}): Promise<void> {
  await api<{ token?: string }>('POST', '/users/change-password', body);
}
