import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import AssessmentIcon from '@mui/icons-material/Assessment';
import HistoryIcon from '@mui/icons-material/History';
import EditNoteIcon from '@mui/icons-material/EditNote';
import PeopleIcon from '@mui/icons-material/People';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import StoreIcon from '@mui/icons-material/Store';
import { Box, Divider, MenuItem, ListItemIcon, ListItemText, useMediaQuery, type Theme } from '@mui/material';
import { Menu as RaMenu, useBasename, useLogout, useSidebarState } from 'react-admin';
import { gates } from '../../../core/browser';
import { useOwnPasswordDialog } from '../account/useOwnPasswordDialog';
import { useMe } from '../common/useMe';
import { AccountMenuItems } from './AccountMenuItems';
import { StoreSwitcher } from './StoreSwitcher';
import { UserBadge } from './UserBadge';

/** The spec's tabs as menu entries, each shown only with its permission; on phones the top bar's items too. */
export function Menu() {
  const { me } = useMe();
  const logout = useLogout();
  const base = useBasename();
  const [open] = useSidebarState();
  const narrow = useMediaQuery((t: Theme) => t.breakpoints.down('md'));
  const password = useOwnPasswordDialog();
  return (
    <RaMenu>
      {me && gates.viewPayments(me) && <RaMenu.Item to={`${base}/payments`} primaryText="匯款記錄" leftIcon={<ReceiptLongIcon />} />}
      {me && (gates.editPayments(me) || gates.managePayments(me)) && <RaMenu.Item to={`${base}/reconcile`} primaryText="對帳" leftIcon={<AccountBalanceIcon />} />}
      {me && gates.manageUsers(me) && <RaMenu.Item to={`${base}/users`} primaryText="會員管理" leftIcon={<PeopleIcon />} />}
      {me && gates.viewReports(me) && <RaMenu.Item to={`${base}/dashboard`} primaryText="統計儀表板" leftIcon={<AssessmentIcon />} />}
      {me && gates.manageStores(me) && <RaMenu.Item to={`${base}/stores`} primaryText="分店管理" leftIcon={<StoreIcon />} />}
      {me && gates.systemAdmin(me) && <RaMenu.Item to={`${base}/audit`} primaryText="稽核紀錄" leftIcon={<HistoryIcon />} />}
      {narrow && open && (
        <Box data-testid="mobile-menu-extras">
          <Divider sx={{ my: 1 }} />
          <Box sx={{ px: 2, py: 1 }}>
            <UserBadge />
          </Box>
          <Box sx={{ px: 2, py: 1 }}>
            <StoreSwitcher fullWidth />
          </Box>
          <MenuItem component="a" href="/">
            <ListItemIcon>
              <EditNoteIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>匯款表單</ListItemText>
          </MenuItem>
          <AccountMenuItems onChangePassword={password.openDialog} onLogout={() => logout()} />
        </Box>
      )}
      {password.dialog}
    </RaMenu>
  );
}
