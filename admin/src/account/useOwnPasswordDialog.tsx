// The back office's change-password dialog, with 密碼更改成功！ as a notification.
import { useState } from 'react';
import { useGetIdentity, useNotify } from 'react-admin';
import { UI } from '../messages';
import { ChangePasswordDialog } from './ChangePasswordDialog';

export function useOwnPasswordDialog() {
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const { identity } = useGetIdentity();
  const dialog = open ? (
    <ChangePasswordDialog
      username={typeof identity?.fullName === 'string' ? identity.fullName : undefined}
      onClose={() => setOpen(false)}
      onChanged={() => notify(UI.passwordChanged, { type: 'success', messageArgs: { _: UI.passwordChanged } })}
    />
  ) : null;
  return { openDialog: () => setOpen(true), dialog };
}
