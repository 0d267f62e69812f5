// A row's actions; a delete denied by core's rules (the server's too) is disabled with a tooltip saying why.
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import KeyIcon from '@mui/icons-material/Key';
import { Box, Button, Tooltip } from '@mui/material';
import type { ReactElement } from 'react';
import { canChangePasswordOf, deleteUserDenial, editUserDenial } from '../../../core/browser';
import type { Me, User } from '../../../core/browser';
import { USERS_UI } from '../messages';

export interface UserActionHandlers {
  onEdit: (user: User) => void;
  onChangePassword: (user: User) => void;
  onDelete: (user: User) => void;
}

/** A disabled button gets no pointer events, so the tooltip sits on a wrapper. */
function Denied({ reason, children }: { reason: string; children: ReactElement }) {
  return (
    <Tooltip title={reason} enterTouchDelay={0} arrow>
      <Box component="span" sx={{ display: 'inline-flex' }} data-denial={reason} tabIndex={0}>
        {children}
      </Box>
    </Tooltip>
  );
}

export function UserActions({ user, me, handlers }: { user: User; me: Me; handlers: UserActionHandlers }) {
  const editDenial = editUserDenial(me, user);
  const deleteDenial = deleteUserDenial(me, user);
  const edit = (
    <Button size="small" startIcon={<EditIcon />} onClick={() => handlers.onEdit(user)} disabled={Boolean(editDenial)}>
      {USERS_UI.edit}
    </Button>
  );
  const remove = (
    <Button
      size="small"
      color="error"
      startIcon={<DeleteIcon />}
      onClick={() => handlers.onDelete(user)}
      disabled={Boolean(deleteDenial)}
    >
      {USERS_UI.delete}
    </Button>
  );
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}
      data-testid={`user-actions-${user.username}`}
    >
      {editDenial ? <Denied reason={editDenial}>{edit}</Denied> : edit}
      {canChangePasswordOf(me, user) && (
        <Button size="small" color="secondary" startIcon={<KeyIcon />} onClick={() => handlers.onChangePassword(user)}>
          {USERS_UI.changePassword}
        </Button>
      )}
      {deleteDenial ? <Denied reason={deleteDenial}>{remove}</Denied> : remove}
    </Box>
  );
}
