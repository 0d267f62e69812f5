// 更改密碼 and 登出, shared by the top bar's user menu and the phone menu.
import KeyIcon from '@mui/icons-material/Key';
import LogoutIcon from '@mui/icons-material/Logout';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { ACCOUNT_UI, UI } from '../messages';

export function AccountMenuItems({
  onChangePassword,
  onLogout,
}: {
  onChangePassword: () => void;
  onLogout: () => void;
}) {
  return (
    <>
      <MenuItem onClick={onChangePassword}>
        <ListItemIcon>
          <KeyIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{ACCOUNT_UI.changePassword}</ListItemText>
      </MenuItem>
      <MenuItem onClick={onLogout}>
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{UI.logout}</ListItemText>
      </MenuItem>
    </>
  );
}
