import EditNoteIcon from '@mui/icons-material/EditNote';
import LogoutIcon from '@mui/icons-material/Logout';
import { Box, Button, Typography, useMediaQuery, type Theme } from '@mui/material';
import { AppBar as RaAppBar, TitlePortal, useLogout } from 'react-admin';
import { appTitle } from '../config';
import { StoreSwitcher } from './StoreSwitcher';
import { UserMenu } from './UserMenu';

export function AppBar() {
  const logout = useLogout();
  const wide = useMediaQuery((t: Theme) => t.breakpoints.up('md'));
  return (
    <RaAppBar userMenu={false} color="primary" sx={{ '& .RaAppBar-toolbar': { minHeight: { md: 64 } } }}>
      <Typography
        variant="h6"
        component="span"
        sx={{ mr: 2, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      >
        {appTitle()}
      </Typography>
      {/* on a phone the title alone fits */}
      <TitlePortal
        variant="body1"
        sx={{
          opacity: 0.85,
          minWidth: 0,
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          visibility: wide ? 'visible' : 'hidden',
        }}
      />
      {wide && (
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            flexShrink: 0,
            '& .MuiButton-root': { whiteSpace: 'nowrap' },
          }}
        >
          <Button
            color="inherit"
            variant="outlined"
            size="small"
            startIcon={<EditNoteIcon />}
            href="/"
            sx={{ flexShrink: 0, minWidth: 'max-content' }}
          >
            匯款表單
          </Button>
          <StoreSwitcher onDark />
          <UserMenu />
          <Button color="inherit" size="small" startIcon={<LogoutIcon />} onClick={() => logout()}>
            登出
          </Button>
        </Box>
      )}
    </RaAppBar>
  );
}
