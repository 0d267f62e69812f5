// The top bar's user menu: the signed-in username opens 更改密碼 and 登出.
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Box, Button, Menu } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useState } from 'react';
import { useLogout } from 'react-admin';
import { useOwnPasswordDialog } from '../account/useOwnPasswordDialog';
import { ACCOUNT_UI } from '../messages';
import { AccountMenuItems } from './AccountMenuItems';
import { UserBadge } from './UserBadge';

export function UserMenu() {
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const password = useOwnPasswordDialog();
  return (
    <>
      <Button
        color="inherit"
        size="small"
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="user-menu"
        sx={{ textTransform: 'none' }}
      >
        {/* the name read aloud starts with what is seen (WCAG 2.5.3) */}
        <UserBadge />
        <Box component="span" sx={visuallyHidden}>
          （{ACCOUNT_UI.menuLabel}）
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <AccountMenuItems
          onChangePassword={() => {
            setAnchor(null);
            password.openDialog();
          }}
          onLogout={() => logout()}
        />
      </Menu>
      {password.dialog}
    </>
  );
}
