// The back office's change-password dialog, with a theme of its own: the form page has no MUI theme.
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { zhTW } from '@mui/material/locale';
import { ChangePasswordDialog } from '../account/ChangePasswordDialog';

const theme = createTheme(
  {
    palette: { primary: { main: '#1565c0' } },
    typography: {
      fontFamily:
        "system-ui, -apple-system, 'Segoe UI', 'PingFang TC', 'Noto Sans TC', 'Microsoft JhengHei', sans-serif",
      button: { textTransform: 'none' },
    },
  },
  zhTW,
);

export default function PasswordDialog(props: { onClose: () => void; onChanged: () => void; username?: string }) {
  return (
    <ThemeProvider theme={theme}>
      <ChangePasswordDialog {...props} />
    </ThemeProvider>
  );
}
