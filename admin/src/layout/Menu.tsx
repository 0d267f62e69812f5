import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AssessmentIcon from '@mui/icons-material/Assessment';
import BackupIcon from '@mui/icons-material/Backup';
import CalculateIcon from '@mui/icons-material/Calculate';
import GridViewIcon from '@mui/icons-material/GridView';
import HistoryIcon from '@mui/icons-material/History';
import EditNoteIcon from '@mui/icons-material/EditNote';
import PeopleIcon from '@mui/icons-material/People';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import StoreIcon from '@mui/icons-material/Store';
import { Box, Divider, MenuItem, MenuList, ListItemIcon, ListItemText, useMediaQuery, type Theme } from '@mui/material';
import { Menu as RaMenu, useBasename, useLogout, useSidebarState } from 'react-admin';
import { canAccess } from '../../../core/browser';
import { useOwnPasswordDialog } from '../account/useOwnPasswordDialog';
import { useMe } from '../common/useMe';
import { AccountMenuItems } from './AccountMenuItems';
import { StoreSwitcher } from './StoreSwitcher';
import { UserBadge } from './UserBadge';

// On a phone the top bar's items come below the menu, not inside it: a menu holds menu items only (the
// store switcher is a combobox), so 匯款表單, 修改密碼 and 登出 are a second menu of their own.
const ENTRIES = [
  { resource: 'payments', label: '匯款記錄', icon: <ReceiptLongIcon /> },
  { resource: 'reconcile', label: '對帳', icon: <AccountBalanceIcon /> },
  { resource: 'close', label: '日結', icon: <CalculateIcon /> },
  { resource: 'closes', label: '日結總覽', icon: <GridViewIcon /> },
  { resource: 'users', label: '會員管理', icon: <PeopleIcon /> },
  { resource: 'dashboard', label: '統計儀表板', icon: <AssessmentIcon /> },
  { resource: 'stores', label: '分店管理', icon: <StoreIcon /> },
  { resource: 'audit', label: '稽核紀錄', icon: <HistoryIcon /> },
  { resource: 'backups', label: '備份', icon: <BackupIcon /> },
];

export function Menu() {
  const { me } = useMe();
  const logout = useLogout();
  const base = useBasename();
  const [open] = useSidebarState();
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('md'));
  const password = useOwnPasswordDialog();
  return (
    <>
      <RaMenu>
        {ENTRIES.filter((m) => me && canAccess(me, m.resource, 'menu')).map((m) => (
          <RaMenu.Item key={m.resource} to={`${base}/${m.resource}`} primaryText={m.label} leftIcon={m.icon} />
        ))}
      </RaMenu>
      {narrow && open && (
        <Box data-testid="mobile-menu-extras">
          <Divider sx={{ my: 1 }} />
          <Box sx={{ px: 2, py: 1 }}>
            <UserBadge />
          </Box>
          <Box sx={{ px: 2, py: 1 }}>
            <StoreSwitcher fullWidth />
          </Box>
          <MenuList>
            <MenuItem component="a" href="/">
              <ListItemIcon>
                <EditNoteIcon fontSize="small" />
              </ListItemIcon>
              <ListItemText>匯款表單</ListItemText>
            </MenuItem>
            <AccountMenuItems onChangePassword={password.openDialog} onLogout={() => logout()} />
          </MenuList>
        </Box>
      )}
      {password.dialog}
    </>
  );
}
